import Foundation
import Metrics
import TestSupport
import XCTest

/// `pulsedot_gpsd_state` from the real daemon against a real gpsd, through the three situations a
/// dashboard must tell apart when the dot goes stale: no gpsd at all, a gpsd without a receiver,
/// and a receiver feeding gpsd.
final class GPSDStateMetricsTests: XCTestCase {
    func testTheMetricsTellADeadGpsdFromAMissingReceiverFromAReceivingOne() throws {
        try GPSFake.requireInstalled()
        let dir = try TestEnvironment.temporaryDirectory("gpsd-state")
        defer { try? FileManager.default.removeItem(at: dir) }
        let textfile = dir.appendingPathComponent("metrics.prom").path
        let port = try TestEnvironment.freeTCPPort()
        let daemon = try RunningDaemon(config: """
            [source]
            gpsd = 127.0.0.1:\(port)
            [display]
            output = none
            mode = 320x240
            fps = 10
            [metrics]
            textfile = \(textfile)
            every = 1

            """, in: dir)

        var m = try waitForFile(textfile, daemon: daemon, "gpsd unreachable") { $0.current("pulsedot_gpsd_state", label: "state") == "unreachable" }
        XCTAssertEqual(m.sample("pulsedot_source_info")?.labels, ["source": "gpsd"])
        XCTAssertEqual(m.samples.filter { $0.name == "pulsedot_gpsd_state" }.count, 3)

        // gpsd up with no device: it answers, and says it has no receiver.
        let gpsd = try ChildProcess("/usr/sbin/gpsd", ["-N", "-S", String(port), "-F", dir.appendingPathComponent("control.sock").path],
                                    label: "gpsd")
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 15) { GPSFake.accepts(port: port) }, gpsd.stderr)
        m = try waitForFile(textfile, daemon: daemon, "gpsd without a receiver") { $0.current("pulsedot_gpsd_state", label: "state") == "no_receiver" }
        XCTAssertEqual(m.current("pulsedot_fix_state", label: "state"), "nofix")
        gpsd.terminate()
        _ = try waitForFile(textfile, daemon: daemon, "gpsd gone again") { $0.current("pulsedot_gpsd_state", label: "state") == "unreachable" }

        // A receiver feeding gpsd.
        let nmea = dir.appendingPathComponent("sky.nmea")
        try NodeExporterTests.feed(seconds: 30, used: 7).write(to: nmea, atomically: true, encoding: .utf8)
        let gpsfake = try GPSFake.listening(log: nmea, port: port, once: false, pace: 0.05, pipe: false)
        defer { gpsfake.stop() }
        m = try waitForFile(textfile, daemon: daemon, "a receiver feeding gpsd", timeout: 60) {
            $0.current("pulsedot_gpsd_state", label: "state") == "receiving" && $0.current("pulsedot_fix_state", label: "state") == "live"
        }
        XCTAssertEqual(m.value("pulsedot_gpsd_state", ["state": "unreachable"]), 0)
        XCTAssertEqual(m.value("pulsedot_gpsd_state", ["state": "no_receiver"]), 0)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }

    private func waitForFile(_ path: String, daemon: RunningDaemon, _ what: String, timeout: Double = 30,
                             _ condition: (MetricsSamples) -> Bool) throws -> MetricsSamples {
        var text = ""
        _ = ChildProcess.waitUntil(timeout: timeout) {
            text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return (try? MetricsSamples(parsing: text)).map(condition) == true || !daemon.isRunning
        }
        guard let m = try? MetricsSamples(parsing: text), condition(m) else {
            throw TestFailure("the metrics file never showed \(what); it holds:\n\(text)\nlog:\n\(daemon.log)")
        }
        return m
    }
}
