import Raster
import TestSupport
import XCTest

/// The thick polyline: coverage from the distance to the nearest segment, round joins and caps,
/// the same pixels however the canvas is cut into clips.
final class PolylineTests: XCTestCase {
    static let red = Color(r: 220, g: 20, b: 40)
    static let grey = Color(r: 64, g: 64, b: 64)

    static func line(_ points: [(Double, Double)], rowCapacity: Int = 2048) -> Polyline {
        let l = Polyline(rowCapacity: rowCapacity)
        l.set(points.map { Point256(x: $0.0, y: $0.1) })
        return l
    }

    /// A 6 px line, no casing: what is painted is the line alone.
    static func plain(_ color: Color = red, travelled: Color = Color(r: 0, g: 0, b: 255), width: Double = 6, casing: Double = 0) -> StrokeStyle {
        StrokeStyle(color: color, travelledColor: travelled, casingColor: .white,
                    width256: Int32(width * 256), casingWidth256: Int32(casing * 256))
    }

    /// An owned frame's pixels, the frame kept alive while read.
    static func pixels(_ o: OwnedPixelBuffer) -> [UInt32] {
        withExtendedLifetime(o) {
            let b = o.buffer
            return (0..<b.height).flatMap { y in Array(UnsafeBufferPointer(start: b.row(y).assumingMemoryBound(to: UInt32.self), count: b.width)) }
        }
    }

    func testCentreIsTheColourFarPixelsUntouchedEdgesPartial() {
        let canvas = TestFrames.solid(width: 120, height: 60, Self.grey)
        let l = Self.line([(10, 20.5), (100, 20.5)])
        l.stroke(Self.plain(), into: canvas.buffer, clip: canvas.buffer.bounds, viewX: 0, viewY: 0)
        let red = SolidPaint.pixel(Self.red), grey = SolidPaint.pixel(Self.grey)
        XCTAssertEqual(canvas.buffer.pixel(x: 50, y: 20), red)
        XCTAssertEqual(canvas.buffer.pixel(x: 50, y: 22), red, "2 px from the core of a 3 px radius")
        XCTAssertEqual(canvas.buffer.pixel(x: 50, y: 18), red)
        let edge = canvas.buffer.channels(x: 50, y: 23)
        XCTAssertEqual(edge.r, (220 + 64 + 1) / 2, accuracy: 1, "the centre on the edge: half covered")
        XCTAssertEqual(canvas.buffer.pixel(x: 50, y: 24), grey)
        XCTAssertEqual(canvas.buffer.pixel(x: 50, y: 16), grey)
        XCTAssertEqual(canvas.buffer.pixel(x: 50, y: 40), grey)
        XCTAssertEqual(canvas.buffer.pixel(x: 5, y: 20), grey, "beyond the round cap")
        XCTAssertEqual(canvas.buffer.pixel(x: 110, y: 20), grey)
        XCTAssertEqual(canvas.buffer.pixel(x: 8, y: 20), red, "inside the round cap")
    }

    /// Every pixel's alpha against the exact distance to the nearest segment in Doubles.
    func testCoverageFollowsTheDistanceToTheNearestSegment() {
        let points: [(Double, Double)] = [(12.3, 40.7), (70.1, 12.9), (95.6, 55.2), (30.4, 70.8), (88.8, 88.1)]
        let canvas = TestFrames.solid(width: 110, height: 100, .black)
        Self.line(points).stroke(Self.plain(.white, width: 7.5), into: canvas.buffer, clip: canvas.buffer.bounds, viewX: 0, viewY: 0)
        var worst = 0
        for y in 0..<100 {
            for x in 0..<110 {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                var d = Double.infinity
                for i in 0..<(points.count - 1) {
                    let (ax, ay) = points[i], (bx, by) = points[i + 1]
                    let dx = bx - ax, dy = by - ay
                    let t = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
                    d = min(d, ((px - ax - t * dx) * (px - ax - t * dx) + (py - ay - t * dy) * (py - ay - t * dy)).squareRoot())
                }
                let expected = Int((max(0, min(1, 3.75 + 0.5 - d)) * 255).rounded())
                worst = max(worst, abs(canvas.buffer.channels(x: x, y: y).g - expected))
            }
        }
        // Points snap to 1/256 px and distances floor to 1/256 px: a few 1/255 steps at most.
        XCTAssertLessThanOrEqual(worst, 3, "coverage off by \(worst)/255")
    }

    /// Lines symmetric about an axis or a diagonal draw symmetric pixels.
    func testSymmetricLinesHaveSymmetricCoverage() {
        let n = 64
        let diagonal = TestFrames.solid(width: n, height: n, Self.grey)
        Self.line([(10, 13.25), (50, 53.25)]).stroke(Self.plain(casing: 1.5), into: diagonal.buffer, clip: diagonal.buffer.bounds, viewX: 0, viewY: 0)
        let level = TestFrames.solid(width: n, height: n, Self.grey)
        Self.line([(8.3, 32), (55.7, 32)]).stroke(Self.plain(width: 5.3, casing: 1.5), into: level.buffer, clip: level.buffer.bounds, viewX: 0, viewY: 0)
        for y in 0..<n {
            for x in 0..<n {
                // The diagonal: mirrored across y = x + 3.25 is (y − 3.25, x + 3.25); use whole-pixel
                // pairs with an exact mirror: the line through (a, a + 3.25) — compare with a copy
                // drawn transposed instead.
                XCTAssertEqual(level.buffer.pixel(x: x, y: y), level.buffer.pixel(x: x, y: n - 1 - y), "(\(x), \(y)) across")
                XCTAssertEqual(level.buffer.pixel(x: x, y: y), level.buffer.pixel(x: n - 1 - x, y: y), "(\(x), \(y)) along")
            }
        }
        let transposed = TestFrames.solid(width: n, height: n, Self.grey)
        Self.line([(13.25, 10), (53.25, 50)]).stroke(Self.plain(casing: 1.5), into: transposed.buffer, clip: transposed.buffer.bounds, viewX: 0, viewY: 0)
        for y in 0..<n {
            for x in 0..<n {
                XCTAssertEqual(diagonal.buffer.pixel(x: x, y: y), transposed.buffer.pixel(x: y, y: x), "(\(x), \(y)) transposed")
            }
        }
    }

    /// A hairpin: every pixel within the radius of the turn's vertex is fully the line's.
    func testRoundJoinLeavesNoGapAtASharpTurn() {
        let canvas = TestFrames.solid(width: 100, height: 80, Self.grey)
        let vertex = (80.0, 40.0)
        Self.line([(10, 30), vertex, (10, 50)]).stroke(Self.plain(width: 10), into: canvas.buffer, clip: canvas.buffer.bounds, viewX: 0, viewY: 0)
        var inside = 0
        for y in 30..<50 {
            for x in 70..<90 {
                let dx = Double(x) + 0.5 - vertex.0, dy = Double(y) + 0.5 - vertex.1
                let d = (dx * dx + dy * dy).squareRoot()
                if d <= 4.4 {
                    inside += 1
                    XCTAssertEqual(canvas.buffer.pixel(x: x, y: y), SolidPaint.pixel(Self.red), "(\(x), \(y)), \(d) px from the vertex")
                }
                if d >= 5.6 && x >= 80 { XCTAssertEqual(canvas.buffer.pixel(x: x, y: y), SolidPaint.pixel(Self.grey), "(\(x), \(y)) beyond the join") }
            }
        }
        XCTAssertGreaterThan(inside, 50)
    }

    /// Seven random clips covering the canvas (and a row scratch narrower than the canvas) give
    /// the bytes of one whole draw.
    func testDrawingInPiecesEqualsDrawingWhole() {
        var rng = SplitMix(seed: 7)
        for round in 0..<6 {
            let w = 150, h = 110
            var points: [(Double, Double)] = []
            for _ in 0..<(3 + round * 4) { points.append((rng.double(-20, 170), rng.double(-20, 130))) }
            let style = Self.plain(width: rng.double(1, 14), casing: rng.double(0, 3))
            let line = Self.line(points)
            line.setTravelled(Int64(rng.double(0, 1) * Double(line.length256)))
            let view = (x: Int(rng.double(-40, 40)), y: Int(rng.double(-40, 40)))
            let whole = TestFrames.numbered(width: w, height: h)
            line.stroke(style, into: whole.buffer, clip: whole.buffer.bounds, viewX: view.x, viewY: view.y)
            let pieces = TestFrames.numbered(width: w, height: h)
            let narrow = Self.line(points, rowCapacity: 1 + round * 9)
            narrow.setTravelled(line.travelled256)
            for clip in Self.cut(Rect(x: 0, y: 0, width: w, height: h), into: 7, &rng) {
                narrow.stroke(style, into: pieces.buffer, clip: clip, viewX: view.x, viewY: view.y)
            }
            XCTAssertEqual(Self.pixels(whole), Self.pixels(pieces), "round \(round)")
        }
    }

    /// `rect` split by random guillotine cuts into `count` pieces that tile it exactly.
    static func cut(_ rect: Rect, into count: Int, _ rng: inout SplitMix) -> [Rect] {
        var pieces = [rect]
        while pieces.count < count {
            let i = pieces.indices.max { pieces[$0].area < pieces[$1].area }!
            let r = pieces.remove(at: i)
            if r.width >= r.height {
                let k = 1 + Int(rng.double(0, Double(r.width - 1)))
                pieces += [Rect(x: r.x, y: r.y, width: k, height: r.height), Rect(x: r.x + k, y: r.y, width: r.width - k, height: r.height)]
            } else {
                let k = 1 + Int(rng.double(0, Double(r.height - 1)))
                pieces += [Rect(x: r.x, y: r.y, width: r.width, height: k), Rect(x: r.x, y: r.y + k, width: r.width, height: r.height - k)]
            }
        }
        return pieces
    }

    /// The travelled colour exactly up to the boundary, the line's after it, one soft pixel.
    func testTravelledPartEndsAtTheBoundary() {
        let canvas = TestFrames.solid(width: 130, height: 40, Self.grey)
        let l = Self.line([(10, 20.5), (110, 20.5)])
        l.setTravelled(50 * 256)
        let blue = Color(r: 0, g: 0, b: 255)
        l.stroke(Self.plain(travelled: blue), into: canvas.buffer, clip: canvas.buffer.bounds, viewX: 0, viewY: 0)
        for x in 10..<60 { XCTAssertEqual(canvas.buffer.pixel(x: x, y: 20), SolidPaint.pixel(blue), "x \(x)") }
        for x in 60..<110 { XCTAssertEqual(canvas.buffer.pixel(x: x, y: 20), SolidPaint.pixel(Self.red), "x \(x)") }
        XCTAssertEqual(canvas.buffer.pixel(x: 7, y: 20), SolidPaint.pixel(blue), "the start cap is travelled")
        l.setTravelled(50 * 256 + 128)
        l.stroke(Self.plain(travelled: blue), into: canvas.buffer, clip: canvas.buffer.bounds, viewX: 0, viewY: 0)
        let half = canvas.buffer.channels(x: 60, y: 20)
        XCTAssertEqual(half.r, 110, accuracy: 1, "the pixel the boundary halves")
        XCTAssertEqual(half.b, 148, accuracy: 1)
        XCTAssertEqual(l.travelled256, 50 * 256 + 128)
        l.setTravelled(segment: 0, fraction256: 128)
        XCTAssertEqual(l.travelled256, 50 * 256)
        l.setTravelled(-5)
        XCTAssertEqual(l.travelled256, 0)
        l.setTravelled(1 << 40)
        XCTAssertEqual(l.travelled256, l.length256)
    }

    func testDegenerateLinesDrawADotOrNothing() {
        let canvas = TestFrames.solid(width: 40, height: 40, Self.grey)
        let empty = Polyline()
        empty.set([])
        empty.stroke(Self.plain(), into: canvas.buffer, clip: canvas.buffer.bounds, viewX: 0, viewY: 0)
        XCTAssertEqual(Set(Self.pixels(canvas)), [SolidPaint.pixel(Self.grey)])
        XCTAssertNil(empty.point(at: 0))
        XCTAssertEqual(empty.bounds(between: 0, and: 100, margin256: 256), .empty)
        let dot = Self.line([(20, 20), (20, 20), (20, 20)])
        XCTAssertEqual(dot.segmentCount, 1)
        XCTAssertEqual(dot.length256, 0)
        dot.setTravelled(1000)
        dot.stroke(Self.plain(), into: canvas.buffer, clip: canvas.buffer.bounds, viewX: 0, viewY: 0)
        XCTAssertEqual(canvas.buffer.pixel(x: 19, y: 19), SolidPaint.pixel(Self.red))
        XCTAssertEqual(canvas.buffer.pixel(x: 20, y: 20), SolidPaint.pixel(Self.red))
        XCTAssertEqual(canvas.buffer.pixel(x: 25, y: 20), SolidPaint.pixel(Self.grey))
        XCTAssertEqual(canvas.buffer.pixel(x: 19, y: 16), canvas.buffer.pixel(x: 16, y: 19), "a round dot")
        let repeated = Self.line([(5, 30), (5, 30), (35, 30), (35, 30), (35, 30)])
        XCTAssertEqual(repeated.segmentCount, 1)
        let single = Self.line([(30, 8)])
        single.stroke(Self.plain(width: 0), into: canvas.buffer, clip: canvas.buffer.bounds, viewX: 0, viewY: 0)
        XCTAssertEqual(single.segmentCount, 1)
    }

    /// ±1e6 px: through the canvas, far off it, and seen from a view out there.
    func testHugeCoordinatesDoNotOverflow() {
        let canvas = TestFrames.solid(width: 64, height: 64, Self.grey)
        let across = Self.line([(-1e6, -1e6), (1e6, 1e6)])
        across.setTravelled(across.length256 / 2 + 200 * 256)
        across.stroke(Self.plain(), into: canvas.buffer, clip: canvas.buffer.bounds, viewX: 0, viewY: 0)
        for i in 0..<64 { XCTAssertEqual(canvas.buffer.pixel(x: i, y: i), SolidPaint.pixel(Color(r: 0, g: 0, b: 255)), "\(i)") }
        XCTAssertEqual(canvas.buffer.pixel(x: 60, y: 2), SolidPaint.pixel(Self.grey))
        let far = TestFrames.solid(width: 64, height: 64, Self.grey)
        let away = Self.line([(1e6, 1e6), (1e6, -1e6), (3e6, -4e6), (1e7, 1e7)])
        away.stroke(Self.plain(), into: far.buffer, clip: far.buffer.bounds, viewX: 0, viewY: 0)
        away.stroke(Self.plain(), into: far.buffer, clip: far.buffer.bounds, viewX: Int.max / 2, viewY: Int.min / 2)
        XCTAssertEqual(Set(Self.pixels(far)), [SolidPaint.pixel(Self.grey)])
        away.stroke(Self.plain(), into: far.buffer, clip: far.buffer.bounds, viewX: 1_000_000 - 32, viewY: -32)
        XCTAssertEqual(far.buffer.pixel(x: 32, y: 32), SolidPaint.pixel(Self.red), "the far line seen from a far view")
        XCTAssertEqual(far.buffer.pixel(x: 10, y: 32), SolidPaint.pixel(Self.grey))
        XCTAssertEqual(away.bounds(margin256: 0).maxX, 2_097_152, "clamped to the coordinate limit")
        XCTAssertEqual(away.bounds(margin256: 0).y, -2_097_152)
    }

    func testIntegerRootsAreExact() {
        for n: UInt32 in [0, 1, 2, 3, 4, 15, 16, 17, 65535, 65536, 1 << 31, UInt32.max] {
            let r = Fixed.isqrt(n)
            XCTAssertLessThanOrEqual(UInt64(r) * UInt64(r), UInt64(n))
            XCTAssertGreaterThan(UInt64(r + 1) * UInt64(r + 1), UInt64(n))
        }
        for n: UInt64 in [0, 1, 99, 1 << 40, (1 << 61) + 12345, UInt64.max] {
            let r = Fixed.isqrt(n)
            XCTAssertLessThanOrEqual(r.multipliedReportingOverflow(by: r).partialValue, n)
            let s = (r + 1).multipliedReportingOverflow(by: r + 1)
            XCTAssertTrue(s.overflow || s.partialValue > n)
        }
        XCTAssertEqual(Fixed.roundedRoot(20), 4)
        XCTAssertEqual(Fixed.roundedRoot(21), 5)
    }
}
