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
        let python = FeedServer.python
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("kiosk_feeds.py").path
        let now = Int(Date().timeIntervalSince1970)
        let made = try runProgram(python, [script, "gtfs", "/work/shared/testdata/gtfs/fortaleza.zip", dir.path, String(now)], timeout: 120)
        XCTAssertEqual(made.status, 0, made.stderr)
        let plan = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        let server = try FeedServer()
        try Data(made.stdout.utf8).write(to: server.folder.appendingPathComponent("plan.json"))
        func feeds(phase: Int) throws {
            let run = try runProgram(python, [script, "feeds", server.folder.path, String(phase), String(Int(Date().timeIntervalSince1970))], timeout: 60)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        try feeds(phase: 0)

        let trip = plan["trip"] as! String, scheduled = plan["scheduled"] as! Int
        let stopPlace = plan["stopPlace"] as! [Double], stop3 = plan["stop3"] as! [Double], stop5 = plan["stop5"] as! [Double]
        let frames = dir.appendingPathComponent("frames")
        let daemon = try RunningDaemon(config: """
            [source]
            position = \(stopPlace[0]),\(stopPlace[1])
            \(ConfigSnippet.pngDisplay(frames.path, mode: "800x480", fps: 10, pngFps: 2))
            [map]
            zoom = 16
            [transit]
            gtfs = \(dir.appendingPathComponent("feed").path)
            cache = \(dir.appendingPathComponent("cache").path)
            language = pt
            [realtime]
            vehiclePositions = \(server.url("/files/vp.pb"))
            tripUpdates = \(server.url("/files/tu.pb"))
            alerts = \(server.url("/files/alerts.pb"))
            every = 5
            staleAfter = 12
            caFile = \(server.caFile)
            clock = trusted
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
        try feeds(phase: 1)
        _ = try waitForKiosk(frames, daemon, "V1 at stop 5") { k in
            guard let m = k.marker("V1"), let lat = m["lat"] as? Double, let lon = m["lon"] as? Double else { return false }
            return self.metres(stop5, lat, lon) < 40
        }
        let alongs = kioskFrames(frames).compactMap { $0.marker("V1")?["along"] as? Double }
        XCTAssertGreaterThan(alongs.count, 4)
        for (a, b) in zip(alongs, alongs.dropFirst()) { XCTAssertLessThanOrEqual(a, b + 1e-6, "V1 moved backwards: \(alongs)") }
        XCTAssertTrue(alongs.contains { $0 > alongs.first! && $0 < alongs.last! }, "V1 glided, not jumped: \(alongs)")

        // The server gone: within staleAfter (and a fetch), no live data; the board the timetable.
        server.stop()
        let gone = try waitForKiosk(frames, daemon, timeout: 60, "no live data") { $0.live == "unreachable" }
        XCTAssertFalse(gone.rows.contains { $0["live"] as? Bool == true }, "\(gone.rows)")
        XCTAssertEqual(gone.row(trip)?["time"] as? Int, scheduled, "the timetable's time, not the old prediction")
        try daemon.waitForLog("kiosk: no live data (feed unreachable): timetable times")

        // Back: live again, the late trip late again.
        try feeds(phase: 1)
        try server.start()
        _ = try waitForKiosk(frames, daemon, timeout: 60, "live again") { $0.live == "live" && $0.row(trip)?["time"] as? Int == scheduled + 120 }
        XCTAssertEqual(daemon.log.components(separatedBy: "kiosk: no live data (feed unreachable)").count - 1, 1, daemon.log)
        let exit = daemon.stop()
        XCTAssertEqual(exit.status, 0, daemon.log)
    }
}
