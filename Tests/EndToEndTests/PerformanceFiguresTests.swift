import Foundation
import TestSupport
import XCTest

/// BENCHMARKS.md's tables of figures are printed by `deploy/bench/bench-figures --table NAME` from
/// one record (deploy/bench/figures.tsv), so a configuration has one figure wherever it is shown.
final class PerformanceFiguresTests: XCTestCase {
    private var root: URL { TestEnvironment.packageRoot }

    private func script(_ args: [String]) throws -> String {
        let run = try runProgram("/bin/bash", [root.appendingPathComponent("deploy/bench/bench-figures").path] + args)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.isEmpty, run.stderr)
        return run.stdout
    }

    /// Every table between `bench-figures table NAME` markers equals the script's output, and the
    /// three tables the document is built on are there.
    func testEveryFiguresTableIsTheScriptsOutput() throws {
        let doc = try String(contentsOfFile: root.appendingPathComponent("BENCHMARKS.md").path, encoding: .utf8)
        let open = "<!-- bench-figures table "
        var found: [String] = []
        var rest = doc[...]
        while let b = rest.range(of: open) {
            guard let close = rest.range(of: " -->\n", range: b.upperBound..<rest.endIndex) else { return XCTFail("an unclosed marker") }
            let name = String(rest[b.upperBound..<close.lowerBound].prefix { $0 != ":" })
            let endMarker = "<!-- end of bench-figures table \(name) -->"
            guard let e = rest.range(of: endMarker, range: close.upperBound..<rest.endIndex) else {
                return XCTFail("table \(name) has no \(endMarker)")
            }
            XCTAssertEqual(String(rest[close.upperBound..<e.lowerBound]), try script(["--table", name]),
                           "run deploy/bench/bench-figures --write")
            found.append(name)
            rest = rest[e.upperBound...]
        }
        XCTAssertEqual(Set(found), ["latest", "planes", "route", "ratios", "kiosk"], "BENCHMARKS.md's figures tables")
        XCTAssertEqual(found.count, Set(found).count, "a table printed twice: point to it instead")
    }

    /// A configuration the CI guard also counts (same N, same arguments, same method) has the
    /// guard's recorded figure: recording one without the other would show two figures for it.
    func testRowsSharedWithTheGuardHaveTheGuardsFigure() throws {
        func rows(_ path: String) throws -> [[String]] {
            try String(contentsOfFile: root.appendingPathComponent(path).path, encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }
                .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        }
        var guardFigure: [String: String] = [:]
        for f in try rows("deploy/bench/bench-budgets.tsv") where f.count == 5 { guardFigure["\(f[1]) \(f[4])"] = f[2] }
        var shared = 0
        for f in try rows("deploy/bench/figures.tsv") {
            XCTAssertEqual(f.count, 11, f.joined(separator: " "))
            guard f.count == 11 else { continue }
            XCTAssertGreaterThan(Int(f[3]) ?? 0, 0, "\(f[0]): no x86-64 figure recorded")
            if let figure = guardFigure["\(f[2]) \(f[10])"] {
                XCTAssertEqual(f[3], figure, "\(f[0]): figures.tsv and bench-budgets.tsv disagree; record both (bench-figures --record, bench-guard --record)")
                shared += 1
            }
        }
        XCTAssertGreaterThanOrEqual(shared, 5, "the record shares no rows with the guard")
    }
}
