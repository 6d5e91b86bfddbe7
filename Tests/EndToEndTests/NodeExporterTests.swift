import Foundation
import Glibc
import Metrics
import TestSupport
import XCTest

/// The daemon's metrics file as a fleet's monitoring reads it: a real gpsd (gpsfake) feeds fixes
/// with satellites and error estimates, the daemon writes its textfile, Debian's node_exporter
/// reads it through a link (as the package's tmpfiles.d entry makes one) and is scraped over HTTP.
final class NodeExporterTests: XCTestCase {
    static let exporter = "/usr/bin/prometheus-node-exporter"
    static let promtool = "/usr/bin/promtool"

    /// Every family the daemon writes; node_exporter must pass each one on.
    static let families = [
        "pulsedot_build_info", "pulsedot_source_info", "pulsedot_start_time_seconds", "pulsedot_config_last_reload_successful",
        "pulsedot_config_last_reload_success_timestamp_seconds", "pulsedot_frames_drawn_total", "pulsedot_frames_presented_total",
        "pulsedot_frame_duration_seconds_bucket", "pulsedot_frame_duration_seconds_sum", "pulsedot_frame_duration_seconds_count",
        "pulsedot_display_wait_seconds_total", "pulsedot_last_frame_timestamp_seconds", "pulsedot_display_state",
        "pulsedot_display_info", "pulsedot_fix_state", "pulsedot_last_fix_timestamp_seconds", "pulsedot_horizontal_error_meters",
        "pulsedot_satellites_used", "pulsedot_gpsd_state", "pulsedot_gpsd_reconnects_total", "pulsedot_skipped_lines_total", "pulsedot_reloads_total",
        "pulsedot_map_tiles_decoded_total", "pulsedot_map_tiles_failed_total", "pulsedot_map_tile_cache_tiles",
        "pulsedot_map_tile_cache_capacity_tiles", "pulsedot_map_tile_cache_bytes",
    ]

    /// One fix a second with the sentences that give gpsd satellites (GSA, GSV) and an error
    /// estimate (GST); `used` satellites in the fix.
    static func feed(seconds: Int, used: Int) -> String {
        var lines: [String] = []
        let prns = (1...12).map { String(format: "%02d", $0 * 2) }
        for s in 0..<seconds {
            let t = NMEAWriter.time(10 * 3600 + s)
            let (la, _) = NMEAWriter.coordinate(45.5 + Double(s) * 1e-5, width: 2, positive: "N", negative: "S")
            let (lo, _) = NMEAWriter.coordinate(-73.5667, width: 3, positive: "E", negative: "W")
            lines.append(NMEAWriter.sentence("GPGGA,\(t),\(la),\(lo),1,\(String(format: "%02d", used)),0.9,50.0,M,0.0,M,,"))
            let inFix = prns.prefix(used) + Array(repeating: "", count: 12 - used)
            lines.append(NMEAWriter.sentence("GPGSA,A,3,\(inFix.joined(separator: ",")),1.6,0.9,1.3"))
            for page in 0..<3 {
                let sats = prns[(page * 4)..<(page * 4 + 4)].map { "\($0),\(30 + Int($0)!),\(Int($0)! * 25 % 360),40" }
                lines.append(NMEAWriter.sentence("GPGSV,3,\(page + 1),12,\(sats.joined(separator: ","))"))
            }
            lines.append(NMEAWriter.sentence("GPGST,\(t),1.2,3.1,2.0,45.0,2.5,2.0,4.0"))
            lines.append(NMEAWriter.sentence("GPRMC,\(t),A,\(la),\(lo),5.0,0.0,150624,,,A"))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    func testNodeExporterExportsEveryMetricWithoutAScrapeError() throws {
        try GPSFake.requireInstalled()
        for tool in [Self.exporter, Self.promtool] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw TestFailure("\(tool) missing: deploy/install-deps --test installs prometheus-node-exporter and prometheus")
        }
        let dir = try TestEnvironment.temporaryDirectory("node-exporter")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run"), collected = dir.appendingPathComponent("textfile")
        for d in [run, collected] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        let textfile = run.appendingPathComponent("metrics.prom").path
        // What the package's tmpfiles.d line makes, pointed at this test's folder.
        try FileManager.default.createSymbolicLink(atPath: collected.appendingPathComponent("pulsedot.prom").path,
                                                   withDestinationPath: textfile)
        let nmea = dir.appendingPathComponent("sky.nmea")
        try Self.feed(seconds: 30, used: 9).write(to: nmea, atomically: true, encoding: .utf8)
        let gpsdPort = try TestEnvironment.freeTCPPort()
        // A tiled map, so the tile cache's metrics are written too.
        let map = dir.appendingPathComponent("map.mbtiles").path
        try SmallTileMap.write(to: map)
        let config = """
            [source]
            gpsd = 127.0.0.1:\(gpsdPort)
            [display]
            output = none
            mode = 320x240
            fps = 20
            [map]
            tiles = \(map)
            [metrics]
            textfile = \(textfile)
            every = 1
            [log]
            level = debug

            """
        let daemon = try RunningDaemon(config: config, in: dir)
        let gpsfake = try GPSFake.listening(log: nmea, port: gpsdPort, once: false, pace: 0.05, pipe: false)
        defer { gpsfake.stop() }
        try daemon.waitForLog("first fix")

        // One reload taken, one refused.
        try daemon.rewrite(config + "[dot]\nannotationColor = #FF3B30\n")
        let beforeGoodReload = Date().timeIntervalSince1970
        daemon.child.signal(SIGHUP)
        try daemon.waitForLog("configuration reloaded")
        let afterGoodReload = Date().timeIntervalSince1970
        try daemon.rewrite(config + "[dot]\nannotationColor = red\n")
        daemon.child.signal(SIGHUP)
        try daemon.waitForLog("reload rejected")

        // gpsd's first SKY can say no satellite is used yet (uSat 0) and its first TPVs carry no
        // error estimate: wait for a file written after both, not the first one.
        let written = try waitForFile(textfile, daemon: daemon) { m in
            m.value("pulsedot_satellites_used") == 9 && m.value("pulsedot_horizontal_error_meters") != nil
                && m.value("pulsedot_reloads_total", ["result": "refused"]) == 1
        }
        let check = try runProgram("/bin/sh", ["-c", "\(Self.promtool) check metrics < \"$1\"", "sh", textfile])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertEqual(check.stdout + check.stderr, "", "promtool's linter has nothing to say:\n\(written)")

        let port = try TestEnvironment.freeTCPPort()
        let exporter = try ChildProcess(Self.exporter, [
            "--collector.disable-defaults", "--collector.textfile", "--collector.textfile.directory=" + collected.path,
            "--web.listen-address=127.0.0.1:\(port)",
        ], label: "node_exporter")
        defer { exporter.terminate() }
        var scraped = ""
        let up = ChildProcess.waitUntil(timeout: 20) {
            scraped = (try? Self.scrape(port: port)) ?? ""
            return scraped.contains("node_textfile_scrape_error") || !exporter.isRunning
        }
        XCTAssertTrue(up, "node_exporter never answered on 127.0.0.1:\(port): \(exporter.stderr)")
        let m = try MetricsSamples(parsing: scraped)
        XCTAssertEqual(m.value("node_textfile_scrape_error"), 0, exporter.stderr)
        for family in Self.families {
            XCTAssertNotNil(m.sample(family), "\(family) missing from the scrape:\n\(scraped)")
        }
        XCTAssertEqual(m.value("pulsedot_satellites_used"), 9, "from gpsd's SKY")
        XCTAssertEqual(m.current("pulsedot_fix_state", label: "state"), "live")
        XCTAssertEqual(m.current("pulsedot_display_state", label: "state"), "driving")
        XCTAssertEqual(m.sample("pulsedot_display_info")?.labels["mode"], "320x240")
        XCTAssertEqual(m.value("pulsedot_reloads_total", ["result": "good"]), 1)
        XCTAssertEqual(m.value("pulsedot_reloads_total", ["result": "refused"]), 1)
        XCTAssertEqual(m.value("pulsedot_config_last_reload_successful"), 0, "the last reload was the refused one")
        let taken = try XCTUnwrap(m.value("pulsedot_config_last_reload_success_timestamp_seconds"))
        XCTAssertTrue(taken >= beforeGoodReload - 0.01 && taken <= afterGoodReload + 0.01,
                      "the running configuration was taken by the good reload, between \(beforeGoodReload) and \(afterGoodReload), not at \(taken)")
        XCTAssertEqual(m.current("pulsedot_gpsd_state", label: "state"), "receiving", "gpsfake's receiver feeds gpsd")
        XCTAssertEqual(m.sample("pulsedot_source_info")?.labels["source"], "gpsd")
        XCTAssertEqual(m.sample("pulsedot_build_info")?.labels.keys.sorted(), ["version"])
        XCTAssertNil(m.sample("pulsedot_info"))
        XCTAssertGreaterThan(m.value("pulsedot_horizontal_error_meters") ?? 0, 0)
        XCTAssertGreaterThan(m.value("pulsedot_frames_presented_total") ?? 0, 20)
        let now = Date().timeIntervalSince1970
        XCTAssertEqual(m.value("pulsedot_last_frame_timestamp_seconds") ?? 0, now, accuracy: 5)
        XCTAssertEqual(m.value("pulsedot_last_fix_timestamp_seconds") ?? 0, now, accuracy: 5)
        XCTAssertEqual(m.value("node_textfile_mtime_seconds") ?? 0, now, accuracy: 5, "the collector stats the file behind the link")

        // What the screen alert's scrape-error clause relies on, asked of node_exporter itself:
        // another program's broken file raises the collector's error (no file label) while
        // PulseDot's file is still read and its mtime reported; a dangling link (the daemon
        // stopped, /run/pulsedot gone) raises the error and leaves PulseDot's mtime out.
        let pulsedotFile = collected.appendingPathComponent("pulsedot.prom").path
        let neighbour = collected.appendingPathComponent("neighbour.prom")
        try "this is not the text format\n".write(to: neighbour, atomically: true, encoding: .utf8)
        let withNeighbour = try MetricsSamples(parsing: try Self.scrape(port: port))
        XCTAssertEqual(withNeighbour.value("node_textfile_scrape_error"), 1)
        XCTAssertNotNil(withNeighbour.value("node_textfile_mtime_seconds", ["file": pulsedotFile]),
                        "PulseDot's file is still read beside a broken one")
        XCTAssertNotNil(withNeighbour.sample("pulsedot_frames_presented_total"))
        try FileManager.default.removeItem(at: neighbour)

        let stop = daemon.stop()
        XCTAssertEqual(stop.status, 0, daemon.log)
        try FileManager.default.removeItem(atPath: textfile)
        let dangling = try MetricsSamples(parsing: try Self.scrape(port: port))
        XCTAssertEqual(dangling.value("node_textfile_scrape_error"), 1)
        XCTAssertNil(dangling.sample("node_textfile_mtime_seconds", ["file": pulsedotFile]), "no mtime for a link that dangles")
        XCTAssertNil(dangling.sample("pulsedot_frames_presented_total"))
    }

    /// Waits until the daemon's file parses and `condition` holds; returns its text.
    private func waitForFile(_ path: String, daemon: RunningDaemon, _ condition: (MetricsSamples) -> Bool) throws -> String {
        var text = ""
        let ok = ChildProcess.waitUntil(timeout: 30) {
            text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            guard let m = try? MetricsSamples(parsing: text) else { return !daemon.isRunning }
            return condition(m) || !daemon.isRunning
        }
        guard ok, let m = try? MetricsSamples(parsing: text), condition(m) else {
            throw TestFailure("the metrics file never showed what was expected; it holds:\n\(text)\nlog:\n\(daemon.log)")
        }
        return text
    }

    static func scrape(port: UInt16) throws -> String {
        let r = try runProgram("/usr/bin/python3", ["-c", "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())",
                                                    "http://127.0.0.1:\(port)/metrics"], timeout: 10)
        guard r.status == 0 else { throw TestFailure("scrape failed: \(r.stderr)") }
        return r.stdout
    }
}
