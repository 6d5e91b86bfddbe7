import LocationDot
import Raster
import XCTest

/// The painter against `ReferenceDotPainter` (the exact oracle) over whole halo cycles, where a
/// faint, large halo takes its coverage from `DiscProfile`: every channel of every frame within
/// 2/255, drawn over a patterned background (restored and painted in one pass) and over the frame
/// itself, at the scales kiosks run. Frames whose halo takes the exact walk stay byte-equal.
final class PainterProfileTests: XCTestCase {
    private func largestDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        var m = 0
        for y in 0..<a.height {
            let p = a.row(y).assumingMemoryBound(to: UInt32.self), q = b.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<a.width where p[x] != q[x] {
                for shift: UInt32 in [0, 8, 16] {
                    m = max(m, abs(Int((p[x] >> shift) & 0xFF) - Int((q[x] >> shift) & 0xFF)))
                }
            }
        }
        return m
    }

    func testEveryFrameOfACycleStaysWithinTwoOf255OfTheReference() {
        var stock = DotStyle()
        stock.delayBetweenPulseCycles = 0
        stock.pulseAnimationDuration = 1.5
        var dark = stock
        dark.pulseColor = Color(r: 255, g: 40, b: 0)
        var profiled = 0, exactFrames = 0, worst = 0
        for (style, scale) in [(stock, 1.0), (DotStyle(), 1.0), (stock, 1.5), (dark, 2.0)] {
            let painter = DotPainter(style: style, scale: scale), reference = ReferenceDotPainter(style: style, scale: scale)
            let clock = DotClock(style: style)
            let size = Int(140 * scale)
            let background = PainterFixture.patterned(size, size)
            let fast = OwnedPixelBuffer(width: size, height: size, format: .xrgb8888)
            let plain = PainterFixture.patterned(size, size), oracle = PainterFixture.patterned(size, size)
            var n = 0
            // 3 s of stock cycle (4 s with the README's delay) at 20 frames a second, the centre
            // moving by an irregular fraction of a pixel each frame.
            while Double(n) / 20 < 4 {
                let t = Double(n) / 20
                let look = clock.appearance(at: t)
                let x = Double(size) / 2 + Double((n * 37) % 256) / 256, y = Double(size) / 2 - Double((n * 91) % 256) / 256
                painter.paint(into: fast.buffer, over: background.buffer, centerX: x, centerY: y, appearance: look, clip: fast.buffer.bounds)
                plain.bytes.copyBytes(from: background.bytes)
                painter.paint(into: plain.buffer, centerX: x, centerY: y, appearance: look, clip: plain.buffer.bounds)
                oracle.bytes.copyBytes(from: background.bytes)
                reference.paint(into: oracle.buffer, centerX: x, centerY: y, appearance: look)
                let d = max(largestDifference(fast.buffer, oracle.buffer), largestDifference(plain.buffer, oracle.buffer))
                XCTAssertLessThanOrEqual(d, 2, "scale \(scale) t \(t): \(d)/255 from the reference")
                worst = max(worst, d)
                let haloRadius256 = Int(11 * style.pulseScaleFactor * scale * look.haloSize * look.popScale * 256)
                let alpha = UInt32((look.haloOpacity * 255).rounded())
                if look.haloOpacity > 0 && DiscProfile.kind(radius256: haloRadius256, paintAlpha: alpha) != nil {
                    profiled += 1
                } else {
                    exactFrames += 1
                    XCTAssertEqual(d, 0, "scale \(scale) t \(t): a frame drawn exactly differs from the reference")
                }
                n += 1
            }
        }
        // Both roads taken, so the bound above is a bound on the profile.
        XCTAssertGreaterThan(profiled, 100)
        XCTAssertGreaterThan(exactFrames, 50)
        print("PainterProfileTests: \(profiled) frames with a profiled halo, \(exactFrames) exact; largest difference \(worst)/255")
    }
}
