import Foundation
import TestSupport
import XCTest

/// Runs the libFuzzer target over the CSV and zip readers (deploy/fuzz/fuzz-gtfs) for a minute, as CI
/// does: any crash, failed invariant, leak or hang fails the test with libFuzzer's report.
/// PULSEDOT_FUZZ_SECONDS changes the length; long runs are documented in deploy/fuzz/fuzz-gtfs.
final class GTFSFuzzTests: XCTestCase {
    func testCSVAndZipReadersSurviveAMinuteOfFuzzing() throws {
        if TestEnvironment.optedOut("fuzz") { return }
        let run = try FuzzRun(script: "fuzz-gtfs")
        XCTAssertEqual(run.status, 0, "deploy/fuzz/fuzz-gtfs \(run.seconds) failed:\n\(run.report)")
        XCTAssertTrue(run.ranToTheEnd, "libFuzzer ran to its time limit:\n\(run.report)")
        XCTAssertFalse(run.leakReported, run.report)
        XCTAssertNotNil(run.executedUnits, run.report)
        print("fuzz-gtfs: \(run.executedUnits ?? "?") in \(run.seconds) s")
    }
}
