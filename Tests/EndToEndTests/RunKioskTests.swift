import Foundation
import Glibc
import TestSupport
import XCTest

/// A stop kiosk run whole: `pulsedot run` on Fortaleza's real feed moved to today, its
/// GTFS-realtime feeds made by Google's bindings (kiosk_feeds.py) and served over HTTPS by the
/// test server with its own CA; what the screen shows read from frames.jsonl.
final class RunKioskTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("kiosk")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
    }

    /// One frame's kiosk record.
    struct Kiosk {
        let t: Double
        let live: String
        let rows: [[String: Any]]
        let markers: [[String: Any]]
        let alerts: [String]

        func row(_ trip: String) -> [String: Any]? { rows.first { $0["trip"] as? String == trip } }
        func marker(_ vehicle: String) -> [String: Any]? { markers.first { $0["vehicle"] as? String == vehicle } }
    }

    func kioskFrames(_ folder: URL) -> [Kiosk] {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("frames.jsonl"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let k = o["kiosk"] as? [String: Any] else { return nil }
            return Kiosk(t: o["t"] as? Double ?? 0, live: k["live"] as? String ?? "", rows: k["rows"] as? [[String: Any]] ?? [],
                         markers: k["markers"] as? [[String: Any]] ?? [], alerts: k["alerts"] as? [String] ?? [])
        }
    }

    func waitForKiosk(_ folder: URL, _ daemon: RunningDaemon, timeout: Double = 40, _ what: String, _ condition: (Kiosk) -> Bool) throws -> Kiosk {
        var found: Kiosk?
        _ = ChildProcess.waitUntil(timeout: timeout) {
            found = self.kioskFrames(folder).last.flatMap { condition($0) ? $0 : nil }
            return found != nil || !daemon.isRunning
        }
        guard let found else {
            throw TestFailure("kiosk: \(what) not seen within \(timeout) s; last: \(kioskFrames(folder).last.map { "\($0.live) \($0.rows.count) rows \($0.markers)" } ?? "none"); log:\n\(daemon.log)")
        }
        return found
    }

    /// Metres between two places (equirectangular: a few hundred metres apart at most).
    func metres(_ a: [Double], _ lat: Double, _ lon: Double) -> Double {
        let k = 111_195.0
        let dy = (a[0] - lat) * k, dx = (a[1] - lon) * k * cos(lat * .pi / 180)
        return (dx * dx + dy * dy).squareRoot()
    }

    func testBoardVehiclesAndAlertsLiveThenNoLiveDataWhileTheServerIsGoneThenLiveAgain() throws {
        let world = try KioskWorld(in: dir)
        let plan = world.plan, server = world.server
        try world.phase(0)
        var producer = try world.produce()
        defer { producer.terminate() }

        let trip = plan["trip"] as! String, scheduled = plan["scheduled"] as! Int
        let stopPlace = plan["stopPlace"] as! [Double], stop3 = plan["stop3"] as! [Double], stop5 = plan["stop5"] as! [Double]
        let frames = dir.appendingPathComponent("frames")
        let daemon = try RunningDaemon(config: """
            [source]
            position = \(stopPlace[0]),\(stopPlace[1])
            \(ConfigSnippet.pngDisplay(frames.path, mode: "800x480", fps: 10, pngFps: 2))
            [map]
            zoom = 16
            [metrics]
            textfile = \(dir.appendingPathComponent("metrics.prom").path)
            every = 1
            \(world.transitSection(dir, "language = pt"))
            \(world.realtimeSection(["vehiclePositions": "/files/vp.pb", "tripUpdates": "/files/tu.pb", "alerts": "/files/alerts.pb"],
                                   "every = 5", "staleAfter = 12", "clock = trusted"))
            [kiosk]
            stop = \(plan["stop"] as! String)
            departures = 12
            within = 60
            """, in: dir)

        // Live: the late trip two minutes late at the stop (its delay at stop 3 carried on), the
        // next trip cancelled, the one after it not stopping, the NEW trip at its own time.
        let live = try waitForKiosk(frames, daemon, "live rows with the late trip") { $0.live == "live" && $0.row(trip)?["live"] as? Bool == true }
        let late = try XCTUnwrap(live.row(trip))
        XCTAssertEqual(late["time"] as? Int, scheduled + 120, "\(late)")
        let cancelled = try XCTUnwrap(live.row(plan["cancelled"] as! String), "\(live.rows)")
        XCTAssertEqual(cancelled["cancelled"] as? Bool, true)
        XCTAssertEqual(cancelled["time"] as? Int, plan["cancelledScheduled"] as? Int)
        let skipped = try XCTUnwrap(live.row(plan["skipped"] as! String), "\(live.rows)")
        XCTAssertEqual(skipped["skipped"] as? Bool, true)
        let added = try XCTUnwrap(live.row("KIOSK-NEW-1"), "\(live.rows)")
        XCTAssertEqual(added["time"] as? Int, plan["newTime"] as? Int)
        XCTAssertEqual(added["live"] as? Bool, true)
        let times = live.rows.compactMap { $0["time"] as? Int }
        XCTAssertEqual(times, times.sorted(), "soonest first")
        XCTAssertLessThanOrEqual(live.rows.count, 12)
        // The alert for this stop, in Portuguese; none of the three that do not apply.
        XCTAssertEqual(live.alerts, ["Parada 2662: embarque 50 m adiante"])

        // The bus on the late trip at its stop 3; the one past the stop is not shown.
        let atThree = try waitForKiosk(frames, daemon, "V1 at stop 3") { k in
            guard let m = k.marker("V1"), let lat = m["lat"] as? Double, let lon = m["lon"] as? Double else { return false }
            return self.metres(stop3, lat, lon) < 40
        }
        XCTAssertNil(atThree.marker("V2"), "a vehicle past the stop is no marker: \(atThree.markers)")
        XCTAssertEqual(atThree.marker("V1")?["old"] as? Bool, false)

        // It reports stop 5: the marker glides there along the line, never back.
        try world.phase(1)
        _ = try waitForKiosk(frames, daemon, "V1 at stop 5") { k in
            guard let m = k.marker("V1"), let lat = m["lat"] as? Double, let lon = m["lon"] as? Double else { return false }
            return self.metres(stop5, lat, lon) < 40
        }
        let alongs = kioskFrames(frames).compactMap { $0.marker("V1")?["along"] as? Double }
        XCTAssertGreaterThan(alongs.count, 4)
        for (a, b) in zip(alongs, alongs.dropFirst()) { XCTAssertLessThanOrEqual(a, b + 1e-6, "V1 moved backwards: \(alongs)") }
        XCTAssertTrue(alongs.contains { $0 > alongs.first! && $0 < alongs.last! }, "V1 glided, not jumped: \(alongs)")

        // The metrics say the same: live, the rows and the one vehicle shown, the fetches timed.
        let prom = dir.appendingPathComponent("metrics.prom")
        var metrics = ""
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 10) {
            metrics = (try? String(contentsOf: prom, encoding: .utf8)) ?? ""
            return metrics.contains("pulsedot_kiosk_vehicles_shown 1\n")
        }, metrics)
        XCTAssertTrue(metrics.contains("pulsedot_kiosk_live_data 1\n"), metrics)
        XCTAssertTrue(metrics.contains("pulsedot_kiosk_live_data_state{state=\"live\"} 1\n"), metrics)
        XCTAssertTrue(metrics.contains("pulsedot_realtime_fetch_duration_seconds{feed=\"tripUpdates\"}"), metrics)
        XCTAssertTrue(metrics.contains("pulsedot_realtime_feed_age_seconds{feed=\"vehiclePositions\"}"), metrics)
        XCTAssertTrue(metrics.contains("pulsedot_realtime_fetch_errors_total{kind=\"connect\"} 0\n"), metrics)
        // Prometheus's own tool takes the file (deploy/install-deps --test installs it).
        let check = try runProgram("/bin/sh", ["-c", "\(NodeExporterTests.promtool) check metrics < \(prom.path)"], timeout: 30)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)

        // A truncated TripUpdates feed: said once, the last good one kept, still live.
        producer.terminate()
        let tu = server.folder.appendingPathComponent("files/tu.pb")
        let good = try Data(contentsOf: tu)
        try good.prefix(good.count / 2).write(to: tu)
        try daemon.waitForLog("kiosk: tripUpdates: GTFS-realtime: ")
        XCTAssertEqual(kioskFrames(frames).last?.live, "live")
        XCTAssertTrue(daemon.log.contains("the last good feed is kept"), daemon.log)

        // The producer stopped, the server still answering: the feed's header ages past
        // staleAfter, so no live data, said with its age.
        let stale = try waitForKiosk(frames, daemon, timeout: 40, "a stale feed") { $0.live == "stale" }
        XCTAssertFalse(stale.rows.contains { $0["live"] as? Bool == true }, "\(stale.rows)")
        try daemon.waitForLog("kiosk: no live data (feed 1")
        producer = try world.produce()
        try daemon.waitForLog("kiosk: tripUpdates: fetched and read again")
        _ = try waitForKiosk(frames, daemon, "live after the producer is back") { $0.live == "live" }

        // The server gone: within staleAfter (and a fetch), no live data; the board the timetable.
        server.stop()
        let gone = try waitForKiosk(frames, daemon, timeout: 60, "no live data") { $0.live == "unreachable" }
        XCTAssertFalse(gone.rows.contains { $0["live"] as? Bool == true }, "\(gone.rows)")
        XCTAssertEqual(gone.row(trip)?["time"] as? Int, scheduled, "the timetable's time, not the old prediction")
        try daemon.waitForLog("kiosk: no live data (feed unreachable): timetable times")

        // Back: live again, the late trip late again.
        try server.start()
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 10) {
            metrics = (try? String(contentsOf: prom, encoding: .utf8)) ?? ""
            return metrics.contains("pulsedot_kiosk_live_data_state{state=\"unreachable\"} 1\n")
        }, metrics)
        XCTAssertFalse(metrics.contains("pulsedot_realtime_fetch_errors_total{kind=\"connect\"} 0\n"), metrics)
        // `pulsedot status` says it to the technician on site, first thing.
        let status = try runProgram(try TestEnvironment.pulsedotBinary(), ["status", "--config", daemon.configPath], timeout: 30)
        XCTAssertTrue(status.stdout.hasPrefix("WARNING: the kiosk's board shows the timetable, not live times (unreachable)"), status.stdout)
        XCTAssertTrue(status.stdout.contains("\nkiosk    no live data (unreachable): "), status.stdout)
        _ = try waitForKiosk(frames, daemon, timeout: 60, "live again") { $0.live == "live" && $0.row(trip)?["time"] as? Int == scheduled + 120 }
        XCTAssertEqual(daemon.log.components(separatedBy: "kiosk: no live data (feed unreachable)").count - 1, 1, daemon.log)
        let exit = daemon.stop()
        XCTAssertEqual(exit.status, 0, daemon.log)
    }

    /// Feeds that never come right — a gzip bomb, a redirect loop, a server that answers too
    /// slowly, a 500 — each said once, counted by kind, the board the timetable marked as such,
    /// and the loop drawing all along.
    func testFaultsAreSaidOnceCountedAndTheLoopDrawsOn() throws {
        let world = try KioskWorld(in: dir)
        let plan = world.plan
        let stopPlace = world.place("stopPlace")
        let frames = dir.appendingPathComponent("frames")
        let prom = dir.appendingPathComponent("metrics.prom")
        let daemon = try RunningDaemon(config: """
            [source]
            position = \(stopPlace[0]),\(stopPlace[1])
            \(ConfigSnippet.pngDisplay(frames.path, mode: "640x480", fps: 10, pngFps: 2))
            [metrics]
            textfile = \(prom.path)
            every = 1
            \(world.transitSection(dir))
            \(world.realtimeSection(["vehiclePositions": "/bomb", "tripUpdates": "/loop/a", "alerts": "/slow"],
                                   "every = 5", "timeout = 2", "clock = trusted"))
            [kiosk]
            stop = \(plan["stop"] as! String)
            """, in: dir)
        let seen = try waitForKiosk(frames, daemon, timeout: 60, "no live data, the feed unreachable") { $0.live == "unreachable" && !$0.rows.isEmpty }
        XCTAssertFalse(seen.rows.contains { $0["live"] as? Bool == true })
        XCTAssertTrue(seen.markers.isEmpty)
        var metrics = ""
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 40) {
            metrics = (try? String(contentsOf: prom, encoding: .utf8)) ?? ""
            return ["too_large", "protocol", "timeout"].allSatisfy { kind in
                !metrics.contains("pulsedot_realtime_fetch_errors_total{kind=\"\(kind)\"} 0\n") && metrics.contains("{kind=\"\(kind)\"}")
            } && metrics.contains("pulsedot_realtime_fetch_errors_total{kind=\"protocol\"} 2")
        }, metrics)
        // Each fault said once although each feed failed twice or more. (A loaded machine may see
        // a feed fail another way first — the huge body not started within a second is a stall —
        // and that other fault is said once too.)
        for said in ["kiosk: vehiclePositions: ", "kiosk: tripUpdates: ", "kiosk: alerts: "] {
            let lines = daemon.log.split(separator: "\n").filter { $0.contains(said) }
            XCTAssertFalse(lines.isEmpty, "\(said)\n\(daemon.log)")
            XCTAssertEqual(Set(lines).count, lines.count, "a fault said twice: \(said)\n\(daemon.log)")
        }
        XCTAssertTrue(daemon.log.contains("/bomb: body larger than the limit"), daemon.log)
        XCTAssertTrue(daemon.log.contains("redirect loop"), daemon.log)
        // Drawing all along: frames every half second of the run.
        let before = kioskFrames(frames).count
        Thread.sleep(forTimeInterval: 2)
        XCTAssertGreaterThanOrEqual(kioskFrames(frames).count, before + 3)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }
}
