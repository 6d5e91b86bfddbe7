import XCTest
@testable import Raster

/// Both profiles (tangent and ramp) against the exact polygon area, over every kind of radius the
/// halo takes (just below each of the rasterizer's polygon switches, where its polygon strays most
/// from the circle, and anywhere else), centres anywhere in a pixel, whole discs and clipped ones:
/// no pixel's coverage differs by more than the kind's bound (`DiscProfile.maximumError`,
/// `rampError`), and the spans are the table's own format.
final class DiscProfileTests: XCTestCase {
    /// The largest coverage difference over rows of `d` in `clip` (clip widened by two pixels all
    /// round, so the profile's faint fringe outside the polygon's bounds is held too).
    private func worst(_ d: Disc, _ kind: DiscProfile.Kind, clip: Rect, _ exact: DiscRowTable, _ profile: DiscRowTable) -> Int {
        exact.reserve(rows: clip.height + 2, width: clip.width + 2)
        profile.reserve(rows: clip.height + 2, width: clip.width + 2)
        exact.rasterize(d, rows: clip.y, clip.maxY, clipX0: clip.x, clipX1: clip.maxX)
        profile.rasterizeProfile(d, kind, rows: clip.y, clip.maxY, clipX0: clip.x, clipX1: clip.maxX)
        var m = 0
        for y in clip.y..<clip.maxY {
            let e = exact.coverage(y, clip.x, clip.maxX), p = profile.coverage(y, clip.x, clip.maxX)
            for i in 0..<e.count { m = max(m, abs(Int(e[i]) - Int(p[i]))) }
        }
        return m
    }

    /// The table against the half-plane's share worked out by hand at a few points, and as a
    /// whole by its hash: it is made in integers, so it is these bytes on every CPU (a 32-bit
    /// `1 << 32` once made it other bytes on armv7).
    func testTableIsTheHalfPlanesShare() {
        let t = DiscProfile.table.bytes, depths = DiscProfile.depths, reach = DiscProfile.reach
        func at(_ i: Int, _ s256: Int) -> UInt8 { t[i * depths + reach + s256] }
        // An axis-aligned edge: a linear ramp over one pixel, 1/2 at the centre.
        XCTAssertEqual(at(0, 0), 128)
        XCTAssertEqual(at(0, -128), 255)
        XCTAssertEqual(at(0, 128), 0)
        XCTAssertEqual(at(0, 64), 64)      // 255 · 1/4, rounded half up
        // 45°: the ramp spans ±√2/2 px; a quarter of the way in, a corner triangle of area t²
        // (t = √2/2 − 0.5 = 0.2071 px gives 0.0429 → 11).
        XCTAssertEqual(at(181, 0), 128)
        XCTAssertEqual(at(181, 128), 11)
        XCTAssertEqual(at(181, -128), 244)
        XCTAssertEqual(at(181, 182), 0)
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for k in 0..<(DiscProfile.angles * depths) { h = (h ^ UInt64(t[k])) &* 0x100_0000_01b3 }
        XCTAssertEqual(h, 0xf2311657cec32433, "the table changed")
    }

    func testCoverageStaysWithinTheStatedErrorOfTheExactArea() {
        let exact = DiscRowTable(), profile = DiscRowTable()
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        // Just below each switch to more vertices (N² · 256 ≥ 316 · r), the polygon's worst.
        var radii = [DiscProfile.minimumRadius256, 13_273, 13_272, 13_200, 53_092, 53_000, 14_925, 29_850, 119_398]
        for _ in 0..<160 { radii.append(DiscProfile.minimumRadius256 + next(60_000)) }
        for _ in 0..<20 { radii.append(13_273 - next(700)); radii.append(53_092 - next(2_800)) }
        var overall: [DiscProfile.Kind: Int] = [.tangent: 0, .ramp: 0]
        for radius in radii {
            for phase in 0..<4 {
                let fx = [0, 128, next(256), next(256)][phase], fy = [0, 128, next(256), next(256)][phase]
                let d = Disc(centerX256: 700 * 256 + fx, centerY256: 600 * 256 + fy, radius256: radius)
                let b = DiscRasterizer().bounds(d)
                let wide = Rect(x: b.x - 2, y: b.y - 2, width: b.width + 4, height: b.height + 4)
                let cut = Rect(x: b.x + b.width / 3, y: b.y + 1, width: b.width / 2 + 1, height: b.height - 2)
                for clip in [wide, cut] {
                    for (kind, bound) in [(DiscProfile.Kind.tangent, DiscProfile.maximumError), (.ramp, DiscProfile.rampError)] {
                        let m = worst(d, kind, clip: clip, exact, profile)
                        overall[kind] = max(overall[kind]!, m)
                        XCTAssertLessThanOrEqual(m, bound, "\(kind) radius \(radius) phase (\(fx), \(fy)) clip \(clip)")
                    }
                }
            }
        }
        // The bounds are the measured worst (with at most one step to spare), not slack: a profile
        // made worse fails above, one made better shows here and the bounds can come down.
        XCTAssertGreaterThanOrEqual(overall[.tangent]!, DiscProfile.maximumError - 1)
        XCTAssertGreaterThanOrEqual(overall[.ramp]!, DiscProfile.rampError - 1)
        print("DiscProfileTests: largest coverage difference \(overall[.tangent]!)/255 (tangent), \(overall[.ramp]!)/255 (ramp) over \(radii.count) radii")
    }
}
