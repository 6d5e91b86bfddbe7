import Daemon
import Foundation
import Glibc
import Metrics
import TestSupport
import XCTest

/// The metrics file as the loop writes it on virtual time: values move as the script makes them.
final class MetricsLoopTests: XCTestCase {
    private func config(_ file: String, every: Double = 1) -> String {
        RunLoopTests.base + "[metrics]\ntextfile = \(file)\nevery = \(every)\n"
    }

    private func read(_ path: String) throws -> MetricsSamples {
        try MetricsSamples(parsing: try String(contentsOfFile: path, encoding: .utf8))
    }

    func testValuesMoveAsTheScriptedRunExpects() throws {
        let dir = try TestEnvironment.temporaryDirectory("metrics-loop").path
        let first = dir + "/pulsedot.prom", second = dir + "/after-reload.prom"
        let h = try LoopHarness(config: config(first))
        let wall = LoopHarness.wallStart
        var at1: MetricsSamples?, at2: MetricsSamples?, at4: MetricsSamples?, at5: MetricsSamples?, at6: MetricsSamples?
        var firstWrites: [Double] = []
        h.waiting.at(0.05) {
            // Each frame's work takes 3 ms of virtual time.
            h.display?.onPresent = { h.waiting.spend(0.003) }
        }
        h.waiting.at(0.5) { h.source.deliver(error: 5, at: h.waiting.now()) }
        h.waiting.at(1.05) { at1 = try? self.read(first) }
        h.waiting.at(1.2) {
            h.source.gpsdHealth = .receiving
            h.source.satellitesUsed = 7
            h.source.skippedCount = 2
            h.source.reconnectCount = 1
        }
        h.waiting.at(2.05) { at2 = try? self.read(first) }
        // The panel stops completing flips: frames are still handed over, none reaches the screen.
        h.waiting.at(2.55) { h.display?.holdFlips = true }
        h.waiting.at(3.0) { h.source.gpsdHealth = .unreachable }
        h.waiting.at(4.05) { at4 = try? self.read(first) }
        h.waiting.at(4.5) { h.configText = self.config(second) }
        h.waiting.signal(SIGHUP, at: 4.5)
        h.waiting.at(5.0) { h.source.deliver(error: 12, at: h.waiting.now()) }
        h.waiting.at(5.4) { at5 = try? self.read(second) }
        h.waiting.at(5.5) { h.configText = self.config(second) + "[dot]\nscale = -1\n" }
        h.waiting.signal(SIGHUP, at: 5.5)
        h.waiting.at(6.05) {
            at6 = try? self.read(second)
            firstWrites.append(((try? FileManager.default.attributesOfItem(atPath: first)[.modificationDate]) as? Date)?.timeIntervalSince1970 ?? 0)
        }
        h.waiting.signal(SIGTERM, at: 6.2)
        XCTAssertEqual(try h.run(), 0)

        let m1 = try XCTUnwrap(at1, "no metrics file at 1 s: \(h.log)")
        XCTAssertNil(m1.sample("pulsedot_gpsd_state"), "a source that says nothing about gpsd has no gpsd state")
        XCTAssertEqual(m1.value("pulsedot_config_last_reload_successful"), 1, "the configuration read at start is taken")
        XCTAssertEqual(try XCTUnwrap(m1.value("pulsedot_config_last_reload_success_timestamp_seconds")), wall, accuracy: 1e-6)

        let m2 = try XCTUnwrap(at2, "no metrics file at 2 s: \(h.log)")
        XCTAssertEqual(m2.value("pulsedot_frames_presented_total"), 20, "frames at 0.1 … 2.0 s")
        XCTAssertEqual(try XCTUnwrap(m2.value("pulsedot_last_frame_timestamp_seconds")), wall + 2.003, accuracy: 1e-6)
        XCTAssertEqual(m2.current("pulsedot_display_state", label: "state"), "driving")
        XCTAssertEqual(m2.current("pulsedot_fix_state", label: "state"), "live")
        XCTAssertEqual(try XCTUnwrap(m2.value("pulsedot_last_fix_timestamp_seconds")), wall + 0.5, accuracy: 1e-6)
        XCTAssertEqual(m2.value("pulsedot_horizontal_error_meters"), 5)
        XCTAssertEqual(m2.value("pulsedot_satellites_used"), 7)
        XCTAssertEqual(m2.value("pulsedot_gpsd_reconnects_total"), 1)
        XCTAssertEqual(m2.value("pulsedot_skipped_lines_total"), 2)
        XCTAssertEqual(m2.value("pulsedot_reloads_total", ["result": "good"]), 0)
        XCTAssertEqual(try XCTUnwrap(m2.value("pulsedot_start_time_seconds")), wall, accuracy: 1e-6)
        // 3 ms of work per frame: every frame in the 5 ms bucket, none in the 2.5 ms one.
        XCTAssertEqual(m2.value("pulsedot_frame_duration_seconds_count"), 20)
        XCTAssertEqual(m2.value("pulsedot_frame_duration_seconds_bucket", ["le": "0.0025"]), 0)
        XCTAssertEqual(m2.value("pulsedot_frame_duration_seconds_bucket", ["le": "0.005"]), 20)
        XCTAssertEqual(try XCTUnwrap(m2.value("pulsedot_frame_duration_seconds_sum")), 0.06, accuracy: 1e-9)
        let info = try XCTUnwrap(m2.sample("pulsedot_display_info"))
        XCTAssertEqual(info.labels, ["output": "none", "display": "memory 320x240", "mode": "320x240"])
        XCTAssertEqual(m2.sample("pulsedot_source_info")?.labels, ["source": "gpsd"], "the kind of [source], nothing free-form")
        XCTAssertEqual(m2.sample("pulsedot_build_info")?.labels, ["version": PulseDotVersion.string])
        XCTAssertEqual(m2.current("pulsedot_gpsd_state", label: "state"), "receiving")
        XCTAssertEqual(m2.samples.filter { $0.name == "pulsedot_gpsd_state" }.map { $0.labels["state"] ?? "" },
                       ["unreachable", "no_receiver", "receiving"])

        let m4 = try XCTUnwrap(at4, h.log)
        XCTAssertEqual(m4.value("pulsedot_frames_presented_total"), 25, "counted from completions, not present calls")
        XCTAssertEqual(m4.value("pulsedot_frames_drawn_total"), 40)
        XCTAssertEqual(try XCTUnwrap(m4.value("pulsedot_last_frame_timestamp_seconds")), wall + 2.503, accuracy: 1e-6)
        XCTAssertEqual(m4.value("pulsedot_frame_duration_seconds_count"), 40, "frames are still drawn")
        XCTAssertEqual(m4.current("pulsedot_fix_state", label: "state"), "stale", "staleAfter 3 from the fix at 0.5 s")
        XCTAssertEqual(m4.current("pulsedot_gpsd_state", label: "state"), "unreachable")
        XCTAssertEqual(m4.value("pulsedot_gpsd_state", ["state": "receiving"]), 0)

        let m5 = try XCTUnwrap(at5, "the reload's new textfile was not written: \(h.log)")
        XCTAssertEqual(m5.value("pulsedot_config_last_reload_successful"), 1)
        XCTAssertEqual(try XCTUnwrap(m5.value("pulsedot_config_last_reload_success_timestamp_seconds")), wall + 4.5, accuracy: 1e-6)

        let m6 = try XCTUnwrap(at6, "the reload's new textfile was not written: \(h.log)")
        XCTAssertEqual(m6.value("pulsedot_reloads_total", ["result": "good"]), 1)
        XCTAssertEqual(m6.value("pulsedot_reloads_total", ["result": "refused"]), 1)
        XCTAssertEqual(m6.value("pulsedot_config_last_reload_successful"), 0, "the reload at 5.5 s was refused")
        XCTAssertEqual(try XCTUnwrap(m6.value("pulsedot_config_last_reload_success_timestamp_seconds")), wall + 4.5, accuracy: 1e-6,
                       "the configuration running is still the one taken at 4.5 s")
        XCTAssertEqual(m6.current("pulsedot_fix_state", label: "state"), "live")
        XCTAssertEqual(m6.value("pulsedot_horizontal_error_meters"), 12)
        XCTAssertEqual(try XCTUnwrap(m6.value("pulsedot_last_fix_timestamp_seconds")), wall + 5.0, accuracy: 1e-6)
        XCTAssertEqual(m6.value("pulsedot_frames_presented_total"), 25)

        let mode = try FileManager.default.attributesOfItem(atPath: second)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o644, "readable by node_exporter's user whatever the umask")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["after-reload.prom", "pulsedot.prom"],
                       "no temporary file left")
        XCTAssertTrue(h.logged("metrics:").isEmpty, h.log)
    }

    func testAFileThatCannotBeWrittenIsSaidOnceAndTheDaemonKeepsDrawing() throws {
        let dir = try TestEnvironment.temporaryDirectory("metrics-missing").path + "/not-there"
        let h = try LoopHarness(config: config(dir + "/pulsedot.prom"))
        h.waiting.at(3.05) { try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false) }
        h.waiting.signal(SIGTERM, at: 4.5)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.logged("metrics: cannot write \(dir)/pulsedot.prom").count, 1, h.log)
        XCTAssertEqual(h.logged("metrics: writing \(dir)/pulsedot.prom again"), [4], h.log)
        XCTAssertEqual(h.display?.presents, 45, "drawing never stopped")
        XCTAssertNotNil(try read(dir + "/pulsedot.prom").value("pulsedot_frames_presented_total"))
    }

    func testNoneWritesNothing() throws {
        let dir = try TestEnvironment.temporaryDirectory("metrics-none").path
        let h = try LoopHarness(config: RunLoopTests.base + "[metrics]\ntextfile = none\n")
        h.waiting.signal(SIGTERM, at: 2)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [])
        XCTAssertTrue(h.logged("metrics").isEmpty, h.log)
    }
}
