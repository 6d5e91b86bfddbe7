@testable import Config
import XCTest

/// The backlight's keys in [display]: brightness, dim, backlight, ambientSensor, ambientCurve,
/// brightnessSmoothing; defaults, what each accepts, and the one-line errors naming file, line and key.
final class ConfigBrightnessTests: XCTestCase {
    func testDefaultsLeaveTheBacklightAlone() {
        let b = Settings().display.brightness
        XCTAssertEqual(b.level, .untouched)
        XCTAssertFalse(b.isActive)
        XCTAssertNil(b.dim)
        XCTAssertNil(b.backlight)
        XCTAssertNil(b.ambientSensor)
        XCTAssertEqual(b.ambientCurve.description, "0:15,50:40,400:70,2000:100")
        XCTAssertEqual(b.smoothing, 5)
        let shown = ["brightness", "dim", "backlight", "ambientSensor", "ambientCurve", "brightnessSmoothing"].map {
            SettingsTable.key(section: "display", name: $0)!.defaultText
        }
        XCTAssertEqual(shown, ["none", "none", "auto", "auto", "0:15,50:40,400:70,2000:100", "5"])
    }

    func testLevels() throws {
        XCTAssertEqual(try settings("display.brightness=80").display.brightness.level, .percent(80))
        XCTAssertEqual(try settings("display.brightness=37.5%").display.brightness.level, .percent(37.5))
        XCTAssertEqual(try settings("display.brightness=0").display.brightness.level, .percent(0))
        XCTAssertEqual(try settings("display.brightness=ambient").display.brightness.level, .ambient)
        XCTAssertEqual(try settings("display.brightness=80", "display.brightness=none").display.brightness.level, .untouched)
        assertSetError("display.brightness=101", "display.brightness = 101: out of range (0 ≤ value ≤ 100, in percent)")
        assertSetError("display.brightness=bright",
                       "display.brightness = bright: not a level (expected a percent from 0 to 100 such as 80 or 80%, ambient, or none)")
    }

    func testDimmingUsesTheBlankSpans() throws {
        let dim = try XCTUnwrap(try settings("display.brightness=90", "display.dim=21:00-06:30, 12:00-13:00 20%").display.brightness.dim)
        XCTAssertEqual(dim.schedule.spans, [.init(start: 1260, end: 390), .init(start: 720, end: 780)])
        XCTAssertEqual(dim.percent, 20)
        let s = try settings("display.brightness=90", "display.dim=21:00-06:30 20")
        XCTAssertEqual(s.value(of: SettingsTable.key(section: "display", name: "dim")!), "21:00-06:30 20%")
        XCTAssertNil(try settings("display.dim=none").display.brightness.dim)
        assertSetError("display.dim=21:00-06:30", "display.dim = 21:00-06:30: no level (expected spans then a percent, e.g. 21:00-06:30 20%, or none)")
        assertSetError("display.dim=21:00-06:30 dark",
                       "display.dim = 21:00-06:30 dark: the level after the spans: not a number (allowed: 0 ≤ value ≤ 100, in percent) (e.g. 21:00-06:30 20%)")
        // The spans' own message is blank's, from the same parser.
        assertSetError("display.dim=25:00-06:00 20%",
                       "display.dim = 25:00-06:00 20%: not a time span: '25:00-06:00' (expected HH:MM-HH:MM in local time, e.g. 23:00-05:30, spans separated by commas, or none)")
        assertSetError("display.dim=none 20%", "display.dim = none 20%: no spans before the level (none alone turns dimming off)")
    }

    func testDevicesCurveAndSmoothing() throws {
        let s = try settings("display.backlight=10-0045", "display.ambientSensor=iio:device1",
                             "display.ambientCurve=0:5, 100:50,1000:100", "display.brightnessSmoothing=2s")
        XCTAssertEqual(s.display.brightness.backlight, "10-0045")
        XCTAssertEqual(s.display.brightness.ambientSensor, "iio:device1")
        XCTAssertEqual(s.display.brightness.ambientCurve.points.map(\.lux), [0, 100, 1000])
        XCTAssertEqual(s.display.brightness.smoothing, 2)
        XCTAssertNil(try settings("display.backlight=10-0045", "display.backlight=auto").display.brightness.backlight)
        assertSetError("display.backlight=../../power",
                       "display.backlight = ../../power: not a device name (expected a name in /sys/class/backlight such as 10-0045, or auto)")
        assertSetError("display.ambientSensor=", "display.ambientSensor = : not a device name (expected a name in /sys/bus/iio/devices such as iio:device0, or auto)")
        assertSetError("display.ambientCurve=0:10,0:20", "display.ambientCurve = 0:10,0:20: '0:20': lux must grow from point to point (0 follows 0)")
        assertSetError("display.ambientCurve=0:10,100",
                       "display.ambientCurve = 0:10,100: not a curve point: '100' (expected LUX:PERCENT with lux ≥ 0 and 0 ≤ percent ≤ 100, points separated by commas, e.g. 0:15,50:40,400:70,2000:100)")
        assertSetError("display.ambientCurve=0:120", "display.ambientCurve = 0:120: not a curve point: '0:120' (expected LUX:PERCENT with lux ≥ 0 and 0 ≤ percent ≤ 100, points separated by commas, e.g. 0:15,50:40,400:70,2000:100)")
        assertSetError("display.brightnessSmoothing=-1", "display.brightnessSmoothing = -1: out of range (0 ≤ value ≤ 600, in seconds)")
    }

    func testErrorsNameFileLineAndKey() {
        let text = "[display]\nbrightness = 70\ndim = 22:00-06:00 150%\n"
        XCTAssertThrowsError(try Configuration.parse(text, file: "/etc/pulsedot/pulsedot.conf")) { error in
            XCTAssertEqual("\(error)", "/etc/pulsedot/pulsedot.conf:3: display.dim = 22:00-06:00 150%: the level after the spans: out of range (0 ≤ value ≤ 100, in percent) (e.g. 21:00-06:30 20%)")
        }
        // Dimming alone has no level to come back to: refused at its own line.
        XCTAssertThrowsError(try Configuration.parse("[display]\n\ndim = 22:00-06:00 20%\n", file: "/etc/pulsedot/pulsedot.conf")) { error in
            XCTAssertEqual("\(error)", "/etc/pulsedot/pulsedot.conf:3: display.dim = 22:00-06:00 20%: dimming needs brightness = PERCENT or ambient: the level the backlight goes back to after the spans")
        }
        XCTAssertNoThrow(try Configuration.parse("[display]\nbrightness = ambient\ndim = 22:00-06:00 20%\n", file: "/x.conf"))
    }
}
