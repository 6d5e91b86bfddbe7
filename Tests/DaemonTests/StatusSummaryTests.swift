@testable import Daemon
import GPSD
import Metrics
import XCTest

/// `pulsedot status` reading what the daemon writes: the report rendered by the daemon's own
/// code, summarised line by line, so a renamed metric breaks here.
final class StatusSummaryTests: XCTestCase {
    private func report(_ change: (inout MetricsReport) -> Void = { _ in }) -> String {
        let h = FrameTimeHistogram()
        for _ in 0..<98 { h.observe(nanoseconds: 700_000) }
        for _ in 0..<2 { h.observe(nanoseconds: 3_000_000) }
        var r = MetricsReport(version: "0.1.0", startTime: 1_000, configReloadSuccessful: true, configTakenTime: 4_000,
                              framesDrawn: 102, framesPresented: 100, frameTimes: h,
                              displayWaitSeconds: 1.6, lastFrameTime: 4_599.9, displayState: .driving, output: "auto",
                              displayName: "/dev/dri/card0 (bochs) Virtual-1 1024x768@60", mode: "1024x768@60", fixState: "live",
                              lastFixTime: 4_599.5, horizontalError: 4.63, satellitesUsed: 9, sourceKind: "gpsd",
                              gpsdHealth: .receiving, gpsdReconnects: 2, skippedLines: 1, reloadsGood: 3, reloadsRefused: 1)
        change(&r)
        var text = MetricsText()
        r.render(into: &text)
        return text.text
    }

    func testAHealthyScreen() throws {
        let text = try StatusSummary.text(metrics: report(), path: "/run/pulsedot/metrics.prom", written: 4_600, now: 4_603, every: 10)
        XCTAssertEqual(text, """
            pulsedot 0.1.0: /run/pulsedot/metrics.prom, written 3 s ago
            display  driving: /dev/dri/card0 (bochs) Virtual-1 1024x768@60 (1024x768@60, output auto)
            frames   last on screen 0.1 s ago (as the file was written); 100 presented of 102 drawn
            work     p50 ≤ 1 ms, p99 ≤ 5 ms per frame (mean 0.75 ms); waiting for the display 16 ms per frame shown
            fix      live, last 0.5 s ago, ±4.6 m, 9 satellites used
            source   gpsd, receiving: 2 reconnects, 1 skipped lines
            reloads  3 taken, 1 refused
            up       1 h 0 min when the file was written

            """)
    }

    func testAKioskSaysItsFeedsAndWhenItHasNoLiveData() throws {
        func kiosk(_ live: String, errors: Int) -> String {
            report {
                $0.sourceKind = "position"
                $0.gpsdHealth = nil
                $0.kiosk = MetricsReport.KioskNumbers(live: live, departures: 6, vehicles: 3,
                                                     feeds: [("vehiclePositions", 0.012, 4.2), ("tripUpdates", 0.02, 75), ("alerts", nil, nil)],
                                                     errors: [("timeout", 0), ("connect", errors)])
            }
        }
        let live = try StatusSummary.text(metrics: kiosk("live", errors: 0), path: "m.prom", written: 4_600, now: 4_601, every: 10)
        XCTAssertTrue(live.contains("\nkiosk    live: 6 departures, 3 vehicles; vehiclePositions 4.2 s old (fetched in 12 ms); tripUpdates 1 min 15 s old (fetched in 20 ms)\n"), live)
        XCTAssertFalse(live.contains("WARNING: the kiosk"), live)
        let gone = try StatusSummary.text(metrics: kiosk("unreachable", errors: 4), path: "m.prom", written: 4_600, now: 4_601, every: 10)
        XCTAssertTrue(gone.contains("kiosk    no live data (unreachable): 6 departures, 3 vehicles;"), gone)
        XCTAssertTrue(gone.contains("; 4 failed fetches (connect)\n"), gone)
        XCTAssertTrue(gone.hasPrefix("WARNING: the kiosk's board shows the timetable, not live times (unreachable): the feed cannot be fetched (journalctl -u pulsedot says why)\n"), gone)
    }

    func testWhatIsWrongComesFirst() throws {
        let stale = report {
            $0.fixState = "stale"
            $0.lastFrameTime = 4_500
        }
        let text = try StatusSummary.text(metrics: stale, path: "m.prom", written: 4_600, now: 4_700, every: 10)
        let warnings = text.split(separator: "\n").prefix { $0.hasPrefix("WARNING: ") }
        XCTAssertEqual(warnings, [
            "WARNING: the file is 1 min 40 s old but is rewritten every 10 s: the daemon is not running or is stuck (systemctl status pulsedot)",
            "WARNING: no frame has reached the screen for 1 min 40 s while driving it",
            "WARNING: the dot does not show a live fix (stale): the receiver feeds gpsd but has no fix (the antenna and its view of the sky; gpspipe -w)",
        ])
    }

    /// A dead antenna, an unplugged receiver and a dead gpsd all leave the dot stale; gpsd's state
    /// says which one to go and look at.
    func testWithoutAFixGpsdsStateSaysWhereToLook() throws {
        func summary(_ health: GPSDHealth?, kind: String = "gpsd") throws -> [Substring] {
            let text = report {
                $0.fixState = "stale"
                $0.gpsdHealth = health
                $0.sourceKind = kind
            }
            return try StatusSummary.text(metrics: text, path: "m.prom", written: 4_600, now: 4_601, every: 10).split(separator: "\n")
        }
        let unreachable = try summary(.unreachable)
        XCTAssertEqual(unreachable.first, "WARNING: the dot does not show a live fix (stale): gpsd does not answer (systemctl status gpsd)")
        XCTAssertTrue(unreachable.contains("source   gpsd, unreachable: 2 reconnects, 1 skipped lines"), "\(unreachable)")
        let noReceiver = try summary(.noReceiver)
        XCTAssertEqual(noReceiver.first,
                       "WARNING: the dot does not show a live fix (stale): gpsd answers but no receiver feeds it (the receiver's cable and device; journalctl -u gpsd)")
        XCTAssertTrue(noReceiver.contains("source   gpsd, no receiver: 2 reconnects, 1 skipped lines"), "\(noReceiver)")
        let replay = try summary(nil, kind: "replay")
        XCTAssertEqual(replay.first, "WARNING: the dot does not show a live fix (stale): antenna, receiver, gpsd (gpspipe -w)")
        XCTAssertTrue(replay.contains("source   replay: 2 reconnects, 1 skipped lines"), "\(replay)")
    }

    func testARefusedReloadIsAWarning() throws {
        let refused = report { $0.configReloadSuccessful = false }
        let lines = try StatusSummary.text(metrics: refused, path: "m.prom", written: 4_600, now: 4_601, every: 10).split(separator: "\n")
        XCTAssertEqual(lines.first,
                       "WARNING: the last reload was refused: the configuration from before it still runs (journalctl -u pulsedot says why)")
    }

    /// The families and labels dashboards and alert rules use: labels only from small fixed sets,
    /// and gpsd's state only where the source is gpsd.
    func testTheReportsLabelsComeFromSmallFixedSets() throws {
        let m = try MetricsSamples(parsing: report())
        XCTAssertEqual(m.sample("pulsedot_build_info")?.labels, ["version": "0.1.0"])
        XCTAssertEqual(m.sample("pulsedot_source_info")?.labels, ["source": "gpsd"])
        XCTAssertNil(m.sample("pulsedot_info"), "the version and the configuration no longer share one series")
        XCTAssertEqual(m.samples.filter { $0.name == "pulsedot_gpsd_state" }.map { "\($0.labels["state"] ?? "")=\(Int($0.value))" },
                       ["unreachable=0", "no_receiver=0", "receiving=1"])
        XCTAssertEqual(m.value("pulsedot_config_last_reload_successful"), 1)
        XCTAssertEqual(m.value("pulsedot_config_last_reload_success_timestamp_seconds"), 4_000)
        let fixed = try MetricsSamples(parsing: report {
            $0.sourceKind = "position"
            $0.gpsdHealth = nil
            $0.configReloadSuccessful = false
        })
        XCTAssertNil(fixed.sample("pulsedot_gpsd_state"))
        XCTAssertEqual(fixed.sample("pulsedot_source_info")?.labels, ["source": "position"])
        XCTAssertEqual(fixed.value("pulsedot_config_last_reload_successful"), 0)
    }

    func testWaitingWithoutADisplayYetAndNoFix() throws {
        let waiting = report {
            $0.displayState = .waiting
            $0.displayName = nil
            $0.mode = nil
            $0.lastFrameTime = nil
            $0.lastFixTime = nil
            $0.horizontalError = nil
            $0.satellitesUsed = nil
            $0.fixState = "nofix"
        }
        let lines = try StatusSummary.text(metrics: waiting, path: "m.prom", written: 4_600, now: 4_600, every: 10).split(separator: "\n")
        XCTAssertTrue(lines.contains("display  waiting"), "\(lines)")
        XCTAssertTrue(lines.contains("frames   none on screen yet; 100 presented of 102 drawn"), "\(lines)")
        XCTAssertTrue(lines.contains("fix      nofix"), "\(lines)")
    }

    func testAFileThatIsNoMetricsFileIsRefused() {
        XCTAssertThrowsError(try StatusSummary.text(metrics: "<html>\n", path: "m.prom", written: 0, now: 0, every: 10)) {
            XCTAssertEqual("\($0)", "line 1: not a sample: <html>")
        }
    }
}
