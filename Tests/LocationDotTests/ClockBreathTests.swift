import LocationDot
import Raster
import XCTest

/// The inner dot's breath: look.md's formula, check values and the library's on/off rule.
final class ClockBreathTests: XCTestCase {
    func testCheckValuesWithTheReadmeDefaults() {
        let clock = DotClock(style: DotStyle()) // P = 1 s, d = 1 s
        let expected: [(Double, Double)] = [(0, 0.800), (0.5, 0.960), (1.0, 1.000), (1.5, 0.960), (2.0, 0.800)]
        for (t, value) in expected {
            let look = clock.appearance(at: t)
            XCTAssertEqual(look.dotSize, value, accuracy: 0.0005, "size at \(t)")
            XCTAssertEqual(look.dotOpacity, value, accuracy: 0.0005, "opacity at \(t)")
        }
    }

    func testFormulaIsTheEasedTriangle() {
        var s = DotStyle()
        s.pulseAnimationDuration = 0.7
        s.delayBetweenPulseCycles = 2
        let clock = DotClock(style: s)
        for t in stride(from: 0.0, through: 5.0, by: 0.037) {
            var ph = t.truncatingRemainder(dividingBy: 1.4)
            if ph < 0 { ph += 1.4 }
            let tri = ph <= 0.7 ? ph / 0.7 : (1.4 - ph) / 0.7
            XCTAssertEqual(clock.breath(at: t), 0.8 + 0.2 * CubicBezier.caDefault(tri), accuracy: 1e-12)
        }
        // Symmetric about the peak: autoreverse plays the same curve backwards.
        XCTAssertEqual(clock.breath(at: 0.7 - 0.2), clock.breath(at: 0.7 + 0.2), accuracy: 1e-12)
    }

    func testOnlyWhenDelayIsBetweenZeroAndInfinity() {
        for (delay, on) in [(0.0, false), (0.001, true), (1.0, true), (1e6, true), (Double.infinity, false)] {
            var s = DotStyle()
            s.delayBetweenPulseCycles = delay
            let values = stride(from: 0.0, to: 2.0, by: 0.1).map { DotClock(style: s).breath(at: $0) }
            if on {
                XCTAssertEqual(values.min()!, 0.8, accuracy: 1e-9, "delay \(delay)")
            } else {
                XCTAssertEqual(values, Array(repeating: 1.0, count: values.count), "delay \(delay)")
            }
        }
    }

    func testStockIOSLookHasNoBreath() {
        var s = DotStyle()
        s.delayBetweenPulseCycles = 0
        s.pulseAnimationDuration = 1.5
        let clock = DotClock(style: s)
        for t in stride(from: 0.0, to: 6.0, by: 0.25) {
            XCTAssertEqual(clock.appearance(at: t).dotSize, 1)
            XCTAssertEqual(clock.appearance(at: t).dotOpacity, 1)
        }
    }

    func testNeverWithAnImage() {
        var s = DotStyle()
        s.image = AlphaMask(width: 2, height: 2, alpha: [255, 255, 255, 255])
        let clock = DotClock(style: s)
        XCTAssertEqual(clock.breath(at: 0), 1)
        XCTAssertEqual(clock.breath(at: 2), 1)
        // The halo keeps pulsing with an image.
        XCTAssertEqual(clock.halo(at: 0).opacity, 0.45, accuracy: 1e-12)
    }
}
