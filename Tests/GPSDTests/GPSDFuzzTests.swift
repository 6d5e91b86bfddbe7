import Foundation
import TestSupport
import XCTest

/// Runs the libFuzzer target over the framer and decoder (deploy/fuzz/fuzz-gpsd) for a minute, as CI
/// does: any crash, failed invariant, leak or hang fails the test with libFuzzer's report.
/// PULSEDOT_FUZZ_SECONDS changes the length; long runs are documented in deploy/fuzz/fuzz-gpsd.
final class GPSDFuzzTests: XCTestCase {
    func testFramerAndDecoderSurviveAMinuteOfFuzzing() throws {
        if TestEnvironment.optedOut("fuzz") { return }
        let run = try FuzzRun(script: "fuzz-gpsd")
        XCTAssertEqual(run.status, 0, "deploy/fuzz/fuzz-gpsd \(run.seconds) failed:\n\(run.report)")
        XCTAssertTrue(run.ranToTheEnd, "libFuzzer ran to its time limit:\n\(run.report)")
        XCTAssertFalse(run.leakReported, run.report)
        XCTAssertNotNil(run.executedUnits, run.report)
        print("fuzz-gpsd: \(run.executedUnits ?? "?") in \(run.seconds) s")
    }
}
