import XCTest
@testable import LocationDot
import Raster

/// The layout's products that pass 32 bits: a Q8 length times the Q16 pop scale reaches 2^41
/// (2^31 already for a 3× ring at the pop clamp), and a sprite's Q16 scale passes 2^31 when
/// imageScale is small. Each against a Double or Int128 computation of the same value.
final class PainterRangeTests: XCTestCase {
    /// round(v · pop16 / 2^16), halves up, in Double (exact: the product is below 2^53).
    private func popScaled(_ v: Int, _ pop16: Int) -> Int {
        Int((Double(v) * Double(pop16) / 65536 + 0.5).rounded(.down))
    }

    func testRingAndShadowOffsetScaledByThePopAtALargeScale() throws {
        var style = DotStyle()
        style.shadowOffsetX = 123.4
        style.shadowOffsetY = -77.7
        let scale = 4.0, cx = 30000.3, cy = 20000.7
        let painter = DotPainter(style: style, scale: scale)
        let ring256 = Fixed.snap(DotStyle.ringDiameter / 2 * scale)
        let offX = Fixed.snap(123.4 * scale), offY = Fixed.snap(-77.7 * scale)
        XCTAssertGreaterThan(Int64(offX) * Int64(4 * 65536), Int64(Int32.max))
        for pop in [4.0, 3.3, 1.25, 1, 0.05] {
            var look = DotAppearance()
            look.popScale = pop
            let pop16 = Fixed.unit(pop / 4, scale: 4 * 65536)
            let g = try XCTUnwrap(painter.layout(centerX: cx, centerY: cy, appearance: look).group)
            XCTAssertEqual(g.ring.radius256, popScaled(ring256, pop16), "pop \(pop)")
            XCTAssertEqual(g.shadowX256, Fixed.snap(cx) + popScaled(offX, pop16), "pop \(pop)")
            XCTAssertEqual(g.shadowY256, Fixed.snap(cy) + popScaled(offY, pop16), "pop \(pop)")
            if pop != 1 { XCTAssertEqual(g.shadowSprite?.scale, Int64(pop16)) }
        }
        // Nothing wraps at the clamp: the ring is four times its size.
        var look = DotAppearance()
        look.popScale = 9
        let g = try XCTUnwrap(painter.layout(centerX: cx, centerY: cy, appearance: look).group)
        XCTAssertEqual(g.ring.radius256, 4 * ring256)
    }

    func testSpriteScalePastInt32WhenImageScaleIsSmall() throws {
        var style = DotStyle()
        style.headingImage = PainterBoundsTests.arrow
        style.imageScale = 1e-5
        let painter = DotPainter(style: style, scale: 2)
        var look = DotAppearance()
        look.heading = 33.3
        look.popScale = 1.25
        let l = painter.layout(centerX: 400.25, centerY: 300.5, appearance: look)
        let h = try XCTUnwrap(l.heading)
        let pop = Double(Fixed.unit(1.25 / 4, scale: 4 * 65536)) / 65536
        XCTAssertEqual(h.scale, Int64((2 / 1e-5 * pop * 65536).rounded()))
        XCTAssertGreaterThan(h.scale, Int64(Int32.max))
        // Bounds: the arrow's support mapped forward in Int128, one pixel wider.
        let (s, c) = FixedTrig.sinCos(degrees: 33.3)
        let m = PainterBoundsTests.arrow
        var lo = (x: Int128.max, y: Int128.max), hi = (x: Int128.min, y: Int128.min)
        for vx in [Int128(-128 - m.width * 128), Int128(m.width * 128 + 128)] {
            for vy in [Int128(-128 - m.height * 128), Int128(m.height * 128 + 128)] {
                let fx = (Int128(h.scale) * (Int128(c) * vx - Int128(s) * vy)) >> 32
                let fy = (Int128(h.scale) * (Int128(s) * vx + Int128(c) * vy)) >> 32
                lo = (min(lo.x, fx), min(lo.y, fy)); hi = (max(hi.x, fx), max(hi.y, fy))
            }
        }
        let d = (x: Int128(Fixed.snap(400.25)), y: Int128(Fixed.snap(300.5)))
        let x0 = Int((d.x + lo.x) >> 8) - 1, y0 = Int((d.y + lo.y) >> 8) - 1
        let x1 = Int(-((-(d.x + hi.x)) >> 8)) + 1, y1 = Int(-((-(d.y + hi.y)) >> 8)) + 1
        XCTAssertEqual(h.bounds(width: m.width, height: m.height), Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        XCTAssertEqual(l.bounds.union(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)), l.bounds)
    }
}
