@testable import Config
@testable import Geo
import Location
import LocationDot
@testable import Positioning
import Syscall
import XCTest

final class FixStateTests: XCTestCase {
    /// The look.md defaults but a 0.5 s delay: a 3.5 s halo cycle, visible for its first ~1.7 s.
    static let clock: DotClock = {
        var style = DotStyle()
        style.delayBetweenPulseCycles = 0.5
        return DotClock(style: style)
    }()

    static func rules(_ edit: (inout FixRules) -> Void = { _ in }) -> FixRules {
        var r = FixRules()
        r.staleAfter = 30
        edit(&r)
        return r
    }

    /// 2 px per metre: a 5 m error is a 10 px disc.
    private func fix(_ s: inout FixState, at t: Double, error: Double? = 5, speed: Double? = nil, track: Double? = nil) {
        s.fixArrived(at: t, horizontalError: error, pixelsPerMetre: 2, speed: speed, track: track)
    }

    func testNothingOrARingBeforeTheFirstFix() {
        let none = FixState(rules: Self.rules())
        XCTAssertEqual(none.phase(at: 5), .nofix)
        XCTAssertNil(none.appearance(at: 5, clock: Self.clock))
        let ring = FixState(rules: Self.rules { $0.noFix = .ring })
        let look = ring.appearance(at: 5, clock: Self.clock)
        XCTAssertEqual(look?.ringOnly, true)
        XCTAssertEqual(look?.haloOpacity, 0)
        XCTAssertEqual(look?.staleness, 1, "the ring is grey")
    }

    func testFirstFixGoesLiveWithThePopAndStartsTheClock() {
        var s = FixState(rules: Self.rules())
        fix(&s, at: 100)
        XCTAssertEqual(s.phase(at: 100), .live)
        XCTAssertEqual(s.firstFixAt, 100)
        XCTAssertEqual(s.popStartedAt, 100)
        XCTAssertEqual(s.clockTime(at: 101.5), 1.5)
        let start = s.appearance(at: 100, clock: Self.clock)!
        XCTAssertEqual(start.popScale, 0.05, "the pop starts small")
        XCTAssertFalse(start.ringOnly)
        XCTAssertEqual(s.appearance(at: 100.12, clock: Self.clock)!.popScale, DotClock.popScale(elapsed: 0.12))
        XCTAssertEqual(s.appearance(at: 100.5, clock: Self.clock)!.popScale, 1)
        // The halo runs on the clock from the first fix: at clock 1 s it is what the clock says.
        let look = s.appearance(at: 101, clock: Self.clock)!
        XCTAssertEqual(look.haloOpacity, Self.clock.halo(at: 1).opacity, accuracy: 1e-12)
        XCTAssertGreaterThan(look.haloOpacity, 0.1)
        XCTAssertEqual(look.staleness, 0)
        // Fixes that keep coming do not pop again.
        fix(&s, at: 101)
        fix(&s, at: 125)
        XCTAssertEqual(s.popStartedAt, 100)
    }

    func testStaleAfterTheConfiguredTimeRampingOverOneSecond() {
        var s = FixState(rules: Self.rules { $0.staleAfter = 10 })
        fix(&s, at: 0)
        XCTAssertEqual(s.phase(at: 9.99), .live)
        XCTAssertEqual(s.phase(at: 10), .stale)
        XCTAssertEqual(s.staleness(at: 9.9), 0)
        XCTAssertEqual(s.staleness(at: 10.25), 0.25, accuracy: 1e-12)
        XCTAssertEqual(s.staleness(at: 10.5), 0.5, accuracy: 1e-12)
        XCTAssertEqual(s.staleness(at: 11), 1)
        XCTAssertEqual(s.staleness(at: 500), 1)
        // Halo and breath fade with the colour and are gone once fully stale.
        let half = s.appearance(at: 10.5, clock: Self.clock)!
        let live = Self.clock.appearance(at: 10.5)
        XCTAssertEqual(half.staleness, 0.5, accuracy: 1e-12)
        XCTAssertEqual(half.haloOpacity, live.haloOpacity * 0.5, accuracy: 1e-12)
        for t in stride(from: 11.0, to: 20, by: 0.1) {
            let look = s.appearance(at: t, clock: Self.clock)!
            XCTAssertEqual(look.haloOpacity, 0, "halo stopped at \(t)")
            XCTAssertEqual(look.dotSize, 1, "breath stopped at \(t)")
            XCTAssertEqual(look.dotOpacity, 1)
        }
        // A different staleAfter moves the whole transition.
        var slow = FixState(rules: Self.rules { $0.staleAfter = 30 })
        fix(&slow, at: 0)
        XCTAssertEqual(slow.phase(at: 29), .live)
        XCTAssertEqual(slow.phase(at: 30), .stale)
    }

    func testRecoveryAtTheNextFixWithThePop() {
        var s = FixState(rules: Self.rules { $0.staleAfter = 10 })
        fix(&s, at: 0)
        fix(&s, at: 5)
        XCTAssertEqual(s.popStartedAt, 0, "a fix before the stale look does not pop")
        fix(&s, at: 40) // 35 s of silence: stale since 15
        XCTAssertEqual(s.phase(at: 40), .live)
        XCTAssertEqual(s.popStartedAt, 40)
        let look = s.appearance(at: 40, clock: Self.clock)!
        XCTAssertEqual(look.staleness, 0, "live colours at once")
        XCTAssertEqual(look.popScale, 0.05, "with the entrance pop")
        XCTAssertEqual(s.firstFixAt, 0, "the animation clock keeps running from the first fix")
        XCTAssertEqual(s.appearance(at: 40.1, clock: Self.clock)!.popScale, DotClock.popScale(elapsed: 0.1), accuracy: 1e-12)
    }

    func testALargeErrorHidesTheHalo() {
        var s = FixState(rules: Self.rules())
        fix(&s, at: 0, error: 25) // above the default 10 m
        XCTAssertEqual(s.appearance(at: 1, clock: Self.clock)!.haloOpacity, 0)
        // Back under the threshold: the halo fades in over the ease time.
        // (The clock's halo cycle is 3.5 s; a new cycle starts at 3.5.)
        fix(&s, at: 3.5, error: 4)
        let clockHalo = Self.clock.halo(at: 3.65).opacity
        XCTAssertGreaterThan(clockHalo, 0.05)
        let mid = s.appearance(at: 3.65, clock: Self.clock)!.haloOpacity
        XCTAssertGreaterThan(mid, 0)
        XCTAssertLessThan(mid, clockHalo)
        XCTAssertEqual(s.appearance(at: 4, clock: Self.clock)!.haloOpacity, Self.clock.halo(at: 4).opacity, accuracy: 1e-12)
        XCTAssertGreaterThan(Self.clock.halo(at: 4).opacity, 0.05)
        // Exactly the threshold still shows it; an unknown error does not hide it.
        var edge = FixState(rules: Self.rules())
        fix(&edge, at: 0, error: 10)
        XCTAssertEqual(edge.appearance(at: 1, clock: Self.clock)!.haloOpacity, Self.clock.halo(at: 1).opacity, accuracy: 1e-12)
        fix(&edge, at: 0.5, error: nil)
        XCTAssertGreaterThan(edge.appearance(at: 1, clock: Self.clock)!.haloOpacity, 0)
        // hideHaloAboveError = 0 never hides.
        var never = FixState(rules: Self.rules { $0.hideHaloAboveError = 0 })
        fix(&never, at: 0, error: 500)
        XCTAssertGreaterThan(never.appearance(at: 1, clock: Self.clock)!.haloOpacity, 0)
    }

    func testHeadingFollowsTheCourseOnlyAboveTheThreshold() {
        var s = FixState(rules: Self.rules { $0.headingMinSpeed = 1.0 })
        fix(&s, at: 0, speed: 0.5, track: 90)
        XCTAssertNil(s.appearance(at: 0.5, clock: Self.clock)!.heading, "too slow: the course is noise")
        fix(&s, at: 1, speed: 1.0, track: 90)
        XCTAssertEqual(s.appearance(at: 1, clock: Self.clock)!.heading, 90, "at the threshold it shows, at once")
        fix(&s, at: 2, speed: 8, track: nil)
        XCTAssertNil(s.appearance(at: 2.5, clock: Self.clock)!.heading, "no course, no heading")
        fix(&s, at: 3, speed: 8, track: 350)
        fix(&s, at: 4, speed: 8, track: 10)
        // It turns the short way through north over the ease time.
        let mid = s.appearance(at: 4.15, clock: Self.clock)!.heading!
        XCTAssertTrue(mid > 350 || mid < 10, "turned through south: \(mid)")
        XCTAssertEqual(s.appearance(at: 4.3, clock: Self.clock)!.heading!, 10, accuracy: 1e-9)
        // Stale: no heading is claimed.
        XCTAssertNil(s.appearance(at: 40, clock: Self.clock)!.heading)
        // A higher threshold suppresses the same fix.
        var strict = FixState(rules: Self.rules { $0.headingMinSpeed = 10 })
        fix(&strict, at: 0, speed: 8, track: 45)
        XCTAssertNil(strict.appearance(at: 0, clock: Self.clock)!.heading)
    }

    func testAccuracyRadiusEasesAndHidesUnderTheDot() {
        var s = FixState(rules: Self.rules { $0.accuracyHiddenBelowPx = 14 })
        fix(&s, at: 0, error: 20) // 40 px
        XCTAssertEqual(s.appearance(at: 0, clock: Self.clock)!.accuracyRadiusPx, 40, "the first fix shows its disc at once")
        fix(&s, at: 1, error: 40) // 80 px, eased over 0.3 s
        XCTAssertEqual(s.appearance(at: 1, clock: Self.clock)!.accuracyRadiusPx, 40)
        XCTAssertEqual(s.appearance(at: 1.15, clock: Self.clock)!.accuracyRadiusPx, 60, accuracy: 1e-9)
        XCTAssertEqual(s.appearance(at: 1.3, clock: Self.clock)!.accuracyRadiusPx, 80)
        var previous = 40.0
        for t in stride(from: 1.0, through: 1.3, by: 0.01) {
            let r = s.appearance(at: t, clock: Self.clock)!.accuracyRadiusPx
            XCTAssertGreaterThanOrEqual(r, previous - 1e-9)
            XCTAssertLessThan(r - previous, 5, "no jump at \(t)")
            previous = r
        }
        // A change in mid-ease continues from where the disc is.
        fix(&s, at: 2, error: 10)
        fix(&s, at: 2.1, error: 30)
        let at21 = s.appearance(at: 2.1, clock: Self.clock)!.accuracyRadiusPx
        XCTAssertLessThan(at21, 80)
        XCTAssertGreaterThan(at21, 20)
        // Smaller than the dot: not drawn.
        fix(&s, at: 3, error: 6) // 12 px
        XCTAssertEqual(s.appearance(at: 4, clock: Self.clock)!.accuracyRadiusPx, 0)
        fix(&s, at: 5, error: nil)
        XCTAssertEqual(s.appearance(at: 6, clock: Self.clock)!.accuracyRadiusPx, 0)
        // The rule's default hides below the ring plus 3 pt at the display's scale.
        XCTAssertEqual(FixRules(dot: DotSettings(), staleAfter: 30, scale: 2).accuracyHiddenBelowPx, 28)
    }

    func testRulesComeFromTheSettings() {
        var dot = DotSettings()
        dot.hideHaloAboveError = 25
        dot.headingMinSpeed = 3
        dot.noFix = .ring
        let r = FixRules(dot: dot, staleAfter: 12, scale: 1)
        XCTAssertEqual(r.hideHaloAboveError, 25)
        XCTAssertEqual(r.headingMinSpeed, 3)
        XCTAssertEqual(r.noFix, .ring)
        XCTAssertEqual(r.staleAfter, 12)
        // A fixed position never goes stale.
        var fixed = FixState(rules: Self.rules { $0.staleAfter = .infinity })
        fix(&fixed, at: 0)
        XCTAssertEqual(fixed.phase(at: 1e9), .live)
        XCTAssertEqual(fixed.staleness(at: 1e9), 0)
        fixed.reset()
        XCTAssertEqual(fixed.phase(at: 0), .nofix)
    }
}

final class FixAdapterTests: XCTestCase {
    /// A Fix feeds motion and truth with its monotonic arrival in seconds.
    func testGpsdFixesFeedMotionAndTruth() {
        let fix = Location.Fix(latitude: 47, longitude: 8.5, mode: .threeD, horizontalError: 30, track: 90, speed: 5,
                               receivedAt: MonotonicInstant(nanoseconds: 12_500_000_000))
        var motion = MotionModel()
        motion.add(fix)
        XCTAssertEqual(motion.position(at: 12.5), GeoPoint(latitude: 47, longitude: 8.5))
        XCTAssertNil(MotionModel().position(at: 12.5))
        var truth = FixState(rules: FixRules())
        truth.fixArrived(fix, pixelsPerMetre: 0.5)
        XCTAssertEqual(truth.lastFixAt, 12.5)
        let look = truth.appearance(at: 13, clock: DotClock(style: DotStyle()))!
        XCTAssertEqual(look.accuracyRadiusPx, 15)
        XCTAssertEqual(look.heading, 90)
        XCTAssertEqual(look.haloOpacity, 0, "30 m is above the 10 m default")
    }
}
