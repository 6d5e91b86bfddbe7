import Foundation
import TestSupport
import XCTest

/// The alert rules a fleet's Prometheus loads (deploy/package/prometheus/pulsedot.rules.yml, the same
/// text docs/operations.md shows operators), checked by Prometheus's own tool: `promtool check
/// rules` for the syntax, `promtool test rules` with the scenarios committed beside them for when
/// each one fires — and, so those scenarios cannot pass whatever the rules say, each clause they
/// rely on taken out in turn must make them fail.
final class AlertRulesTests: XCTestCase {
    private static let folder = TestEnvironment.packageRoot.appendingPathComponent("deploy/package/prometheus")
    private static let rulesFile = folder.appendingPathComponent("pulsedot.rules.yml")
    private static let scenariosFile = folder.appendingPathComponent("pulsedot.rules.test.yml")

    private func promtool(_ arguments: [String]) throws -> (status: Int32, output: String) {
        guard FileManager.default.isExecutableFile(atPath: NodeExporterTests.promtool) else {
            throw TestFailure("\(NodeExporterTests.promtool) missing: deploy/install-deps --test installs Debian's prometheus package")
        }
        let r = try runProgram(NodeExporterTests.promtool, arguments)
        return (r.status, r.stdout + r.stderr)
    }

    private func rules() throws -> String { try String(contentsOf: Self.rulesFile, encoding: .utf8) }

    func testTheOperationsGuideShowsTheShippedRules() throws {
        let doc = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("docs/operations.md"), encoding: .utf8)
        guard let begin = doc.range(of: "<!-- rules:begin -->\n```yaml\n"), let end = doc.range(of: "```\n<!-- rules:end -->"),
              begin.upperBound < end.lowerBound else {
            throw TestFailure("docs/operations.md has no ```yaml block between <!-- rules:begin --> and <!-- rules:end -->")
        }
        XCTAssertEqual(String(doc[begin.upperBound..<end.lowerBound]), try rules(),
                       "docs/operations.md must show deploy/package/prometheus/pulsedot.rules.yml as it is")
    }

    func testTheRulesPassPromtoolsCheck() throws {
        let r = try promtool(["check", "rules", Self.rulesFile.path])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("SUCCESS: 2 rules found"), r.output)
    }

    /// Firing for a frozen, dead or stopped screen and not for a blanked one or a neighbour's
    /// broken file; no fix: silent while blanked, for a stop under 15 minutes and for a fixed
    /// kiosk, firing after 15 minutes and ten minutes after a night ends indoors.
    func testTheRulesFireForTheBoardsThatNeedSomeoneAndOnlyThose() throws {
        let r = try promtool(["test", "rules", Self.scenariosFile.path])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("SUCCESS"), r.output)
    }

    func testTheScenariosFailWithoutEachClauseTheyAreAbout() throws {
        let original = try rules()
        let mutations: [(why: String, from: String, to: String)] = [
            ("no fix while blanked", "\n            unless on(instance) pulsedot_display_state{state=\"blanked\"} == 1\n        for: 10m", "\n        for: 10m"),
            ("no fix at once instead of after ten more minutes", "for: 10m", "for: 2m"),
            ("no fix counted from the start for a daemon that never had one",
             "\n              and on(instance) time() - pulsedot_start_time_seconds > 300", ""),
            ("a fixed kiosk's old fix", "\n            unless on(instance) pulsedot_fix_state{state=\"live\"} == 1", ""),
            ("any collector's scrape error",
             "node_textfile_scrape_error == 1\n              unless on(instance) node_textfile_mtime_seconds{file=~\"(.*/)?pulsedot[.]prom\"}",
             "node_textfile_scrape_error == 1"),
            ("a screen blanked for the night", "\n              unless on(instance) pulsedot_display_state{state=\"blanked\"} == 1\n          )", "\n          )"),
        ]
        let dir = try TestEnvironment.temporaryDirectory("rules-mutated")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: Self.scenariosFile, to: dir.appendingPathComponent("pulsedot.rules.test.yml"))
        for mutation in mutations {
            XCTAssertEqual(original.components(separatedBy: mutation.from).count, 2, "'\(mutation.from)' must occur once in the rules")
            try original.replacingOccurrences(of: mutation.from, with: mutation.to)
                .write(to: dir.appendingPathComponent("pulsedot.rules.yml"), atomically: true, encoding: .utf8)
            let check = try promtool(["check", "rules", dir.appendingPathComponent("pulsedot.rules.yml").path])
            XCTAssertEqual(check.status, 0, "\(mutation.why): the changed rules must still be valid\n\(check.output)")
            let r = try promtool(["test", "rules", dir.appendingPathComponent("pulsedot.rules.test.yml").path])
            XCTAssertNotEqual(r.status, 0, "the scenarios pass without the clause for \(mutation.why)")
            XCTAssertTrue(r.output.contains("FAILED"), r.output)
        }
    }
}
