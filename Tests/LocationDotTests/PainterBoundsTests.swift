import XCTest
import LocationDot
import Raster

/// The returned rectangle: nothing outside it changes, the pop's overshoot is inside it, and a
/// clipped paint is exactly the same region of a full paint (what damage redraw relies on).
final class PainterBoundsTests: XCTestCase {
    static let arrow = AlphaMask(width: 9, height: 15, alpha: (0..<135).map { i in
        let x = i % 9, y = i / 9
        return UInt8(y < 5 ? (abs(x - 4) <= y ? 255 : 0) : (abs(x - 4) <= 1 ? 180 : 0))
    })

    static func busyStyle() -> DotStyle {
        var s = DotStyle()
        s.headingImage = arrow
        s.imageScale = 0.5
        s.outerDotAlpha = 0.7
        s.shadowOffsetX = 1.5
        return s
    }

    static func busyLooks() -> [DotAppearance] {
        var a = DotAppearance()
        a.haloSize = 0.6; a.haloOpacity = 0.3; a.dotSize = 0.9; a.dotOpacity = 0.9
        a.accuracyRadiusPx = 70; a.heading = 33.3
        var pop = a
        pop.popScale = 1.25
        var small = a
        small.popScale = 0.05; small.accuracyRadiusPx = 0
        var stale = a
        stale.staleness = 0.5; stale.heading = 250
        var ring = a
        ring.ringOnly = true; ring.heading = nil
        return [a, pop, small, stale, ring]
    }

    private func changed(_ a: OwnedPixelBuffer, _ b: OwnedPixelBuffer) -> Rect {
        var r = Rect.empty
        for y in 0..<a.buffer.height { for x in 0..<a.buffer.width where a.buffer.pixel(x: x, y: y) != b.buffer.pixel(x: x, y: y) {
            r = r.union(Rect(x: x, y: y, width: 1, height: 1))
        } }
        return r
    }

    func testNothingOutsideTheReturnedRectChanges() {
        var withImage = Self.busyStyle()
        withImage.image = Self.arrow
        for style in [Self.busyStyle(), withImage, DotStyle()] { for scale in [1.0, 2.0] { for look in Self.busyLooks() {
            let painter = DotPainter(style: style, scale: scale)
            let bg = PainterFixture.patterned(200, 180)
            let f = PainterFixture.patterned(200, 180)
            let (cx, cy) = (97.3, 88.81)
            let touched = painter.paint(into: f.buffer, centerX: cx, centerY: cy, appearance: look, clip: f.buffer.bounds)
            let bounds = painter.bounds(centerX: cx, centerY: cy, appearance: look)
            XCTAssertEqual(touched, bounds.intersection(f.buffer.bounds))
            let diff = changed(f, bg)
            XCTAssertFalse(diff.isEmpty)
            XCTAssertEqual(diff.union(touched), touched, "changed \(diff) outside returned \(touched), scale \(scale) \(look)")
            // Tight: the rectangle hugs what changed (sprite bounds keep one pixel for rounding).
            XCTAssertLessThanOrEqual(touched.width - diff.width, 4, "\(touched) vs changed \(diff)")
            XCTAssertLessThanOrEqual(touched.height - diff.height, 4, "\(touched) vs changed \(diff)")
        } } }
    }

    func testPopOvershootWidensTheRect() {
        let painter = DotPainter(style: DotStyle(), scale: 2)
        var look = DotAppearance()
        let still = painter.bounds(centerX: 100, centerY: 100, appearance: look)
        look.popScale = 1.25
        let pop = painter.bounds(centerX: 100, centerY: 100, appearance: look)
        XCTAssertTrue(pop.union(still) == pop && pop.width > still.width + 8, "\(pop) vs \(still)")
        // Ring 22 pt × 1.25 at scale 2: 27.5 px radius; shadow reaches further down.
        XCTAssertLessThanOrEqual(pop.x, 100 - 28)
        XCTAssertGreaterThanOrEqual(pop.maxY, 100 + 28 + 5)
    }

    func testClippedPaintEqualsTheSameRegionOfAFullPaint() {
        for scale in [1.0, 2.0] { for look in Self.busyLooks() {
            let painter = DotPainter(style: Self.busyStyle(), scale: scale)
            let full = PainterFixture.patterned(200, 180)
            painter.paint(into: full.buffer, centerX: 101.6, centerY: 90.2, appearance: look, clip: full.buffer.bounds)
            for clip in [Rect(x: 80, y: 70, width: 17, height: 40), Rect(x: 0, y: 95, width: 200, height: 3),
                         Rect(x: 99, y: 0, width: 5, height: 180), Rect(x: 120, y: 100, width: 60, height: 60)] {
                let part = PainterFixture.patterned(200, 180)
                let ref = PainterFixture.patterned(200, 180)
                let touched = painter.paint(into: part.buffer, centerX: 101.6, centerY: 90.2, appearance: look, clip: clip)
                XCTAssertEqual(touched.union(clip), clip)
                for y in 0..<180 { for x in 0..<200 {
                    let want = clip.contains(x: x, y: y) ? full.buffer.pixel(x: x, y: y) : ref.buffer.pixel(x: x, y: y)
                    if part.buffer.pixel(x: x, y: y) != want {
                        XCTFail("clip \(clip) differs at (\(x),\(y)), scale \(scale)"); return
                    }
                } }
            }
        } }
    }

    func testDotAtTheFrameEdgeIsClippedToTheFrame() {
        let painter = DotPainter(style: Self.busyStyle(), scale: 2)
        let f = PainterFixture.patterned(60, 50)
        let touched = painter.paint(into: f.buffer, centerX: 2.5, centerY: 48, appearance: Self.busyLooks()[1], clip: f.buffer.bounds)
        XCTAssertEqual(touched, f.buffer.bounds.intersection(touched))
        XCTAssertFalse(touched.isEmpty)
        XCTAssertEqual(painter.paint(into: f.buffer, centerX: -500, centerY: 48, appearance: DotAppearance(), clip: f.buffer.bounds), .empty)
    }
}
