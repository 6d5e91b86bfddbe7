import Foundation
import TestSupport
import XCTest

/// Runs the libFuzzer target over the HTTP/1.1 response reader (deploy/fuzz/fuzz-http) as CI does:
/// any crash, failed invariant (whole and piecewise readings differ, an error of two lines), leak
/// or hang fails the test with libFuzzer's report. 20 s by default, the reader being small;
/// PULSEDOT_FUZZ_SECONDS changes the length.
final class HTTPFuzzTests: XCTestCase {
    func testTheResponseReaderSurvivesTwentySecondsOfFuzzing() throws {
        if TestEnvironment.optedOut("fuzz") { return }
        let run = try FuzzRun(script: "fuzz-http", defaultSeconds: "20")
        XCTAssertEqual(run.status, 0, "deploy/fuzz/fuzz-http \(run.seconds) failed:\n\(run.report)")
        XCTAssertTrue(run.ranToTheEnd, "libFuzzer ran to its time limit:\n\(run.report)")
        XCTAssertFalse(run.leakReported, run.report)
        XCTAssertNotNil(run.executedUnits, run.report)
        print("fuzz-http: \(run.executedUnits ?? "?") in \(run.seconds) s")
    }
}
