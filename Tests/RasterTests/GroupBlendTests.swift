import XCTest
import Raster

/// Ring and shadow as one group faded by outerDotAlpha, against a floating-point reference.
final class GroupBlendTests: XCTestCase {
    func testGroupCompositeMatchesFloatReference() {
        let ring = Color(r: 255, g: 255, b: 255), shadow = Color(r: 0, g: 0, b: 0)
        for g in [255, 200, 128, 40] {
            let k = GroupBlend.knockoutTable(groupAlpha: g)
            for ringAlpha in [255, 180] { for cov in [0, 1, 64, 128, 200, 254, 255] { for s in [0, 30, 77, 200] {
                let dst: UInt32 = 0xFFE5_E3DF
                var px = dst
                var shadowRow = [UInt8(s)], discRow = [UInt8(cov)]
                k.withUnsafeBufferPointer { kp in
                    GroupBlend.row(&px, 0, 1, shadow: &shadowRow, disc: &discRow,
                                   shadowPaint: SolidPaint(shadow), discPaint: SolidPaint(ring),
                                   discAlpha: UInt32(ringAlpha), groupAlpha: UInt32(g), knockout: kp.baseAddress!)
                }
                // Reference: the group (ring over shadow, premultiplied), faded by g, over dst.
                // `s` already includes g, as the masks do.
                let gA = Double(g) / 255, aR = Double(ringAlpha) / 255 * Double(cov) / 255
                let aS = Double(s) / 255 / gA
                for (shift, ringC, shC) in [(16, 255.0, 0.0), (8, 255.0, 0.0), (0, 255.0, 0.0)] {
                    let d = Double((dst >> UInt32(shift)) & 0xFF)
                    let groupPremul = ringC * aR + shC * aS * (1 - aR)
                    let groupAlpha = aR + aS * (1 - aR)
                    let ref = gA * groupPremul + (1 - gA * groupAlpha) * d
                    let got = Double((px >> UInt32(shift)) & 0xFF)
                    XCTAssertEqual(got, ref, accuracy: 2.0, "g \(g) ring α \(ringAlpha) cov \(cov) s \(s)")
                }
            } } }
        }
    }
}
