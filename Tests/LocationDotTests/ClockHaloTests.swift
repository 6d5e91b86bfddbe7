import LocationDot
import XCTest

/// The halo against every check value of look.md: diameter within 0.5 %, opacity within 0.005.
final class ClockHaloTests: XCTestCase {
    private func style(delay: Double, breath: Double = 1) -> DotStyle {
        var s = DotStyle()
        s.delayBetweenPulseCycles = delay
        s.pulseAnimationDuration = breath
        return s
    }

    private func assertHalo(_ clock: DotClock, at t: Double, diameter: Double, opacity: Double,
                            file: StaticString = #filePath, line: UInt = #line) {
        let halo = clock.halo(at: t)
        let got = halo.size * clock.style.haloDiameter
        XCTAssertEqual(got, diameter, accuracy: max(diameter * 0.005, 1e-9),
                       "diameter at t = \(t)", file: file, line: line)
        XCTAssertEqual(halo.opacity, opacity, accuracy: 0.005, "opacity at t = \(t)", file: file, line: line)
    }

    func testCheckValuesWithoutDelay() {
        let clock = DotClock(style: style(delay: 0, breath: 1.5))
        XCTAssertEqual(clock.style.haloDiameter, 116.6, accuracy: 1e-9)
        assertHalo(clock, at: 0.5, diameter: 25.7, opacity: 0.438)
        assertHalo(clock, at: 1.0, diameter: 67.2, opacity: 0.239)
        assertHalo(clock, at: 1.5, diameter: 93.6, opacity: 0.111)
        assertHalo(clock, at: 2.0, diameter: 107.8, opacity: 0.042)
        assertHalo(clock, at: 2.5, diameter: 114.7, opacity: 0.009)
        // The end of one cycle is full size and transparent; the next starts from nothing at 0.45.
        assertHalo(clock, at: 3.0 - 1e-9, diameter: 116.6, opacity: 0)
        assertHalo(clock, at: 3.0, diameter: 0, opacity: 0.45)
        assertHalo(clock, at: 0, diameter: 0, opacity: 0.45)
    }

    func testCyclesRepeat() {
        let clock = DotClock(style: style(delay: 0))
        for t in stride(from: 0.0, to: 3.0, by: 0.125) {
            let a = clock.halo(at: t), b = clock.halo(at: t + 30), c = clock.halo(at: t + 3000)
            XCTAssertEqual(a.size, b.size, accuracy: 1e-9)
            XCTAssertEqual(a.opacity, c.opacity, accuracy: 1e-9)
        }
    }

    func testDelayOfOneSecondShowsTheHaloForAbout181OfFourSeconds() {
        let clock = DotClock(style: style(delay: 1))
        // Step through one 4 s cycle and find where the halo stops being drawn.
        var lastVisible = -1.0
        var t = 0.0
        while t < 4 {
            if clock.halo(at: t).opacity > 0 || clock.halo(at: t).size > 0 { lastVisible = t }
            t += 0.001
        }
        XCTAssertEqual(lastVisible, 1.81, accuracy: 0.01)
        // Hidden for the rest of the cycle, back at the start of the next.
        XCTAssertEqual(clock.halo(at: 2.5).opacity, 0)
        XCTAssertEqual(clock.halo(at: 3.99).opacity, 0)
        XCTAssertEqual(clock.halo(at: 4.0).opacity, 0.45, accuracy: 1e-12)
        XCTAssertEqual(clock.halo(at: 4.0).size, 0, accuracy: 1e-12)
        // The whole-cycle easing, not a plain 3 s growth: at 1 s the halo is past half size.
        XCTAssertGreaterThan(clock.halo(at: 1.0).size, 0.5)
    }

    func testGrowthIsMonotonicWithinACycle() {
        for delay in [0.0, 1.0, 2.5] {
            let clock = DotClock(style: style(delay: delay))
            var previous = -1.0
            var t = 0.0
            while clock.halo(at: t).opacity > 0 || t == 0 {
                let h = clock.halo(at: t)
                XCTAssertGreaterThanOrEqual(h.size, previous, "delay \(delay), t \(t)")
                XCTAssertLessThanOrEqual(h.size, 1)
                previous = h.size
                t += 0.01
            }
        }
    }

    func testInfiniteDelayTurnsHaloAndBreathOff() {
        let clock = DotClock(style: style(delay: .infinity))
        for t in [0.0, 0.5, 1.0, 2.9, 100] {
            let look = clock.appearance(at: t)
            XCTAssertEqual(look.haloOpacity, 0)
            XCTAssertEqual(look.haloSize, 0)
            XCTAssertEqual(look.dotSize, 1)
            XCTAssertEqual(look.dotOpacity, 1)
        }
        // The entrance is not a pulse animation: it still plays.
        XCTAssertEqual(clock.appearance(at: 0.06, popStart: 0).popScale, 1.25, accuracy: 1e-9)
    }

    func testOtherDurationAndScaleFactor() {
        var s = style(delay: 0)
        s.outerPulseAnimationDuration = 6
        s.pulseScaleFactor = 2
        let clock = DotClock(style: s)
        // Doubling D with d = 0 stretches time: the 0.5 s value of the 3 s cycle comes at 1 s.
        XCTAssertEqual(clock.halo(at: 1.0).size * s.haloDiameter, 25.7 / 116.6 * 44, accuracy: 44 * 0.005)
        XCTAssertEqual(clock.halo(at: 1.0).opacity, 0.438, accuracy: 0.005)
    }

    func testNegativeTimeIsTheStart() {
        let clock = DotClock(style: DotStyle())
        XCTAssertEqual(clock.appearance(at: -5), clock.appearance(at: 0))
    }
}
