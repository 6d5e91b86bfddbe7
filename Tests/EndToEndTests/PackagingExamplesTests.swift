import Foundation
import TestSupport
import XCTest

/// The unit's ExecReload= as the package installs it: the packaged (stripped) binary accepts the
/// packaged configuration and every packaged example (a tiled one with a map installed where it
/// says, in a copy naming a map written for the test). CheckConfigTests covers the files in the
/// source tree with the binary under test; this covers what lands on a board.
final class PackagingExamplesTests: XCTestCase {
    func testPackagedBinaryAcceptsEveryPackagedConfiguration() throws {
        let pkg = try PackagingFixture.package()
        let binary = pkg.root.appendingPathComponent("usr/bin/pulsedot").path
        let examples = pkg.root.appendingPathComponent("usr/share/pulsedot/examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted()
            .map { examples.appendingPathComponent($0) }
        XCTAssertEqual(files.map(\.lastPathComponent), ["bus-1280x800-tiles.conf", "headless-testbed.conf", "stop-kiosk-1920x1080.conf",
                                                       "vehicle-800x480-portrait.conf"])
        let unit = try UnitFile(contentsOf: pkg.root.appendingPathComponent("lib/systemd/system/pulsedot.service"))
        let reload = try XCTUnwrap(unit.values("ExecReload").first).split(separator: " ").map(String.init)
        XCTAssertEqual(Array(reload.prefix(3)), ["/usr/bin/pulsedot", "check-config", "--quiet"])
        // Quiet as the unit runs it: nothing on stdout for a valid file, so a reload writes no
        // configuration into the journal.
        let quiet = try runProgram(binary, Array(reload.dropFirst()).map { $0.hasPrefix("/etc/") ? pkg.root.path + $0 : $0 })
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stdout, "")
        let config = pkg.root.appendingPathComponent(String(try XCTUnwrap(reload.last).dropFirst()))
        let maps = try PackagingFixture.scratch("example-map", for: self)
        var tiled = 0
        for packaged in [config] + files {
            var file = packaged
            if try ExampleMap.isTiled(packaged) {
                file = try ExampleMap.installed(packaged, in: maps)
                tiled += 1
                // Without its map: valid, with a warning (the daemon runs without it until it is there).
                let missing = try runProgram(binary, ["check-config", packaged.path])
                XCTAssertEqual(missing.status, 0, missing.stderr)
                XCTAssertTrue(missing.stderr.contains("pulsedot: warning: "), "\(packaged.path) says nothing of its missing map")
            }
            let check = try runProgram(binary, ["check-config", file.path])
            XCTAssertEqual(check.status, 0, "\(file.path): \(check.stderr)")
            XCTAssertTrue(check.stdout.hasPrefix("# Effective configuration (\(file.path)): valid.\n"), check.stdout)
            if file != packaged { XCTAssertTrue(check.stdout.contains("\n# map tiles \(maps.path)/city.mbtiles: MBTiles"), check.stdout) }
        }
        XCTAssertEqual(tiled, 1)
    }
}
