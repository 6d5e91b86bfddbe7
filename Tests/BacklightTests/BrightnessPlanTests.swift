import Backlight
@testable import Config
import XCTest

/// The level for a moment: the configured level or the curve's, the dimming spans' ceiling at
/// given times of day, and the smoothing on a virtual clock (no sleeping).
final class BrightnessPlanTests: XCTestCase {
    func settings(_ assignments: String...) throws -> BrightnessSettings {
        var s = Settings()
        try s.set(all: assignments)
        return s.display.brightness
    }

    func testTheCurveIsStraightLinesBetweenItsPoints() throws {
        let curve = try settings("display.ambientCurve=10:20,110:70,1000:100").ambientCurve
        XCTAssertEqual(curve.percent(lux: 0), 20, "below the first point its level holds")
        XCTAssertEqual(curve.percent(lux: 10), 20)
        XCTAssertEqual(curve.percent(lux: 60), 45)
        XCTAssertEqual(curve.percent(lux: 110), 70)
        XCTAssertEqual(curve.percent(lux: 555), 85)
        XCTAssertEqual(curve.percent(lux: 1000), 100)
        XCTAssertEqual(curve.percent(lux: 80_000), 100, "above the last point its level holds")
        XCTAssertEqual(try settings("display.ambientCurve=0:40").ambientCurve.percent(lux: 5000), 40)
    }

    func testDimmingSpansCapTheLevelAtTheirTimes() throws {
        let s = try settings("display.brightness=80", "display.dim=21:00-06:30,12:00-12:30 25%")
        let minutes = [20 * 60 + 59, 21 * 60, 0, 6 * 60 + 29, 6 * 60 + 30, 11 * 60 + 59, 12 * 60 + 15, 12 * 60 + 30]
        XCTAssertEqual(minutes.map { BrightnessPlan.target(s, minuteOfDay: $0, lux: nil) }, [80, 25, 25, 25, 80, 80, 25, 80])
        // A ceiling: a level already below it stays.
        let low = try settings("display.brightness=10", "display.dim=21:00-06:30 25%")
        XCTAssertEqual(BrightnessPlan.target(low, minuteOfDay: 22 * 60, lux: nil), 10)
        XCTAssertNil(BrightnessPlan.target(try settings(), minuteOfDay: 0, lux: 100), "untouched: no level at all")
    }

    func testAmbientFollowsTheCurveAndTheSpans() throws {
        let s = try settings("display.brightness=ambient", "display.ambientCurve=0:10,1000:90", "display.dim=22:00-06:00 30%")
        XCTAssertEqual(BrightnessPlan.target(s, minuteOfDay: 600, lux: 500), 50)
        XCTAssertEqual(BrightnessPlan.target(s, minuteOfDay: 600, lux: 0), 10)
        XCTAssertEqual(BrightnessPlan.target(s, minuteOfDay: 23 * 60, lux: 500), 30)
        XCTAssertEqual(BrightnessPlan.target(s, minuteOfDay: 600, lux: nil), 90, "no reading yet: the curve's brightest")
    }

    func testSmoothingApproachesExponentiallyAndSettles() throws {
        var plan = BrightnessPlan(settings: try settings("display.brightness=ambient", "display.brightnessSmoothing=10"))
        XCTAssertEqual(plan.advance(toward: 80, at: 100), 80, "the first level is taken as it is")
        // One time constant later, 1 − 1/e of the way from 80 to 20: 80 − 60 × 0.632 = 42.07.
        XCTAssertEqual(plan.advance(toward: 20, at: 110), 42)
        XCTAssertEqual(try XCTUnwrap(plan.smoothed), 80 - 60 * (1 - exp(-1)), accuracy: 1e-9)
        // Second by second it keeps going down, never past the target, and settles on it.
        var levels: [Int] = []
        for t in 1...60 { levels.append(plan.advance(toward: 20, at: 110 + Double(t))) }
        XCTAssertEqual(levels, levels.sorted(by: >))
        XCTAssertTrue(levels.allSatisfy { $0 >= 20 })
        XCTAssertEqual(levels.last, 20)
        XCTAssertEqual(plan.smoothed, 20, "settled exactly, not creeping")
        // A sensor flickering between two readings moves the level only a little.
        var flicker = BrightnessPlan(settings: try settings("display.brightness=ambient", "display.brightnessSmoothing=10"))
        _ = flicker.advance(toward: 50, at: 0)
        var seen = Set<Int>()
        for t in 1...30 { seen.insert(flicker.advance(toward: t % 2 == 0 ? 60 : 40, at: Double(t))) }
        XCTAssertTrue(seen.isSubset(of: Set(48...52)), "\(seen.sorted())")
    }

    func testNoSmoothingJumps() throws {
        var plan = BrightnessPlan(settings: try settings("display.brightness=50", "display.brightnessSmoothing=0"))
        XCTAssertEqual(plan.advance(toward: 50, at: 0), 50)
        XCTAssertEqual(plan.advance(toward: 20, at: 0.5), 20)
        XCTAssertEqual(plan.advance(toward: 99.6, at: 1), 100)
    }
}
