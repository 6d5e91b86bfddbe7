@testable import Config
import Foundation
import GPSD
@testable import Geo
import Raster
import TestSupport
import XCTest

/// The file syntax, every class of error with its one-line `FILE:LINE:` message, overrides and the
/// default file.
final class ConfigFileTests: XCTestCase, ConfigFileTesting {
    let file = "/etc/pulsedot/test.conf"

    private func parse(_ text: String, _ overrides: [String] = []) throws -> Settings {
        try Configuration.parse(text, file: file, overrides: overrides).settings
    }

    func testSectionsKeysCommentsAndBlankLines() throws {
        let s = try parse("""
            # a comment
              ; another, indented

            [dot]
            annotationColor = #FF3B30
            shadowOffset=1,3
            \tscale\t=\t2\t
            [source]
            position = 45.5, -73.6
            [ map ]
            background = #112233
            """)
        XCTAssertEqual(s.dot.style.annotationColor, Color(r: 0xFF, g: 0x3B, b: 0x30), "a # value is a colour, not a comment")
        XCTAssertEqual(s.dot.style.shadowOffsetY, 3)
        XCTAssertEqual(s.dot.scale, 2)
        XCTAssertEqual(s.source.source, .position(GeoPoint(latitude: 45.5, longitude: -73.6)))
        XCTAssertEqual(s.map.background, Color(r: 0x11, g: 0x22, b: 0x33))
        XCTAssertEqual(s.origins["scale"], SettingOrigin(file: file, line: 7))
        XCTAssertEqual(s.origins["map.background"], SettingOrigin(file: file, line: 11))
    }

    func testDOSLineEndsAndReopenedSections() throws {
        let s = try parse("\u{FEFF}[dot]\r\nscale = 3\r\n[log]\r\nlevel = debug\r\n[dot]\r\nnoFix = ring\r\n")
        XCTAssertEqual(s.dot.scale, 3)
        XCTAssertEqual(s.log.level, .debug)
        XCTAssertEqual(s.dot.noFix, .ring)
    }

    func testEmptyFileIsTheDefaults() throws {
        let s = try parse("")
        for key in SettingsTable.keys { XCTAssertEqual(s.value(of: key), key.defaultText, key.qualifiedName) }
        XCTAssertTrue(s.origins.isEmpty)
    }

    func testUnknownSection() {
        assertError("[dot]\nscale = 2\n[sorce]\n", "\(file):3: [sorce]: unknown section (did you mean [source]? sections: dot, source, display, map, log, metrics, transit, realtime, kiosk)")
        assertError("[network]\n", "\(file):1: [network]: unknown section (sections: dot, source, display, map, log, metrics, transit, realtime, kiosk)")
    }

    func testUnknownKey() {
        assertError("[dot]\nscael = 2\n", "\(file):2: scael = 2: unknown property (did you mean scale?)")
        assertError("[log]\n\nverbosity = 3\n", "\(file):3: log.verbosity = 3: unknown property (the [log] section has: level, summaryEvery)")
        // The right key in the wrong section is named as such.
        assertError("[dot]\nfps = 30\n", "\(file):2: fps = 30: unknown property: fps is a key of [display], not of [dot]")
    }

    func testBadValueNamesLineKeyValueAndWhatIsAllowed() {
        assertError("[dot]\ncolorDotInset = 11\n", "\(file):2: colorDotInset = 11: out of range (0 ≤ value < 11)")
        assertError("[display]\n\n\nrotation = 45\n", "\(file):4: display.rotation = 45: not one of 0, 90, 180, 270, auto")
        assertError("[source]\nstaleAfter = soon\n", "\(file):2: source.staleAfter = soon: not a duration (allowed: value > 0, in seconds, or inf)")
    }

    func testCommentAfterAValueIsPartOfItAndTheErrorSaysSo() {
        assertError("[dot]\nscale = 2 # two pixels per point\n",
                    "\(file):2: scale = 2 # two pixels per point: not a number (allowed: value > 0); comments go on lines of their own")
    }

    func testLineThatIsNeither() {
        assertError("[dot]\nscale 2\n", "\(file):2: scale 2: not a setting (expected [section], key = value, or a comment line starting with # or ;)")
        assertError("[dot\n", "\(file):1: [dot: not a section header (expected [name] alone on its line; comments go on lines of their own)")
        assertError("[dot] # the look\n", "\(file):1: [dot] # the look: not a section header (expected [name] alone on its line; comments go on lines of their own)")
        assertError("[dot]\n= 2\n", "\(file):2: = 2: no key before = (expected key = value)")
    }

    func testKeyOutsideASection() {
        assertError("# no header yet\nscale = 2\n", "\(file):2: scale: outside a section (put it under a header such as [dot] or [source])")
    }

    func testDuplicateKeyIsAnErrorNamingBothLines() {
        assertError("[dot]\nscale = 2\n[source]\ngpsd = 10.0.0.1\n[dot]\nscale = 3\n",
                    "\(file):6: scale: set twice (first at line 2); each key may appear once in a file")
        assertError("[map]\nzoom = 15\nzoom = 15\n", "\(file):3: map.zoom: set twice (first at line 2); each key may appear once in a file")
    }

    func testOneSourcePerFile() {
        assertError("[source]\ngpsd = 10.0.0.1:2947\nstaleAfter = 5\nposition = 45.5,-73.6\n",
                    "\(file):4: source.position: conflicts with gpsd at line 2 ([source] takes one of gpsd, position or replay)")
        assertError("[source]\nposition = 45.5,-73.6\n[log]\nlevel = info\n[source]\ngpsd = 127.0.0.1\n",
                    "\(file):6: source.gpsd: conflicts with position at line 2 ([source] takes one of gpsd, position or replay)")
        // `none` chooses nothing, so it conflicts with nothing.
        XCTAssertEqual(try parse("[source]\ngpsd = 10.0.0.1\nposition = none\nreplay = none\n").source.source,
                       .gpsd(GPSDEndpoint(host: "10.0.0.1", port: 2947)))
    }

    func testOverridesWinOverTheFileInOrder() throws {
        let text = "[dot]\nscale = 2\n[source]\ngpsd = 10.0.0.1:3000\n[log]\nlevel = debug\n"
        let s = try parse(text, ["scale=3", "log.level=error", "log.level=warning", "source.position=45.5,-73.6"])
        XCTAssertEqual(s.dot.scale, 3, "a bare key is in [dot]")
        XCTAssertEqual(s.log.level, .warning, "later overrides win")
        XCTAssertEqual(s.source.source, .position(GeoPoint(latitude: 45.5, longitude: -73.6)), "--set switches the source")
        XCTAssertEqual(s.origins["scale"], .commandLine)
        // The file's own value stays where no override names it.
        XCTAssertEqual(try parse(text, ["log.level=error"]).dot.scale, 2)
    }

    func testOverrideErrorsNameTheOverride() {
        assertError("[dot]\n", overrides: ["scale=0"], "--set scale = 0: out of range (value > 0)")
        assertError("[dot]\n", overrides: ["map.zoom=31"], "--set map.zoom = 31: out of range (0 ≤ value ≤ 30)")
        assertError("[dot]\n", overrides: ["colour.scale=2"], "--set colour.scale = 2: unknown section [colour] (sections: dot, source, display, map, log, metrics, transit, realtime, kiosk)")
        assertError("[dot]\n", overrides: ["scale"], "--set scale = : expected KEY=VALUE (e.g. colorDotInset=3)")
    }

    func testFileErrorComesBeforeOverrides() {
        assertError("[dot]\nscale = -1\n", overrides: ["scale=2"], "\(file):2: scale = -1: out of range (value > 0)")
    }

    func testRelativePathsAreTakenFromTheFilesDirectory() throws {
        let dir = try TestEnvironment.temporaryDirectory("config-paths").path
        try Data("$GPGGA\n".utf8).write(to: URL(fileURLWithPath: dir + "/drive.nmea"))
        let s = try Configuration.parse("[source]\nreplay = drive.nmea\n[display]\noutput = png:frames\n",
                                        file: dir + "/pulsedot.conf").settings
        XCTAssertEqual(s.source.source, .replay(path: dir + "/drive.nmea"))
        XCTAssertEqual(s.display.output, .png(directory: dir + "/frames"))
        // Absolute paths stay as written.
        let t = try Configuration.parse("[display]\noutput = png:/tmp/x\n", file: dir + "/pulsedot.conf").settings
        XCTAssertEqual(t.display.output, .png(directory: "/tmp/x"))
    }

    func testLoadReadsTheFileAndMissingFiles() throws {
        let dir = try TestEnvironment.temporaryDirectory("config-load").path
        let path = dir + "/pulsedot.conf"
        try "[dot]\nscale = 2\n".write(toFile: path, atomically: true, encoding: .utf8)
        let c = try Configuration.load(path: path, overrides: ["noFix=ring"])
        XCTAssertEqual(c.file, path)
        XCTAssertEqual(c.settings.dot.scale, 2)
        XCTAssertEqual(c.settings.dot.noFix, .ring)
        XCTAssertEqual(c.overrides, 1)
        XCTAssertEqual(c.notes, [])

        XCTAssertThrowsError(try Configuration.load(path: dir + "/missing.conf")) { error in
            XCTAssertEqual("\(error)", "\(dir)/missing.conf: cannot read the configuration (No such file or directory)")
        }
        XCTAssertThrowsError(try Configuration.load(path: dir)) { error in
            XCTAssertEqual("\(error)", "\(dir): cannot read the configuration (a folder, not a regular file)")
        }
    }

    func testMissingDefaultFileMeansDefaultsWithOneNote() throws {
        let dir = try TestEnvironment.temporaryDirectory("config-default").path
        let c = try Configuration.load(path: nil, overrides: ["scale=2"], defaultPath: dir + "/pulsedot.conf")
        XCTAssertNil(c.file)
        XCTAssertEqual(c.notes, ["no configuration file at \(dir)/pulsedot.conf: using the defaults"])
        XCTAssertEqual(c.settings.dot.scale, 2, "overrides still apply")
        XCTAssertEqual(c.settings.map.zoom, 16)
        // Present, the default file is read like any other.
        try "[map]\nzoom = 12\n".write(toFile: dir + "/pulsedot.conf", atomically: true, encoding: .utf8)
        let d = try Configuration.load(path: nil, defaultPath: dir + "/pulsedot.conf")
        XCTAssertEqual(d.file, dir + "/pulsedot.conf")
        XCTAssertEqual(d.settings.map.zoom, 12)
        XCTAssertEqual(d.notes, [])
        // composition = planes is a choice the display makes when it opens, not a note of the file's.
        try "[display]\ncomposition = planes\n".write(toFile: dir + "/pulsedot.conf", atomically: true, encoding: .utf8)
        XCTAssertEqual(try Configuration.load(path: nil, defaultPath: dir + "/pulsedot.conf").notes, [])
        XCTAssertEqual(try Configuration.load(path: nil, overrides: ["display.composition=planes"], defaultPath: dir + "/none.conf").notes,
                       ["no configuration file at \(dir)/none.conf: using the defaults"])
        // Present but unreadable as a file: an error, not the defaults.
        XCTAssertThrowsError(try Configuration.load(path: nil, defaultPath: dir)) { error in
            XCTAssertEqual("\(error)", "\(dir): cannot read the configuration (a folder, not a regular file)")
        }
    }
}
