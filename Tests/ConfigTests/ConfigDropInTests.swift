@testable import Config
import Foundation
import Glibc
import Geo
import TestSupport
import XCTest

/// Drop-ins: `FILE.d/*.conf` read after the main file in the byte order of their names, a later
/// value winning; where each value came from; which names are read; errors naming the drop-in.
final class ConfigDropInTests: XCTestCase {
    private var dir: String!
    private var main: String { dir + "/pulsedot.conf" }
    private var dropIns: String { dir + "/pulsedot.conf.d" }

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("config-dropins").path
        try FileManager.default.createDirectory(atPath: dropIns, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func write(_ path: String, _ text: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func testDropInsAreReadInNameOrderAndTheLastValueWins() throws {
        try write(main, "[dot]\nscale = 2\nannotationColor = #FF3B30\n[map]\nzoom = 12\n")
        try write(dropIns + "/50-vehicle.conf", "[dot]\nscale = 3\n")
        try write(dropIns + "/10-site.conf", "[map]\nzoom = 14\n[dot]\nscale = 1\n")
        // Bytes, not a locale's order: "Z" (0x5A) before "a" (0x61).
        try write(dropIns + "/Z-late.conf", "[log]\nlevel = debug\n")
        try write(dropIns + "/a-last.conf", "[log]\nlevel = error\n")
        let c = try Configuration.load(path: main)
        XCTAssertEqual(c.dropIns, ["10-site.conf", "50-vehicle.conf", "Z-late.conf", "a-last.conf"].map { dropIns + "/" + $0 })
        XCTAssertEqual(c.settings.dot.scale, 3, "50-vehicle.conf comes after 10-site.conf")
        XCTAssertEqual(c.settings.map.zoom, 14, "a drop-in wins over the main file")
        XCTAssertEqual(c.settings.dot.style.annotationColor, try Settings.color("#FF3B30", option: "test"), "what no drop-in sets stays")
        XCTAssertEqual(c.settings.log.level.rawValue, "error")
        XCTAssertEqual(c.settings.origins["scale"], SettingOrigin(file: dropIns + "/50-vehicle.conf", line: 2))
        XCTAssertEqual(c.settings.origins["map.zoom"], SettingOrigin(file: dropIns + "/10-site.conf", line: 2))
        XCTAssertEqual(c.settings.origins["annotationColor"], SettingOrigin(file: main, line: 3))

        // --set still wins over every file.
        let o = try Configuration.load(path: main, overrides: ["scale=4"])
        XCTAssertEqual(o.settings.dot.scale, 4)
        XCTAssertEqual(o.settings.origins["scale"], .commandLine)
    }

    func testEffectiveTextNamesEachValuesFileAndLine() throws {
        try write(main, "[dot]\nscale = 2\n[map]\nzoom = 12\n")
        try write(dropIns + "/50-vehicle.conf", "# the panel\n[map]\nzoom = 15\n")
        let c = try Configuration.load(path: main, overrides: ["display.rotation=90"])
        let lines = c.effectiveText().split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "# Effective configuration (\(main), then 1 drop-in from \(dropIns) with 1 --set override): valid.")
        func origin(of line: String) -> String? {
            lines.firstIndex(of: line).map { lines[$0 - 1] }
        }
        XCTAssertEqual(origin(of: "scale = 2"), "# from \(main):2")
        XCTAssertEqual(origin(of: "zoom = 15"), "# from \(dropIns)/50-vehicle.conf:3")
        XCTAssertEqual(origin(of: "rotation = 90"), "# from --set")
        XCTAssertFalse(lines.contains("# from \(main):4"), "the main file's zoom was replaced")
        // Read back, the listing is the same configuration.
        let again = try Configuration.parse(c.effectiveText(), file: dir + "/copy.conf")
        for key in SettingsTable.keys { XCTAssertEqual(again.settings.value(of: key), c.settings.value(of: key), key.qualifiedName) }
    }

    func testOnlyConfNamesAreReadAndAMissingDirectoryIsNone() throws {
        try write(main, "[map]\nzoom = 12\n")
        XCTAssertEqual(try Configuration.load(path: main).dropIns, [])
        for name in ["50-vehicle.conf.dpkg-dist", "50-vehicle.conf.dpkg-old", "50-vehicle.conf~", ".#50-vehicle.conf",
                     ".hidden.conf", "README", "50-vehicle.conf.swp", ".conf"] {
            // Each would be an error if it were read.
            try write(dropIns + "/" + name, "not a configuration\n")
        }
        try write(dropIns + "/50-vehicle.conf", "[map]\nzoom = 13\n")
        let c = try Configuration.load(path: main)
        XCTAssertEqual(c.dropIns, [dropIns + "/50-vehicle.conf"])
        XCTAssertEqual(c.settings.map.zoom, 13)

        try FileManager.default.removeItem(atPath: dropIns)
        let none = try Configuration.load(path: main)
        XCTAssertEqual(none.dropIns, [])
        XCTAssertEqual(none.settings.map.zoom, 12)
        XCTAssertEqual(none.notes, [])
    }

    func testErrorsNameTheDropInItsLineAndKey() throws {
        try write(main, "[dot]\nscale = 2\n")
        try write(dropIns + "/10-site.conf", "[dot]\nscale = 3\n")
        try write(dropIns + "/20-bad.conf", "[dot]\n\ncolorDotInset = 11\n")
        XCTAssertThrowsError(try Configuration.load(path: main)) { error in
            XCTAssertEqual("\(error)", "\(dropIns)/20-bad.conf:3: colorDotInset = 11: out of range (0 ≤ value < 11)")
        }
        // Once per file still holds inside a drop-in, but not across files.
        try write(dropIns + "/20-bad.conf", "[dot]\nscale = 4\nscale = 5\n")
        XCTAssertThrowsError(try Configuration.load(path: main)) { error in
            XCTAssertEqual("\(error)", "\(dropIns)/20-bad.conf:3: scale: set twice (first at line 2); each key may appear once in a file")
        }
        // A whole-configuration check names the drop-in's line of the key at fault.
        try write(dropIns + "/20-bad.conf", "[map]\nbounds = -73.6,45.49,-73.54,45.52\n")
        XCTAssertThrowsError(try Configuration.load(path: main)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(dropIns)/20-bad.conf:2: map.bounds = "), "\(error)")
        }
    }

    func testUnreadableDropInsAreErrorsNamingThem() throws {
        try write(main, "[dot]\nscale = 2\n")
        // Root reads any mode, so unreadable here means a dangling link and a directory.
        try FileManager.default.createSymbolicLink(atPath: dropIns + "/30-gone.conf", withDestinationPath: dir + "/nowhere.conf")
        XCTAssertThrowsError(try Configuration.load(path: main)) { error in
            XCTAssertEqual("\(error)", "\(dropIns)/30-gone.conf: cannot read the drop-in (No such file or directory)")
        }
        try FileManager.default.removeItem(atPath: dropIns + "/30-gone.conf")
        try FileManager.default.createDirectory(atPath: dropIns + "/40-folder.conf", withIntermediateDirectories: false)
        XCTAssertThrowsError(try Configuration.load(path: main)) { error in
            XCTAssertEqual("\(error)", "\(dropIns)/40-folder.conf: cannot read the drop-in (a folder, not a regular file)")
        }
        try FileManager.default.removeItem(atPath: dropIns + "/40-folder.conf")
        // A FIFO (nobody writing it) is refused at once: reading it would hang check-config, and
        // so `systemctl reload`.
        XCTAssertEqual(mkfifo(dropIns + "/50-fifo.conf", 0o600), 0)
        let started = Date()
        XCTAssertThrowsError(try Configuration.load(path: main)) { error in
            XCTAssertEqual("\(error)", "\(dropIns)/50-fifo.conf: cannot read the drop-in (a FIFO, not a regular file)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        try FileManager.default.removeItem(atPath: dropIns + "/50-fifo.conf")
        // The directory's name taken by a file.
        try FileManager.default.removeItem(atPath: dropIns)
        try write(dropIns, "[dot]\n")
        XCTAssertThrowsError(try Configuration.load(path: main)) { error in
            XCTAssertEqual("\(error)", "\(dropIns): cannot list the drop-ins (Not a directory)")
        }
    }

    func testEachDropInMayChooseItsOwnSource() throws {
        try write(main, "[source]\ngpsd = 10.0.0.2:2947\n")
        try write(dropIns + "/50-kiosk.conf", "[source]\nposition = 45.5,-73.6\n")
        let c = try Configuration.load(path: main)
        XCTAssertEqual(c.settings.source.source, .position(GeoPoint(latitude: 45.5, longitude: -73.6)))
        XCTAssertNil(c.settings.origins["source.gpsd"], "the main file's gpsd was replaced")
        XCTAssertFalse(c.effectiveText().contains("# from \(main):2"), c.effectiveText())
        // Inside one drop-in, two sources are still an error.
        try write(dropIns + "/50-kiosk.conf", "[source]\nposition = 45.5,-73.6\ngpsd = 10.0.0.3\n")
        XCTAssertThrowsError(try Configuration.load(path: main)) { error in
            XCTAssertEqual("\(error)", "\(dropIns)/50-kiosk.conf:3: source.gpsd: conflicts with position at line 2 ([source] takes one of gpsd, position or replay)")
        }
    }

    func testRelativePathsAreTakenFromTheDropInsDirectory() throws {
        try write(main, "")
        try write(dropIns + "/50-frames.conf", "[display]\noutput = png:frames\n")
        XCTAssertEqual(try Configuration.load(path: main).settings.display.output, .png(directory: dropIns + "/frames"))
    }

    func testMissingDefaultFileStillReadsItsDropIns() throws {
        try write(dropIns + "/50-vehicle.conf", "[map]\nzoom = 13\n")
        let c = try Configuration.load(path: nil, defaultPath: main)
        XCTAssertNil(c.file)
        XCTAssertEqual(c.settings.map.zoom, 13)
        XCTAssertEqual(c.notes, ["no configuration file at \(main): the defaults, then its 1 drop-in"])
        XCTAssertTrue(c.effectiveText().hasPrefix("# Effective configuration (no file, defaults, then 1 drop-in from \(dropIns)): valid.\n"))
        // A main file that was asked for and is missing is still an error, drop-ins or not.
        XCTAssertThrowsError(try Configuration.load(path: main)) { error in
            XCTAssertEqual("\(error)", "\(main): cannot read the configuration (No such file or directory)")
        }
    }

    func testTheReloadPathReadsDropInsAgain() throws {
        try write(main, "[map]\nzoom = 12\n")
        XCTAssertEqual(try Configuration.load(path: main).settings.map.zoom, 12)
        try write(dropIns + "/50-vehicle.conf", "[map]\nzoom = 15\n")
        XCTAssertEqual(try Configuration.load(path: main).settings.map.zoom, 15, "a new drop-in is seen")
        try FileManager.default.removeItem(atPath: dropIns + "/50-vehicle.conf")
        XCTAssertEqual(try Configuration.load(path: main).settings.map.zoom, 12, "a removed one is gone")
    }
}
