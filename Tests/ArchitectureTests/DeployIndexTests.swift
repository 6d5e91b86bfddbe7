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
}
