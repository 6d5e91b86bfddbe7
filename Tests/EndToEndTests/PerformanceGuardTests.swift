import Foundation
import TestSupport
import XCTest

/// The performance guard: `deploy/bench/bench-guard` counts the benchmark's frame step under callgrind
/// for every row of deploy/bench/bench-budgets.tsv (deterministic instruction counts, never wall time)
/// and fails a row past its ceiling, so a regression in the frame path fails CI.
final class PerformanceGuardTests: XCTestCase {
    private var script: String { TestEnvironment.packageRoot.appendingPathComponent("deploy/bench/bench-guard").path }

    private func guardRun(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let binary = try TestEnvironment.pulsedotBinary()
        guard FileManager.default.fileExists(atPath: "/usr/bin/valgrind") else {
            throw TestFailure("valgrind is not installed: deploy/install-deps --test installs it")
        }
        return try runProgram("/bin/bash", [script] + args, environment: ["PULSEDOT_BIN": binary], timeout: 900)
    }

    /// Every budget row within its ceiling, counted under the recorded memcpy.
    func testEveryRowStaysUnderItsCeiling() throws {
        let run = try guardRun([])
        print(run.stdout)
        XCTAssertEqual(run.status, 0, "bench-guard:\n\(run.stdout)\(run.stderr)")
        let rows = run.stdout.split(separator: "\n").dropFirst()
        XCTAssertGreaterThanOrEqual(rows.count, 14, run.stdout)
        for row in rows { XCTAssertTrue(row.hasSuffix("  ok"), String(row)) }
    }

    /// A ceiling below what the frame step costs fails the guard, naming the row: the guard is
    /// not a check that cannot fail.
    func testARowPastItsCeilingFails() throws {
        let budgets = try String(contentsOfFile: TestEnvironment.packageRoot.appendingPathComponent("deploy/bench/bench-budgets.tsv").path, encoding: .utf8)
        var lowered: [String] = []
        for line in budgets.split(separator: "\n", omittingEmptySubsequences: false) {
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.first == "copy-rgb565", fields.count == 5, let measured = Int(fields[2]) {
                fields[3] = String(measured * 9 / 10)
            }
            lowered.append(fields.joined(separator: "\t"))
        }
        let dir = try TestEnvironment.temporaryDirectory("guard")
        let file = dir.appendingPathComponent("budgets.tsv")
        try lowered.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let run = try guardRun(["--budgets", file.path, "--only", "copy-rgb565"])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("copy-rgb565") && run.stdout.contains("past the ceiling"), run.stdout)
    }

    /// The budgets file holds one figure per row, and its ceiling is that figure + 2 %.
    func testEveryCeilingIsItsFigurePlusTwoPercent() throws {
        let budgets = try String(contentsOfFile: TestEnvironment.packageRoot.appendingPathComponent("deploy/bench/bench-budgets.tsv").path, encoding: .utf8)
        var names = Set<String>()
        for line in budgets.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t").map(String.init)
            XCTAssertEqual(f.count, 5, String(line))
            guard f.count == 5, let measured = Int(f[2]), let ceiling = Int(f[3]) else { continue }
            XCTAssertEqual(ceiling, (measured * 102 + 99) / 100, f[0])
            XCTAssertTrue(names.insert(f[0]).inserted, "row \(f[0]) twice")
        }
    }
}

/// BENCHMARKS.md's guard table is the budgets file's, written by the script: one figure per row,
/// in one place.
final class PerformanceGuardTableTests: XCTestCase {
    func testBenchmarksShowsTheBudgetsAsTheScriptWritesThem() throws {
        let root = TestEnvironment.packageRoot
        let run = try runProgram("/bin/bash", [root.appendingPathComponent("deploy/bench/bench-guard").path, "--table"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let doc = try String(contentsOfFile: root.appendingPathComponent("BENCHMARKS.md").path, encoding: .utf8)
        let begin = "<!-- bench-guard table: written by `deploy/bench/bench-guard --table`; a test keeps it equal -->\n"
        let end = "<!-- end of bench-guard table -->"
        guard let b = doc.range(of: begin), let e = doc.range(of: end, range: b.upperBound..<doc.endIndex) else {
            return XCTFail("BENCHMARKS.md has no bench-guard table between its markers")
        }
        XCTAssertEqual(String(doc[b.upperBound..<e.lowerBound]), run.stdout, "run deploy/bench/bench-guard --table and paste it into BENCHMARKS.md")
    }
}
