import Foundation
import TestSupport
import XCTest

/// The unit's ExecReload= as the package installs it: the packaged (stripped) binary accepts the
/// packaged configuration and every packaged example. CheckConfigTests covers the files in the
/// source tree with the binary under test; this covers what lands on a board.
final class PackagingExamplesTests: XCTestCase {
    func testPackagedBinaryAcceptsEveryPackagedConfiguration() throws {
        let pkg = try PackagingFixture.package()
        let binary = pkg.root.appendingPathComponent("usr/bin/pulsedot").path
        let examples = pkg.root.appendingPathComponent("usr/share/pulsedot/examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted()
            .map { examples.appendingPathComponent($0) }
        XCTAssertEqual(files.count, 3)
        let unit = try UnitFile(contentsOf: pkg.root.appendingPathComponent("lib/systemd/system/pulsedot.service"))
        let reload = try XCTUnwrap(unit.values("ExecReload").first).split(separator: " ").map(String.init)
        XCTAssertEqual(Array(reload.prefix(2)), ["/usr/bin/pulsedot", "check-config"])
        let config = pkg.root.appendingPathComponent(String(try XCTUnwrap(reload.last).dropFirst()))
        for file in [config] + files {
            let check = try runProgram(binary, ["check-config", file.path])
            XCTAssertEqual(check.status, 0, "\(file.path): \(check.stderr)")
            XCTAssertTrue(check.stdout.hasPrefix("# Effective configuration (\(file.path)): valid.\n"), check.stdout)
        }
    }
}
