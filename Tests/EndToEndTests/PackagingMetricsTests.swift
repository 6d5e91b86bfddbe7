import Config
import Foundation
import TestSupport
import XCTest

/// The way the metrics file reaches node_exporter on a board: the unit's runtime folder in RAM,
/// the tmpfiles.d link into the folder Debian's node_exporter reads, and the daemon's default
/// path, which must all name the same file.
final class PackagingMetricsTests: XCTestCase {
    private var tmpfilesEntry: URL { TestEnvironment.packageRoot.appendingPathComponent("deploy/package/tmpfiles.d/pulsedot.conf") }

    func testTmpfilesLinksTheDefaultTextfileIntoNodeExportersFolder() throws {
        let root = try PackagingFixture.scratch("tmpfiles", for: self)
        try PackagingFixture.check(try PackagingFixture.run("/usr/bin/systemd-tmpfiles", ["--root=" + root.path, "--create", tmpfilesEntry.path]),
                                   "systemd-tmpfiles --create")
        let folder = try Self.nodeExporterTextfileFolder()
        let link = root.path + folder + "/pulsedot.prom"
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: link)
        XCTAssertEqual(target, Settings().metrics.textfile, "the link must point where the daemon writes by default")
        // Made again (an upgrade, a boot) it stays as it is.
        try PackagingFixture.check(try PackagingFixture.run("/usr/bin/systemd-tmpfiles", ["--root=" + root.path, "--create", tmpfilesEntry.path]),
                                   "systemd-tmpfiles --create, again")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), target)
    }

    func testTheUnitGivesTheDaemonAReadableRuntimeFolderForTheFile() throws {
        let unit = try UnitFile(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("systemd/pulsedot.service"))
        let parts = try XCTUnwrap(Settings().metrics.textfileParts)
        XCTAssertEqual("/run/" + (unit.value("RuntimeDirectory") ?? ""), parts.directory)
        // node_exporter's user must be able to walk into it; the daemon sets the file's own mode.
        XCTAssertEqual(unit.value("RuntimeDirectoryMode"), "0755")
        XCTAssertEqual(unit.value("UMask"), "0077", "the reason the file's mode is set explicitly")
    }

    /// The folder Debian's prometheus-node-exporter reads by default, as the program itself says.
    static func nodeExporterTextfileFolder() throws -> String {
        let exporter = "/usr/bin/prometheus-node-exporter"
        guard FileManager.default.isExecutableFile(atPath: exporter) else {
            throw TestFailure("\(exporter) missing: deploy/install-deps --test installs prometheus-node-exporter")
        }
        let help = try runProgram(exporter, ["--help"])
        let text = help.stdout + help.stderr
        let marker = "--collector.textfile.directory=\""
        guard let start = text.range(of: marker), let end = text[start.upperBound...].firstIndex(of: "\"") else {
            throw TestFailure("no textfile directory default in node_exporter's --help:\n\(text)")
        }
        return String(text[start.upperBound..<end])
    }
}
