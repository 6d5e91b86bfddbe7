@testable import Geo
import Glibc
import XCTest

/// PortableMath must agree with libm to within a few ulp over the ranges projection uses; its
/// point is that it gives the same bits everywhere, not that it beats libm.
final class ProjectionMathTests: XCTestCase {
    private func assertClose(_ a: Double, _ b: Double, ulps: Double = 4, _ what: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        let tolerance = max(abs(b), 1e-300) * Double.ulpOfOne * ulps
        XCTAssertLessThanOrEqual(abs(a - b), tolerance, "\(what): portable \(a), libm \(b)", file: file, line: line)
    }

    func testSinCosOverLatitudesAndBeyond() {
        var x = -4.0
        while x <= 4.0 {
            // Near a zero of sin/cos relative error blows up for any implementation: compare absolutely.
            XCTAssertEqual(PortableMath.sin(x), Glibc.sin(x), accuracy: 4e-16, "sin(\(x))")
            XCTAssertEqual(PortableMath.cos(x), Glibc.cos(x), accuracy: 4e-16, "cos(\(x))")
            x += 0.0137
        }
        XCTAssertEqual(PortableMath.sin(0), 0)
        XCTAssertEqual(PortableMath.cos(0), 1)
    }

    func testLogExpAtan() {
        for v in [1e-12, 0.001, 0.1, 0.5, 0.7071, 0.9999, 1.0, 1.0001, 1.41, 2, 2.718281828, 10, 123.456, 1e6, 7.3e15] {
            assertClose(PortableMath.log(v), Glibc.log(v), ulps: 4, "log(\(v))")
        }
        XCTAssertEqual(PortableMath.log(1), 0)
        XCTAssertTrue(PortableMath.log(-1).isNaN)
        XCTAssertEqual(PortableMath.log(0), -.infinity)
        var x = -40.0
        while x <= 40 {
            assertClose(PortableMath.exp(x), Glibc.exp(x), ulps: 6, "exp(\(x))")
            assertClose(PortableMath.atan(x), Glibc.atan(x), ulps: 4, "atan(\(x))")
            x += 0.173
        }
        XCTAssertEqual(PortableMath.exp(0), 1)
        XCTAssertEqual(PortableMath.atan(0), 0)
        for z in [0.0, 1, 2.5, 10, 17.25, 22.999] {
            assertClose(PortableMath.exp2(z), Glibc.exp2(z), ulps: 6, "exp2(\(z))")
        }
        XCTAssertEqual(PortableMath.exp2(17), 131_072)
    }
}
