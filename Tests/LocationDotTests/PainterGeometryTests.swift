import XCTest
import LocationDot
import Raster

/// What the look must show: the layers' sizes on rendered pixels at scale 1, 2 and 3, measured by
/// summed coverage (radius = √(Σ/π)), each within 0.5 px; the shadow 2·S px down.
final class PainterGeometryTests: XCTestCase {
    private func radius(_ style: DotStyle, scale: Double, _ look: DotAppearance = DotAppearance(), size: Int,
                        at c: (Double, Double)? = nil) -> (r: Double, x: Double, y: Double) {
        let f = PainterFixture.frame(size, .black)
        let (cx, cy) = c ?? (Double(size) / 2, Double(size) / 2)
        DotPainter(style: style, scale: scale).paint(into: f.buffer, centerX: cx, centerY: cy, appearance: look, clip: f.buffer.bounds)
        let m = PainterFixture.coverage(f)
        return ((m.sum / Double.pi).squareRoot(), m.x, m.y)
    }

    func testRingDiscRadiusIs11S() {
        for s in [1.0, 2.0, 3.0] {
            let m = radius(PainterFixture.only(ring: true), scale: s, size: Int(30 * s), at: (15 * s + 0.3, 15 * s + 0.7))
            XCTAssertEqual(m.r, 11 * s, accuracy: 0.5, "scale \(s)")
            XCTAssertEqual(m.r, 11 * s, accuracy: 0.05, "scale \(s): far tighter than required")
            XCTAssertEqual(m.x, 15 * s + 0.3, accuracy: 0.01)
        }
    }

    func testInnerDotRadiusIs8SAndFollowsTheBreath() {
        for s in [1.0, 2.0, 3.0] {
            XCTAssertEqual(radius(PainterFixture.only(dot: true), scale: s, size: Int(30 * s)).r, 8 * s, accuracy: 0.5, "scale \(s)")
            var look = DotAppearance()
            look.dotSize = 0.8  // the breath's small end: 12.8 pt
            look.dotOpacity = 1
            XCTAssertEqual(radius(PainterFixture.only(dot: true), scale: s, look, size: Int(30 * s)).r, 6.4 * s, accuracy: 0.5)
        }
        var inset = PainterFixture.only(dot: true)
        inset.colorDotInset = 5
        XCTAssertEqual(radius(inset, scale: 2, size: 60).r, 12, accuracy: 0.5, "(22 − 2·5)/2 pt at scale 2")
    }

    func testHaloRadiusIs58_3STimesItsSize() {
        for s in [1.0, 2.0, 3.0] {
            for size in [0.25, 0.5, 1.0] {
                var look = DotAppearance()
                look.haloSize = size
                look.haloOpacity = 1
                let m = radius(PainterFixture.only(halo: true), scale: s, look, size: Int(125 * s))
                XCTAssertEqual(m.r, 58.3 * s * size, accuracy: 0.5, "scale \(s) size \(size)")
            }
        }
    }

    func testHaloOpacityAndColourAlphaMultiply() {
        var style = PainterFixture.only(halo: true)
        style.pulseColor = Color(r: 255, g: 255, b: 255, a: 128)
        var look = DotAppearance()
        look.haloSize = 0.5
        look.haloOpacity = 0.45
        let f = PainterFixture.frame(80, .black)
        DotPainter(style: style, scale: 1).paint(into: f.buffer, centerX: 40, centerY: 40, appearance: look, clip: f.buffer.bounds)
        XCTAssertEqual(Int((f.buffer.pixel(x: 40, y: 40) >> 16) & 0xFF), Int((0.45 * 128).rounded()), accuracy: 1)
    }

    /// The shadow alone (ring and dot transparent): a blurred disc of the ring's size, 2·S px
    /// below the centre, with the disc's mass × shadowOpacity.
    func testShadowIsOffset2SDownAndKeepsTheRingsMass() {
        for s in [1.0, 2.0, 3.0] {
            var style = PainterFixture.only()
            style.shadowOpacity = 1
            let size = Int(50 * s)
            let f = PainterFixture.frame(size, .white)
            let c = Double(size) / 2 + 0.25
            DotPainter(style: style, scale: s).paint(into: f.buffer, centerX: c, centerY: c, appearance: DotAppearance(), clip: f.buffer.bounds)
            let m = PainterFixture.coverage(f, invert: true)
            XCTAssertEqual(m.y - c, 2 * s, accuracy: 1.0 / 16 + 0.02, "scale \(s)")
            XCTAssertEqual(m.x - c, 0, accuracy: 1.0 / 16 + 0.02, "scale \(s)")
            XCTAssertEqual(m.sum, Double.pi * 121 * s * s, accuracy: Double.pi * 121 * s * s * 0.01)
        }
    }

    func testSixteenthPixelMoveMovesTheDotsCentroidBySixteenthPixel() {
        var style = DotStyle()
        style.shadowOpacity = 0  // the shadow's own placement is 1/8 px; see the shadow test
        for s in [1.0, 2.0] {
            let painter = DotPainter(style: style, scale: s)
            var last: (sum: Double, x: Double, y: Double)? = nil
            for step in 0...16 {
                let f = PainterFixture.frame(Int(40 * s), .black)
                let c = 20 * s + Double(step) / 16
                painter.paint(into: f.buffer, centerX: c, centerY: 20 * s - Double(step) / 32, appearance: DotAppearance(), clip: f.buffer.bounds)
                let m = PainterFixture.coverage(f, shift: 16)  // red: the white ring (the blue dot has no red)
                if let last {
                    XCTAssertEqual(m.x - last.x, 1.0 / 16, accuracy: 0.02, "scale \(s) step \(step)")
                    XCTAssertEqual(m.y - last.y, -1.0 / 32, accuracy: 0.02, "scale \(s) step \(step)")
                }
                last = m
            }
        }
    }

    func testCentrePixelIsExactlyTheDotColourAndRingShowsAround() {
        let f = PainterFixture.frame(60, Color(r: 0xE5, g: 0xE3, b: 0xDF))
        DotPainter(style: DotStyle(), scale: 2).paint(into: f.buffer, centerX: 30, centerY: 30, appearance: DotAppearance(), clip: f.buffer.bounds)
        XCTAssertEqual(f.buffer.pixel(x: 30, y: 30), 0xFF00_7AFF)
        XCTAssertEqual(f.buffer.pixel(x: 29, y: 37), 0xFF00_7AFF, "7.5 px from the centre, inside 16 px")
        XCTAssertEqual(f.buffer.pixel(x: 30 + 18, y: 30), 0xFFFF_FFFF, "white ring between 16 and 22 px at scale 2")
        XCTAssertEqual(f.buffer.pixel(x: 30 - 19, y: 29), 0xFFFF_FFFF)
    }
}
