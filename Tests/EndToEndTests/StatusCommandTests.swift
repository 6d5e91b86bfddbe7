import Foundation
import Glibc
import TestSupport
import XCTest

/// `pulsedot status` against a running daemon's metrics file, found through the configuration.
final class StatusCommandTests: XCTestCase {
    private func pulsedot(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), args, timeout: 30)
    }

    func testStatusSummarisesTheRunningDaemonsFile() throws {
        let dir = try TestEnvironment.temporaryDirectory("status")
        defer { try? FileManager.default.removeItem(at: dir) }
        let textfile = dir.appendingPathComponent("metrics.prom").path
        let config = """
            [source]
            position = 45.5017,-73.5673
            [display]
            output = none
            mode = 640x400
            fps = 20
            [metrics]
            textfile = \(textfile)
            every = 1

            """
        let daemon = try RunningDaemon(config: config, in: dir)
        let written = ChildProcess.waitUntil(timeout: 20) { FileManager.default.fileExists(atPath: textfile) || !daemon.isRunning }
        XCTAssertTrue(written, daemon.log)
        // A second write, after frames have been presented.
        _ = ChildProcess.waitUntil(timeout: 5) { false }
        let run = try pulsedot(["status", "--config", daemon.configPath])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "pulsedot 0.1.0: \(textfile), written " + (lines.first?.components(separatedBy: "written ").last ?? ""), run.stdout)
        XCTAssertFalse(run.stdout.contains("WARNING"), run.stdout)
        XCTAssertTrue(lines.contains("display  driving: none 640x400 (640x400, output none)"), run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("fix      live, last ") }, run.stdout)
        XCTAssertTrue(lines.contains("source   position: 0 reconnects, 0 skipped lines"), run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("work     p50 ≤ ") }, run.stdout)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)

        // Stopped: the file stays behind and grows old, and status says so.
        _ = ChildProcess.waitUntil(timeout: 4.5) { false }
        let after = try pulsedot(["status", "--config", daemon.configPath])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stdout.hasPrefix("WARNING: the file is "), after.stdout)
        XCTAssertTrue(after.stdout.contains("the daemon is not running or is stuck"), after.stdout)
    }

    func testNoFileIsOneLineAndExitOne() throws {
        let missing = try pulsedot(["status", "--set", "metrics.textfile=/nonexistent/pulsedot.prom"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertEqual(missing.stderr, "pulsedot: status: stat /nonexistent/pulsedot.prom: No such file or directory (errno 2) (is the daemon running? systemctl status pulsedot)\n")
        let none = try pulsedot(["status", "--set", "metrics.textfile=none"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.hasPrefix("pulsedot: status: [metrics] textfile = none"), none.stderr)
        let bad = try pulsedot(["status", "--set", "metrics.every=0"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "pulsedot: status: --set metrics.every = 0: out of range (1 ≤ value ≤ 3600, in seconds)\n")
    }
}
