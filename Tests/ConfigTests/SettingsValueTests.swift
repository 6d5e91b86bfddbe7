@testable import Config
import LocationDot
import Raster
import XCTest

/// Every value parser through `--set`, and the one-line errors naming key, value and what is allowed.
final class SettingsValueTests: XCTestCase {
    func testDefaultsAreTheLookSpec() throws {
        let s = Settings()
        XCTAssertEqual(s.dot.style, DotStyle())
        XCTAssertNil(s.dot.scale)
        XCTAssertEqual(s.dot.scale(forDisplayLines: 480), 1)
        XCTAssertEqual(s.dot.scale(forDisplayLines: 720), 2)
        XCTAssertEqual(s.dot.scale(forDisplayLines: 1440), 3)
    }

    func testColours() throws {
        let s = try settings("annotationColor=#FF3B30", "pulseColor=#00ff0080", "outerColor = #ABCDEF")
        XCTAssertEqual(s.dot.style.annotationColor, Color(r: 0xFF, g: 0x3B, b: 0x30))
        XCTAssertEqual(s.dot.style.pulseColor, Color(r: 0, g: 255, b: 0, a: 0x80))
        XCTAssertEqual(s.dot.style.outerColor, Color(r: 0xAB, g: 0xCD, b: 0xEF))
        XCTAssertNil(try settings("pulseColor=#000000", "pulseColor=annotationColor").dot.style.pulseColor)
        assertSetError("annotationColor=#12345", "annotationColor = #12345: not a colour (expected #RRGGBB or #RRGGBBAA)")
        assertSetError("annotationColor=red", "annotationColor = red: not a colour (expected #RRGGBB or #RRGGBBAA)")
        assertSetError("shadowColor=#12345G", "shadowColor = #12345G: not a colour (expected #RRGGBB or #RRGGBBAA with hexadecimal digits)")
        assertSetError("outerColor=", "outerColor = : not a colour (expected #RRGGBB or #RRGGBBAA)")
    }

    func testNumbersAndRanges() throws {
        XCTAssertEqual(try settings("colorDotInset=0").dot.style.colorDotInset, 0)
        XCTAssertEqual(try settings("colorDotInset=10.99").dot.style.colorDotInset, 10.99)
        XCTAssertEqual(try settings("outerDotAlpha=1").dot.style.outerDotAlpha, 1)
        XCTAssertEqual(try settings("outerDotAlpha=0.25").dot.style.outerDotAlpha, 0.25)
        XCTAssertEqual(try settings("pulseScaleFactor=2e0").dot.style.pulseScaleFactor, 2)
        assertSetError("colorDotInset=11", "colorDotInset = 11: out of range (0 ≤ value < 11)")
        assertSetError("colorDotInset=-1", "colorDotInset = -1: out of range (0 ≤ value < 11)")
        assertSetError("outerDotAlpha=1.5", "outerDotAlpha = 1.5: out of range (0 ≤ value ≤ 1)")
        assertSetError("shadowOpacity=x", "shadowOpacity = x: not a number (allowed: 0 ≤ value ≤ 1)")
        assertSetError("pulseScaleFactor=0", "pulseScaleFactor = 0: out of range (value > 0)")
        assertSetError("imageScale=nan", "imageScale = nan: not a number (allowed: value > 0)")
        assertSetError("imageScale=inf", "imageScale = inf: not a number (allowed: value > 0)")
        assertSetError("imageScale=0x10", "imageScale = 0x10: not a number (allowed: value > 0)")
        assertSetError("shadowRadius=-0.5", "shadowRadius = -0.5: out of range (value ≥ 0)")
        assertSetError("hideHaloAboveError=-1", "hideHaloAboveError = -1: out of range (value ≥ 0, in metres)")
    }

    func testDurationsAndInfinity() throws {
        let s = try settings("pulseAnimationDuration=1.5", "outerPulseAnimationDuration=2s", "delayBetweenPulseCycles=0")
        XCTAssertEqual(s.dot.style.pulseAnimationDuration, 1.5)
        XCTAssertEqual(s.dot.style.outerPulseAnimationDuration, 2)
        XCTAssertEqual(s.dot.style.delayBetweenPulseCycles, 0)
        XCTAssertEqual(try settings("delayBetweenPulseCycles=inf").dot.style.delayBetweenPulseCycles, .infinity)
        assertSetError("pulseAnimationDuration=0", "pulseAnimationDuration = 0: out of range (value > 0, in seconds)")
        assertSetError("outerPulseAnimationDuration=-3", "outerPulseAnimationDuration = -3: out of range (value > 0, in seconds)")
        assertSetError("pulseAnimationDuration=inf", "pulseAnimationDuration = inf: not a duration (allowed: value > 0, in seconds)")
        assertSetError("delayBetweenPulseCycles=-1", "delayBetweenPulseCycles = -1: out of range (value ≥ 0, in seconds, or inf)")
        assertSetError("delayBetweenPulseCycles=soon", "delayBetweenPulseCycles = soon: not a duration (allowed: value ≥ 0, in seconds, or inf)")
    }

    func testPointScaleAndChoice() throws {
        let s = try settings("shadowOffset=1.5, -2", "scale=3", "noFix=ring")
        XCTAssertEqual(s.dot.style.shadowOffsetX, 1.5)
        XCTAssertEqual(s.dot.style.shadowOffsetY, -2)
        XCTAssertEqual(s.dot.scale, 3)
        XCTAssertEqual(s.dot.noFix, .ring)
        XCTAssertNil(try settings("scale=3", "scale=auto").dot.scale)
        assertSetError("shadowOffset=2", "shadowOffset = 2: not a point (expected X,Y in points, e.g. 0,2)")
        assertSetError("shadowOffset=1,2,3", "shadowOffset = 1,2,3: not a point (expected X,Y in points, e.g. 0,2)")
        assertSetError("scale=0", "scale = 0: out of range (value > 0)")
        assertSetError("noFix=grey", "noFix = grey: not one of none, ring")
    }

    func testUnknownKeysSectionsAndSyntax() {
        assertSetError("colourDotInset=3", "colourDotInset = 3: unknown property (did you mean colorDotInset?)")
        assertSetError("sparkle=1", "sparkle = 1: unknown property (the [dot] section has: "
                    + SettingsTable.keys(in: "dot").map(\.name).joined(separator: ", ") + ")")
        assertSetError("nosuch.key=1", "nosuch.key = 1: unknown section [nosuch] (sections: \(SettingsTable.sections.joined(separator: ", ")))")
        assertSetError("colorDotInset", "colorDotInset = : expected KEY=VALUE (e.g. colorDotInset=3)")
        // `dot.key` is the same as the bare key.
        XCTAssertEqual(try settings("dot.colorDotInset=4").dot.style.colorDotInset, 4)
    }

    func testLaterAssignmentsWin() throws {
        XCTAssertEqual(try settings("colorDotInset=4", "colorDotInset=5").dot.style.colorDotInset, 5)
    }

    func testFileAndLineForTheConfigLoader() {
        var s = Settings()
        XCTAssertThrowsError(try s.set(section: "dot", name: "colorDotInset", value: "11",
                                       origin: SettingOrigin(file: "/etc/pulsedot/pulsedot.conf", line: 12))) { error in
            let e = error as! SettingError
            XCTAssertEqual(e.file, "/etc/pulsedot/pulsedot.conf")
            XCTAssertEqual(e.line, 12)
            XCTAssertEqual(e.key, "colorDotInset")
            XCTAssertEqual(e.value, "11")
            XCTAssertEqual(e.description, "/etc/pulsedot/pulsedot.conf:12: colorDotInset = 11: out of range (0 ≤ value < 11)")
        }
    }

    func testNothingChangesOnError() {
        var s = Settings()
        XCTAssertThrowsError(try s.set(all: ["colorDotInset=4", "outerDotAlpha=2"]))
        XCTAssertEqual(s.dot.style.colorDotInset, 4, "earlier assignments stay")
        XCTAssertEqual(s.dot.style.outerDotAlpha, 1, "the bad one leaves the old value")
    }
}
