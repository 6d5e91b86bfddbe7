import XCTest
import Raster

/// Anti-aliased discs: area, edge ramp, exact interior, sub-pixel motion, clipping, bounds.
final class DiscTests: XCTestCase {
    /// White disc on black; returns the frame and the summed coverage (Σ red / 255) with centroid.
    private func render(_ d: Disc, size: Int = 64, clip: Rect? = nil, raster: DiscRasterizer = DiscRasterizer())
        -> (frame: OwnedPixelBuffer, sum: Double, cx: Double, cy: Double, touched: Rect) {
        let f = TestFrames.solid(width: size, height: size, .black)
        let touched = raster.fill(d, SolidPaint(.white), into: f.buffer, clip: clip ?? f.buffer.bounds)
        var sum = 0.0, mx = 0.0, my = 0.0
        for y in 0..<size { for x in 0..<size {
            let c = Double(f.buffer.channels(x: x, y: y).r) / 255
            sum += c; mx += c * (Double(x) + 0.5); my += c * (Double(y) + 0.5)
        } }
        return (f, sum, mx / sum, my / sum, touched)
    }

    func testSummedCoverageIsPiRSquaredWithinHalfAPercent() {
        for r in [3.0, 3.3, 4.0, 5.5, 8.0, 11.0, 16.0, 25.7] {
            for (fx, fy) in [(0.0, 0.0), (0.5, 0.5), (0.3125, 0.8125), (0.77, 0.11)] {
                let out = render(Disc(centerX: 32 + fx, centerY: 32 + fy, radius: r))
                let area = Double.pi * r * r
                XCTAssertEqual(out.sum, area, accuracy: area * 0.005, "r=\(r) at +\(fx),+\(fy)")
                XCTAssertEqual(out.cx, 32 + fx, accuracy: 0.01)
                XCTAssertEqual(out.cy, 32 + fy, accuracy: 0.01)
            }
        }
    }

    func testCentrePixelsAreExactlyTheColourWhenOpaque() {
        let f = TestFrames.solid(width: 40, height: 40, Color(r: 229, g: 227, b: 223))
        let c = Color(r: 0, g: 122, b: 255)
        DiscRasterizer().fill(Disc(centerX: 20.3, centerY: 19.9, radius: 8), SolidPaint(c), into: f.buffer, clip: f.buffer.bounds)
        for y in 15...25 { for x in 15...25 where hypot(Double(x) + 0.5 - 20.3, Double(y) + 0.5 - 19.9) < 6.5 {
            XCTAssertEqual(f.buffer.pixel(x: x, y: y), 0xFF00_7AFF, "(\(x),\(y))")
        } }
    }

    func testEdgeRampIsMonotonicAlongEveryRadius() {
        let cx = 32.37, cy = 31.81, r = 12.0
        let out = render(Disc(centerX: cx, centerY: cy, radius: r))
        // Along rows and columns outward from the centre, coverage never increases.
        for y in 0..<64 {
            var last = 256
            for x in Int(cx)..<64 { let v = out.frame.buffer.channels(x: x, y: y).r; XCTAssertLessThanOrEqual(v, last, "row \(y) x \(x)"); last = v }
            last = 256
            for x in stride(from: Int(cx), through: 0, by: -1) { let v = out.frame.buffer.channels(x: x, y: y).r; XCTAssertLessThanOrEqual(v, last); last = v }
        }
        for x in 0..<64 {
            var last = 256
            for y in Int(cy)..<64 { let v = out.frame.buffer.channels(x: x, y: y).r; XCTAssertLessThanOrEqual(v, last, "col \(x) y \(y)"); last = v }
        }
        // And the ramp across the edge has intermediate values (it is anti-aliased, not hard).
        let ramp = (40...46).map { out.frame.buffer.channels(x: $0, y: 31).r }
        XCTAssertTrue(ramp.contains { $0 > 0 && $0 < 255 }, "\(ramp)")
    }

    func testSixteenthPixelMoveMovesTheCentroidBySixteenthPixel() {
        for r in [3.0, 8.0, 11.0] {
            var prev = render(Disc(centerX: 30.0, centerY: 30.0, radius: r))
            for step in 1...20 {
                let off = Double(step) / 16
                let now = render(Disc(centerX: 30 + off, centerY: 30 + off * 0.5, radius: r))
                XCTAssertEqual(now.cx - prev.cx, 1.0 / 16, accuracy: 0.02, "r=\(r) step \(step) x")
                XCTAssertEqual(now.cy - prev.cy, 0.5 / 16, accuracy: 0.02, "r=\(r) step \(step) y")
                prev = now
            }
        }
    }

    func testNothingOutsideTheReturnedRectChangesAndBoundsAreTight() {
        for (cx, cy, r) in [(20.5, 20.5, 6.0), (7.13, 50.9, 9.4), (31.99, 32.01, 3.0), (0.2, 0.3, 5.0), (60.0, 61.0, 10.0)] {
            let raster = DiscRasterizer()
            let d = Disc(centerX: cx, centerY: cy, radius: r)
            let out = render(d, raster: raster)
            XCTAssertEqual(out.touched, raster.bounds(d).intersection(Rect(x: 0, y: 0, width: 64, height: 64)))
            var used = Rect.empty
            for y in 0..<64 { for x in 0..<64 where out.frame.buffer.pixel(x: x, y: y) != 0xFF00_0000 {
                XCTAssertTrue(out.touched.contains(x: x, y: y), "(\(x),\(y)) changed outside \(out.touched)")
                used = used.union(Rect(x: x, y: y, width: 1, height: 1))
            } }
            // Tight: the box is at most one pixel larger than what changed on any side.
            XCTAssertLessThanOrEqual(out.touched.width - used.width, 2, "\(out.touched) vs \(used)")
            XCTAssertLessThanOrEqual(out.touched.height - used.height, 2, "\(out.touched) vs \(used)")
        }
    }

    func testClippedDrawingEqualsTheSameRegionOfAnUnclippedOne() {
        let d = Disc(centerX: 30.4, centerY: 28.7, radius: 14.2)
        let whole = render(d)
        for clip in [Rect(x: 20, y: 10, width: 13, height: 9), Rect(x: 0, y: 30, width: 64, height: 1),
                     Rect(x: 43, y: 20, width: 3, height: 30), Rect(x: 31, y: 29, width: 2, height: 2)] {
            let part = render(d, clip: clip)
            for y in 0..<64 { for x in 0..<64 {
                let want = clip.contains(x: x, y: y) ? whole.frame.buffer.pixel(x: x, y: y) : 0xFF00_0000
                XCTAssertEqual(part.frame.buffer.pixel(x: x, y: y), want, "clip \(clip) at (\(x),\(y))")
            } }
        }
    }

    func testTranslucentPaintAndTinyAndEmptyDiscs() {
        let out = render(Disc(centerX: 10, centerY: 10, radius: 0))
        XCTAssertEqual(out.sum, 0)
        XCTAssertEqual(out.touched, .empty)
        let tiny = render(Disc(centerX: 10.5, centerY: 10.5, radius: 0.5))
        XCTAssertEqual(tiny.sum, Double.pi / 4, accuracy: 0.05)
        let f = TestFrames.solid(width: 20, height: 20, .black)
        DiscRasterizer().fill(Disc(centerX: 10, centerY: 10, radius: 6), SolidPaint(Color(r: 255, g: 255, b: 255, a: 128), opacity: 255),
                              into: f.buffer, clip: f.buffer.bounds)
        XCTAssertEqual(f.buffer.channels(x: 10, y: 10).r, 128)
    }

    func testHugeDiscIsClippedToTheFrame() {
        let f = TestFrames.solid(width: 30, height: 20, .black)
        let touched = DiscRasterizer(initialWidth: 4).fill(Disc(centerX: 15, centerY: 10, radius: 20000),
                                                            SolidPaint(.white), into: f.buffer, clip: f.buffer.bounds)
        XCTAssertEqual(touched, f.buffer.bounds)
        XCTAssertEqual(f.buffer.pixel(x: 0, y: 0), 0xFFFF_FFFF)
        XCTAssertEqual(f.buffer.pixel(x: 29, y: 19), 0xFFFF_FFFF)
    }

    /// Every pixel's coverage against the true circle's (64×64 samples per pixel): the polygon
    /// stands within 1/64 px of the circle, so no pixel is off by more than 3/255 (measured: 2/255).
    func testEachPixelMatchesTheTrueCircleCoverage() {
        for (cx, cy, r) in [(20.3, 19.7, 3.0), (31.13, 30.52, 11.0), (32.0, 32.0, 27.9)] {
            let out = render(Disc(centerX: cx, centerY: cy, radius: r))
            var worst = 0.0
            for y in Int(cy - r - 1)...Int(cy + r + 1) { for x in Int(cx - r - 1)...Int(cx + r + 1) {
                var inside = 0
                for sy in 0..<64 { for sx in 0..<64 {
                    let dx = Double(x) + (Double(sx) + 0.5) / 64 - cx, dy = Double(y) + (Double(sy) + 0.5) / 64 - cy
                    if dx * dx + dy * dy < r * r { inside += 1 }
                } }
                let want = Double(inside) / 4096
                let got = Double(out.frame.buffer.channels(x: x, y: y).r) / 255
                worst = max(worst, abs(got - want))
            } }
            XCTAssertLessThan(worst, 0.012, "r=\(r): worst pixel off by \(worst)")
        }
    }

    func testClippingAHugeDiscGivesTheSamePixels() {
        let d = Disc(centerX: -150.3, centerY: 90.6, radius: 200.2)  // cap rows cross many columns
        let whole = render(d)
        for clip in [Rect(x: 10, y: 0, width: 7, height: 64), Rect(x: 40, y: 0, width: 24, height: 64), Rect(x: 0, y: 0, width: 1, height: 64)] {
            let part = render(d, clip: clip)
            for y in 0..<64 { for x in 0..<64 {
                let want = clip.contains(x: x, y: y) ? whole.frame.buffer.pixel(x: x, y: y) : 0xFF00_0000
                XCTAssertEqual(part.frame.buffer.pixel(x: x, y: y), want, "clip \(clip) at (\(x),\(y))")
            } }
        }
        XCTAssertGreaterThan(whole.sum, 100)
    }
}
