import Foundation
import TestSupport
import XCTest

/// `pulsedot check-config`, as the unit's ExecReload and a person at a shell run it: exit 0 and
/// the effective configuration, or exit 1 and one line naming file, line, key and what is allowed.
final class CheckConfigTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("check-config")
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private func checkConfig(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), ["check-config"] + arguments)
    }

    func testValidFilePrintsTheEffectiveConfiguration() throws {
        let path = try write("kiosk.conf", """
            # A stop kiosk.
            [dot]
            annotationColor = #FF3B30
            [source]
            position = 45.50845,-73.56857
            [display]
            output = png:frames
            """)
        let run = try checkConfig([path, "--set", "display.fps=30", "--set", "scale=2"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "# Effective configuration (\(path) with 2 --set overrides): valid.")
        XCTAssertTrue(lines.contains("# 5 keys differ from the defaults; keys at their default are commented out."), run.stdout)
        for changed in ["annotationColor = #FF3B30", "position = 45.50845,-73.56857", "output = png:\(dir.path)/frames",
                        "fps = 30", "scale = 2"] {
            XCTAssertTrue(lines.contains(changed), changed)
        }
        for unchanged in ["# gpsd = 127.0.0.1:2947", "# colorDotInset = 3", "# zoom = 16", "# level = info"] {
            XCTAssertTrue(lines.contains(unchanged), unchanged)
        }
        XCTAssertEqual(lines.filter { $0.hasPrefix("[") }, ["[dot]", "[source]", "[display]", "[map]", "[log]", "[metrics]", "[transit]", "[realtime]", "[kiosk]"])

        // Each given value says where it comes from, on the line before it.
        for (origin, value) in [("\(path):3", "annotationColor = #FF3B30"), ("\(path):5", "position = 45.50845,-73.56857"),
                                ("--set", "fps = 30"), ("--set", "scale = 2")] {
            XCTAssertEqual(lines.firstIndex(of: value).map { lines[$0 - 1] }, "# from \(origin)", value)
        }
        // What it prints is itself a configuration giving the same result (the values now from the copy).
        let copy = try write("copy.conf", run.stdout)
        let again = try checkConfig([copy])
        XCTAssertEqual(again.status, 0, again.stderr)
        let values = { (text: String) in text.split(separator: "\n").dropFirst().filter { !$0.hasPrefix("# from ") } }
        XCTAssertEqual(values(again.stdout), values(run.stdout))
    }

    /// A board's main file with a site drop-in and a vehicle drop-in: the later value wins, the
    /// listing names the drop-in and line each value comes from, leftovers of dpkg are ignored,
    /// and an error in a drop-in names it.
    func testDropInsOverrideTheFileAndNameTheirLines() throws {
        let main = try write("pulsedot.conf", "[dot]\nannotationColor = #FF3B30\n[map]\nzoom = 12\n")
        let dropIns = dir.appendingPathComponent("pulsedot.conf.d")
        try FileManager.default.createDirectory(at: dropIns, withIntermediateDirectories: true)
        _ = try write("pulsedot.conf.d/10-site.conf", "[map]\nzoom = 14\nbackground = #112233\n")
        _ = try write("pulsedot.conf.d/50-vehicle.conf", "# this bus's panel\n[map]\nzoom = 15\n[display]\nrotation = 90\n")
        _ = try write("pulsedot.conf.d/50-vehicle.conf.dpkg-old", "[map]\nzoom = nonsense\n")
        _ = try write("pulsedot.conf.d/50-vehicle.conf~", "[map]\nzoom = nonsense\n")
        let run = try checkConfig([main])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "# Effective configuration (\(main), then 2 drop-ins from \(dropIns.path)): valid.")
        for (origin, value) in [("\(main):2", "annotationColor = #FF3B30"), ("\(dropIns.path)/50-vehicle.conf:3", "zoom = 15"),
                                ("\(dropIns.path)/10-site.conf:3", "background = #112233"), ("\(dropIns.path)/50-vehicle.conf:5", "rotation = 90")] {
            XCTAssertEqual(lines.firstIndex(of: value).map { lines[$0 - 1] }, "# from \(origin)", value + "\n" + run.stdout)
        }
        _ = try write("pulsedot.conf.d/60-broken.conf", "[display]\n\nfps = sixty\n")
        let bad = try checkConfig([main])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stdout, "")
        XCTAssertTrue(bad.stderr.hasPrefix("pulsedot: \(dropIns.path)/60-broken.conf:3: display.fps = sixty: "), bad.stderr)
    }

    func testInvalidFileExitsNonZeroWithOneLine() throws {
        let cases: [(String, String)] = [
            ("[dot]\ncolorDotInset = 11\n", ":2: colorDotInset = 11: out of range (0 ≤ value < 11)"),
            ("[dot]\n\n[sorce]\n", ":3: [sorce]: unknown section (did you mean [source]? sections: dot, source, display, map, log, metrics, transit, realtime, kiosk)"),
            ("[map]\nbounds = -73.6,45.49,-73.54,45.52\n",
             ":2: map.bounds = -73.6,45.49,-73.54,45.52: bounds place a map image: set image = FILE.png too (a plain map uses center and zoom)"),
            ("[dot]\nscale = 2\nscale = 3\n", ":3: scale: set twice (first at line 2); each key may appear once in a file"),
        ]
        for (text, message) in cases {
            let path = try write("bad.conf", text)
            let run = try checkConfig([path])
            XCTAssertEqual(run.status, 1, text)
            XCTAssertEqual(run.stdout, "", "nothing is printed for a refused configuration")
            XCTAssertEqual(run.stderr, "pulsedot: \(path)\(message)\n")
        }
    }

    func testOverridesWinAndAreChecked() throws {
        let path = try write("log.conf", "[log]\nlevel = debug\n")
        let run = try checkConfig([path, "--set", "log.level=error"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("\nlevel = error\n"), run.stdout)
        let bad = try checkConfig([path, "--set", "log.level=loud"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stderr, "pulsedot: --set log.level = loud: not one of error, warning, notice, info, debug\n")
    }

    func testMissingFileAndUsage() throws {
        let missing = try checkConfig([dir.path + "/none.conf"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "pulsedot: \(dir.path)/none.conf: cannot read the configuration (No such file or directory)\n")
        let two = try checkConfig(["a.conf", "b.conf"])
        XCTAssertEqual(two.status, 2)
        XCTAssertTrue(two.stderr.hasPrefix("pulsedot: check-config: check-config takes one file, as the operand or as --config, got 2\n"), two.stderr)
    }

    /// The shipped examples are real configurations: each passes, and what it sets shows. The
    /// `--config FILE` is the operand under the name every other command gives it; `--quiet`
    /// (the unit's ExecReload) prints nothing for a valid file and still says what is wrong.
    func testConfigAliasAndQuiet() throws {
        let path = try write("a.conf", "[dot]\nscale = 2\n")
        let operand = try checkConfig([path]), option = try checkConfig(["--config", path])
        XCTAssertEqual(option.status, 0, option.stderr)
        XCTAssertEqual(option.stdout, operand.stdout)
        let both = try checkConfig([path, "--config", path])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("check-config takes one file, as the operand or as --config, got 2"), both.stderr)
        let quiet = try checkConfig(["--quiet", path])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stdout, "")
        let bad = try checkConfig(["--quiet", try write("b.conf", "[dot]\nscale = -2\n")])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("b.conf:2: scale = -2: "), bad.stderr)
    }

    /// tiled one passes with its map installed, and says that the map is missing without it.
    func testDeployExamplesPass() throws {
        let examples = TestEnvironment.packageRoot.appendingPathComponent("deploy/package/examples")
        let names = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".conf") }.sorted()
        XCTAssertEqual(names, ["bus-1280x800-tiles.conf", "headless-testbed.conf", "stop-kiosk-1920x1080.conf",
                               "vehicle-800x480-portrait.conf"])
        for name in names {
            var url = examples.appendingPathComponent(name)
            if try ExampleMap.isTiled(url) { url = try ExampleMap.installed(url, in: dir) }
            let run = try checkConfig([url.path])
            XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
            XCTAssertFalse(run.stdout.contains("# 0 keys differ"), name)
        }
        let vehicle = try checkConfig([examples.appendingPathComponent("vehicle-800x480-portrait.conf").path]).stdout
        for line in ["format = rgb565", "rotation = 90", "fps = 30", "follow = center"] {
            XCTAssertTrue(vehicle.contains("\n\(line)\n"), line)
        }

        let bus = examples.appendingPathComponent("bus-1280x800-tiles.conf")
        // Without its map the configuration is valid: a warning, and the daemon would run without it.
        let missing = try checkConfig([bus.path])
        XCTAssertEqual(missing.status, 0, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("pulsedot: warning: "), missing.stderr)
        XCTAssertTrue(missing.stderr.contains(": map.tiles = \(ExampleMap.boardPath): stat \(ExampleMap.boardPath): No such file or directory"),
                      missing.stderr)
        let installed = try checkConfig([try ExampleMap.installed(bus, in: dir).path]).stdout
        for line in ["tiles = \(dir.path)/city.mbtiles", "zoom = 17", "follow = center", "cacheMegabytes = 16", "mode = 1280x800@60",
                     "# map tiles \(dir.path)/city.mbtiles: MBTiles, PNG tiles of 256 px, zooms 17–17 (shown: 17), 48 tiles",
                     "# map tile cache 16 MiB: 64 tiles; a 1280x800 screen needs 56 (the tiles in view and the ring around them)"] {
            XCTAssertTrue(installed.contains("\n\(line)\n") || installed.hasSuffix("\n\(line)"), line + "\n" + installed)
        }
        XCTAssertTrue(installed.contains("\n# attribution = auto\n"), "the credit is the file's own")
        // Too small a cache for the panel is said at cacheMegabytes.
        let small = try checkConfig([try ExampleMap.installed(bus, in: dir).path, "--set", "map.cacheMegabytes=13"])
        XCTAssertEqual(small.status, 1)
        XCTAssertTrue(small.stderr.contains("cacheMegabytes"), small.stderr)
    }

    func testShippedFileAndKeyTableComeFromTheBinary() throws {
        let shipped = try checkConfig([TestEnvironment.packageRoot.appendingPathComponent("deploy/package/pulsedot.conf").path])
        XCTAssertEqual(shipped.status, 0, shipped.stderr)
        XCTAssertTrue(shipped.stdout.contains("# 0 keys differ from the defaults"), shipped.stdout)

        let table = try checkConfig(["--keys-markdown"])
        XCTAssertEqual(table.status, 0, table.stderr)
        let block = "<!-- keys:begin -->\n" + table.stdout + "<!-- keys:end -->"
        let docs = ["README.md", "docs/configuration.md"].compactMap {
            try? String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent($0), encoding: .utf8)
        }
        XCTAssertTrue(docs.contains { $0.contains(block) }, "the key table in the docs is the binary's")
    }
}
