import Foundation
import TestSupport
import XCTest

/// deploy/README.md indexes every script: each executable file under deploy/ is a row of its
/// table, or lies in a folder that is one (`package/debian/`, `embedded/arm/`), so a script added
/// without a line there, or moved without its line, fails here.
final class DeployIndexTests: XCTestCase {
    func testEveryScriptUnderDeployHasItsLineInTheIndex() throws {
        let deploy = TestEnvironment.packageRoot.appendingPathComponent("deploy")
        let readme = try String(contentsOf: deploy.appendingPathComponent("README.md"), encoding: .utf8)
        // The table's first cells: `path`, `path [--flag]`, or several paths in one cell; a bold
        // cell heads a concern's rows and indexes nothing itself.
        var indexed: [String] = []
        for line in readme.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| **") {
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            for part in cell.split(separator: "`", omittingEmptySubsequences: false).enumerated() where part.offset % 2 == 1 {
                indexed.append(String(part.element.split(separator: " ").first ?? ""))
            }
        }
        XCTAssertGreaterThan(indexed.count, 15, "the index table was not found in deploy/README.md")
        let walker = try XCTUnwrap(FileManager.default.enumerator(at: deploy, includingPropertiesForKeys: [.isRegularFileKey]))
        var scripts: [String] = []
        for case let url as URL in walker {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true,
                  FileManager.default.isExecutableFile(atPath: url.path) else { continue }
            scripts.append(String(url.path.dropFirst(deploy.path.count + 1)))
        }
        XCTAssertFalse(scripts.isEmpty)
        for script in scripts.sorted() {
            let listed = indexed.contains { entry in
                entry == script || (entry.hasSuffix("/") && script.hasPrefix(entry))
            }
            XCTAssertTrue(listed, "deploy/\(script) has no line in deploy/README.md's index (nor does a folder holding it)")
        }
    }

    /// deploy/test runs the suites that use the Embedded builds in the second process, beside the
    /// rest: one that used them from the main process would build the same architecture into the
    /// same folder at the same time (and, with build-embedded's lock, build it twice).
    func testEverySuiteUsingTheEmbeddedBuildsRunsBesideTheRest() throws {
        let root = TestEnvironment.packageRoot
        let script = try String(contentsOf: root.appendingPathComponent("deploy/test"), encoding: .utf8)
        let line = try XCTUnwrap(script.split(separator: "\n").first { $0.hasPrefix("beside=(") }, "no beside=(…) in deploy/test")
        let beside = Set(line.dropFirst("beside=(".count).prefix { $0 != ")" }.split(separator: " ").map(String.init))
        let folder = root.appendingPathComponent("Tests/EndToEndTests")
        var users: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            guard text.contains("EmbeddedBinaries.") else { continue }
            for declaration in text.split(separator: "\n") where declaration.hasPrefix("final class ") && declaration.contains("XCTestCase") {
                users.append(String(declaration.dropFirst("final class ".count).prefix { $0 != ":" && $0 != " " }))
            }
        }
        XCTAssertFalse(users.isEmpty, "no test class uses EmbeddedBinaries")
        for user in users.sorted() {
            XCTAssertTrue(beside.contains(user), "\(user) uses the Embedded builds but deploy/test runs it in the main process")
        }
    }
}
