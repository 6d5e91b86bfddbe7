import Foundation
import TestSupport
import XCTest

/// Runs the libFuzzer target over the CSV and zip readers (deploy/fuzz-gtfs) for a minute, as CI
/// does: any crash, failed invariant, leak or hang fails the test with libFuzzer's report.
/// PULSEDOT_FUZZ_SECONDS changes the length; long runs are documented in deploy/fuzz-gtfs.
final class GTFSFuzzTests: XCTestCase {
    func testCSVAndZipReadersSurviveAMinuteOfFuzzing() throws {
        if TestEnvironment.optedOut("fuzz") { return }
        let seconds = ProcessInfo.processInfo.environment["PULSEDOT_FUZZ_SECONDS"] ?? "60"
        let script = TestEnvironment.packageRoot.appendingPathComponent("deploy/fuzz-gtfs").path
        let result = try runProgram(script, [seconds], timeout: 900)
        let report = result.stderr.split(separator: "\n").suffix(40).joined(separator: "\n")
        XCTAssertEqual(result.status, 0, "deploy/fuzz-gtfs \(seconds) failed:\n\(report)")
        XCTAssertTrue(result.stderr.contains("Done "), "libFuzzer ran to its time limit:\n\(report)")
        XCTAssertFalse(result.stderr.contains("LeakSanitizer"), report)
        let runs = result.stderr.split(separator: "\n").first { $0.hasPrefix("stat::number_of_executed_units:") }
        XCTAssertNotNil(runs, report)
        print("fuzz-gtfs: \(runs ?? "?") in \(seconds) s")
    }
}
