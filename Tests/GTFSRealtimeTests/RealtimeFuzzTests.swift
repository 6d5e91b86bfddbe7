import Foundation
import TestSupport
import XCTest

/// Runs the libFuzzer target over the GTFS-realtime reader (deploy/fuzz/fuzz-realtime) as CI does:
/// any crash, failed invariant, leak or hang fails the test with libFuzzer's report. 30 s by
/// default, the reader being small and its seeds reaching every message type at once;
/// PULSEDOT_FUZZ_SECONDS changes the length.
final class RealtimeFuzzTests: XCTestCase {
    func testTheProtobufReaderSurvivesHalfAMinuteOfFuzzing() throws {
        if TestEnvironment.optedOut("fuzz") { return }
        let run = try FuzzRun(script: "fuzz-realtime", defaultSeconds: "30")
        XCTAssertEqual(run.status, 0, "deploy/fuzz/fuzz-realtime \(run.seconds) failed:\n\(run.report)")
        XCTAssertTrue(run.ranToTheEnd, "libFuzzer ran to its time limit:\n\(run.report)")
        XCTAssertFalse(run.leakReported, run.report)
        XCTAssertNotNil(run.executedUnits, run.report)
        print("fuzz-realtime: \(run.executedUnits ?? "?") in \(run.seconds) s")
    }
}
