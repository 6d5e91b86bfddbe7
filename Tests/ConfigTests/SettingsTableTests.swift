@testable import Config
import LocationDot
import Raster
import TestSupport
import XCTest

/// The table itself: every key of look.md's [dot], defaults that round-trip, the README
/// table, and PNG paths.
final class SettingsTableTests: XCTestCase {
    func testEveryDotKeyIsThere() {
        let expected = ["annotationColor", "pulseColor", "outerColor", "outerDotAlpha", "image", "imageScale",
                        "headingImage", "pulseAnimationDuration", "outerPulseAnimationDuration",
                        "delayBetweenPulseCycles", "pulseScaleFactor", "colorDotInset", "shadowColor",
                        "shadowOffset", "shadowRadius", "shadowOpacity", "scale", "accuracyColor", "accuracyAlpha",
                        "hideHaloAboveError", "headingMinSpeed", "staleColor", "noFix"]
        XCTAssertEqual(SettingsTable.keys(in: "dot").map(\.name), expected)
        XCTAssertEqual(Set(SettingsTable.keys.map(\.qualifiedName)).count, SettingsTable.keys.count, "no key twice")
    }

    func testDefaults() {
        let defaults = Dictionary(uniqueKeysWithValues: SettingsTable.keys.map { ($0.qualifiedName, $0.defaultText) })
        XCTAssertEqual(defaults["annotationColor"], "#007AFF")
        XCTAssertEqual(defaults["pulseColor"], "annotationColor")
        XCTAssertEqual(defaults["outerColor"], "#FFFFFF")
        XCTAssertEqual(defaults["pulseAnimationDuration"], "1")
        XCTAssertEqual(defaults["outerPulseAnimationDuration"], "3")
        XCTAssertEqual(defaults["delayBetweenPulseCycles"], "1")
        XCTAssertEqual(defaults["pulseScaleFactor"], "5.3")
        XCTAssertEqual(defaults["colorDotInset"], "3")
        XCTAssertEqual(defaults["shadowOffset"], "0,2")
        XCTAssertEqual(defaults["shadowRadius"], "3")
        XCTAssertEqual(defaults["shadowOpacity"], "0.3")
        XCTAssertEqual(defaults["image"], "none")
        XCTAssertEqual(defaults["scale"], "auto")
        XCTAssertEqual(defaults["staleColor"], "#8E8E93")
        XCTAssertEqual(defaults["noFix"], "none")
    }

    /// What check-config prints must read back as the same settings.
    func testShownValuesParseBack() throws {
        var s = Settings()
        try s.set(all: ["annotationColor=#11223344", "delayBetweenPulseCycles=inf", "shadowOffset=-1.25,3",
                        "scale=1.5", "accuracyColor=#010203", "noFix=ring", "pulseScaleFactor=4.2"])
        let copy = try assertShownValuesReadBack(s)
        XCTAssertEqual(copy.dot.style, s.dot.style)
    }

    func testMarkdownTable() {
        let md = SettingsTable.markdown(section: "dot")
        let lines = md.split(separator: "\n")
        XCTAssertEqual(lines.count, 2 + SettingsTable.keys(in: "dot").count)
        XCTAssertTrue(lines.contains("| `colorDotInset` | `3` | 0 ≤ value < 11 | inner dot diameter = 22 − 2 × this, in points (the visible white ring) |"))
        for line in lines { XCTAssertTrue(line.hasPrefix("|") && line.hasSuffix("|")) }
    }

    /// The dot's images are paths here; they are decoded by the users of the settings
    /// (SceneTests' DotImagesTests).
    func testImagesArePaths() throws {
        let dir = try TestEnvironment.temporaryDirectory("settings").path
        var s = Settings()
        try s.set("image=\(dir)/gone.png")
        XCTAssertEqual(s.dot.imagePath, dir + "/gone.png")
        XCTAssertNil(s.dot.style.image, "nothing is read while parsing")
        XCTAssertEqual(s.value(of: SettingsTable.key(section: "dot", name: "image")!), dir + "/gone.png")
        try s.set("image=none")
        XCTAssertNil(s.dot.imagePath)
        XCTAssertThrowsError(try s.set("headingImage=")) { error in
            XCTAssertEqual("\(error)", "headingImage = : empty path (expected a PNG file with an alpha channel, or none)")
        }
        // From a configuration file, a relative path is relative to the file.
        try s.set(section: "dot", name: "headingImage", value: "arrow.png", origin: SettingOrigin(file: dir + "/pulsedot.conf", line: 3))
        XCTAssertEqual(s.dot.headingImagePath, dir + "/arrow.png")
    }

    func testEditDistance() {
        XCTAssertEqual(editDistance("colour", "color"), 1)
        XCTAssertEqual(editDistance("", "abc"), 3)
        XCTAssertEqual(editDistance("kitten", "sitting"), 3)
    }
}
