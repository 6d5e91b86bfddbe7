import LocationDot
import XCTest

/// The entrance pop: keyframes 0.05, 1.25, 0.8, 1.1, 0.9, 1.0 at even times over 0.3 s, each
/// step eased in-out.
final class ClockPopTests: XCTestCase {
    func testKeyframesAtEvenTimes() {
        let keys = [0.05, 1.25, 0.8, 1.1, 0.9, 1.0]
        for (i, k) in keys.enumerated() {
            XCTAssertEqual(DotClock.popScale(elapsed: Double(i) * 0.06), k, accuracy: 1e-9, "keyframe \(i)")
        }
    }

    func testStepsAreEasedInOut() {
        // Halfway through a step the symmetric in-out curve is exactly halfway between keyframes;
        // a quarter of the way it lags behind linear (ease in).
        XCTAssertEqual(DotClock.popScale(elapsed: 0.03), (0.05 + 1.25) / 2, accuracy: 1e-9)
        let quarter = DotClock.popScale(elapsed: 0.015)
        let eased = CubicBezier.easeInEaseOut(0.25)
        XCTAssertEqual(quarter, 0.05 + 1.2 * eased, accuracy: 1e-9)
        XCTAssertLessThan(eased, 0.25)
        XCTAssertEqual(eased, 0.1291, accuracy: 0.001)
    }

    func testBeforeAndAfter() {
        XCTAssertEqual(DotClock.popScale(elapsed: -1), 0.05)
        XCTAssertEqual(DotClock.popScale(elapsed: 0.3), 1)
        XCTAssertEqual(DotClock.popScale(elapsed: 10), 1)
        XCTAssertTrue(DotClock.isPopping(at: 0.29, popStart: 0))
        XCTAssertFalse(DotClock.isPopping(at: 0.3, popStart: 0))
        XCTAssertFalse(DotClock.isPopping(at: 0.1, popStart: nil))
    }

    func testMaximumIsTheOvershoot() {
        var peak = 0.0
        for i in 0...3000 { peak = max(peak, DotClock.popScale(elapsed: Double(i) * 0.0001)) }
        XCTAssertEqual(peak, 1.25, accuracy: 1e-9)
    }

    func testAppearanceCarriesThePopFromItsStart() {
        let clock = DotClock(style: DotStyle())
        XCTAssertEqual(clock.appearance(at: 5).popScale, 1)
        XCTAssertEqual(clock.appearance(at: 5.06, popStart: 5).popScale, 1.25, accuracy: 1e-9)
        XCTAssertEqual(clock.appearance(at: 5.12, popStart: 5).popScale, 0.8, accuracy: 1e-9)
        XCTAssertEqual(clock.appearance(at: 6, popStart: 5).popScale, 1)
    }
}
