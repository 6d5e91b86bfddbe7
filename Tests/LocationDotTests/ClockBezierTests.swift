import LocationDot
import XCTest

/// The timing curve solver against known values of the CSS/Core Animation curves.
final class ClockBezierTests: XCTestCase {
    func testEndpointsAndClamping() {
        for curve in [CubicBezier.caDefault, .easeInEaseOut] {
            XCTAssertEqual(curve(0), 0)
            XCTAssertEqual(curve(1), 1)
            XCTAssertEqual(curve(-0.5), 0)
            XCTAssertEqual(curve(1.5), 1)
            XCTAssertEqual(curve(.nan), 0)
        }
    }

    func testKnownValues() {
        // The default curve is CSS `ease`; at x = 0.5 it reaches 0.8024 (the breath's 0.96).
        XCTAssertEqual(CubicBezier.caDefault(0.5), 0.8024, accuracy: 0.0002)
        XCTAssertEqual(CubicBezier.easeInEaseOut(0.5), 0.5, accuracy: 1e-9)
        XCTAssertEqual(CubicBezier(0, 0, 1, 1)(0.3), 0.3, accuracy: 1e-9)
    }

    func testSolvesTheParametricCurve() {
        // Sample the curve by its parameter and check the solver returns the matching y for x.
        let (x1, y1, x2, y2) = (0.25, 0.1, 0.25, 1.0)
        let curve = CubicBezier(x1, y1, x2, y2)
        for i in 1..<100 {
            let s = Double(i) / 100
            let m = 1 - s
            let x = 3 * m * m * s * x1 + 3 * m * s * s * x2 + s * s * s
            let y = 3 * m * m * s * y1 + 3 * m * s * s * y2 + s * s * s
            XCTAssertEqual(curve(x), y, accuracy: 1e-9, "s = \(s)")
        }
    }

    func testMonotonic() {
        var previous = 0.0
        for i in 0...1000 {
            let v = CubicBezier.caDefault(Double(i) / 1000)
            XCTAssertGreaterThanOrEqual(v, previous)
            previous = v
        }
    }
}
