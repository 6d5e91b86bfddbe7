import Foundation
import Glibc
import TestSupport
import XCTest

/// The daemon's other sources, headless: a fixed position (a stop kiosk) and a replayed NMEA file.
final class RunSourceTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("run-source")
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func testFixedPositionIsDrawnAtTheCentreAndNeverGoesStale() throws {
        let frames = dir.appendingPathComponent("frames")
        let daemon = try RunningDaemon(config: """
            [source]
            position = 45.50845,-73.56857
            staleAfter = 0.5
            \(ConfigSnippet.pngDisplay(frames.path, mode: "800x480", fps: 30, pngFps: 10))
            [map]
            zoom = 18
            """, in: dir)
        // Well past staleAfter: a surveyed position stays live.
        let seen = try daemon.waitForFrames(in: frames, "frames over 2 s") { ($0.last?.t ?? 0) > 2 }
        XCTAssertGreaterThanOrEqual(seen.count, 10)
        for line in seen {
            XCTAssertEqual(line.state, "live", "\(line)")
            XCTAssertEqual(line.lat, 45.50845, "\(line)")
            XCTAssertEqual(line.lon, -73.56857, "\(line)")
            // The map is centred on the position: the dot is at the canvas centre (look.md: W/2, H/2).
            XCTAssertEqual(line.x, 400, "\(line)")
            XCTAssertEqual(line.y, 240, "\(line)")
            XCTAssertNil(line.heading)
            XCTAssertTrue(FileManager.default.fileExists(atPath: frames.appendingPathComponent(line.file).path), line.file)
        }
        // The frames are numbered in order, `t` grows at about pngFps.
        XCTAssertEqual(seen.map(\.file), (1...seen.count).map { String(format: "frame-%06d.png", $0) })
        for (a, b) in zip(seen, seen.dropFirst()) { XCTAssertGreaterThan(b.t, a.t) }
        // SIGUSR1: one extra frame in the sequence, with its line, said in the log.
        daemon.child.signal(SIGUSR1)
        let log = try daemon.waitForLog("<5>snapshot: \(frames.path)/frame-")
        let snapshot = try XCTUnwrap(log.split(separator: "\n").first { $0.contains("snapshot:") })
        let name = String(snapshot.split(separator: "/").last!)
        try daemon.waitForFrames(in: frames, "the snapshot's line") { $0.contains { $0.file == name } }
        XCTAssertTrue(FileManager.default.fileExists(atPath: frames.appendingPathComponent(name).path), name)
        XCTAssertTrue(daemon.log.contains("<6>fixed position 45.50845,-73.56857"), daemon.log)
        XCTAssertFalse(daemon.log.contains("stale look"), daemon.log)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }

    func testFramesThatCannotBeWrittenAreSaidOnceAndTheDaemonGoesOn() throws {
        let frames = dir.appendingPathComponent("frames")
        let daemon = try RunningDaemon(config: """
            [source]
            position = 45.5,-73.6
            \(ConfigSnippet.pngDisplay(frames.path, mode: "320x200", fps: 20, pngFps: 10))
            """, in: dir)
        try daemon.waitForFrames(in: frames, "a frame") { !$0.isEmpty }
        try FileManager.default.removeItem(at: frames)
        try daemon.waitForLog("frames are skipped until they can be written")
        usleep(1_000_000)
        XCTAssertEqual(daemon.log.components(separatedBy: "frames are skipped").count - 1, 1, "said once:\n\(daemon.log)")
        XCTAssertTrue(daemon.isRunning, daemon.log)
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: false)
        try daemon.waitForLog("<5>png:\(frames.path): writing frames again")
        let written = try FileManager.default.contentsOfDirectory(atPath: frames.path).filter { $0.hasPrefix("frame-") }
        XCTAssertFalse(written.isEmpty)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }

    func testReplayedNMEAFileGlidesAlongTheRouteThenGoesStale() throws {
        var drive = DriveNMEA.straight(from: 48.8566, 2.3522, count: 12, step: 0.0002)
        // A line the replay cannot use, counted and skipped.
        drive.noFix()
        let file = dir.appendingPathComponent("drive.nmea")
        try drive.write(to: file)
        try ("$GPGGA,bad checksum*00\r\n").appendLine(to: file)
        let frames = dir.appendingPathComponent("frames")
        let daemon = try RunningDaemon(config: """
            [source]
            replay = drive.nmea
            replaySpeed = 2
            staleAfter = 2
            \(ConfigSnippet.pngDisplay(frames.path, mode: "640x480", fps: 30, pngFps: 10))
            [map]
            center = \(drive.fixes[0].lat),\(drive.fixes[0].lon)
            zoom = 16
            [log]
            level = debug
            """, in: dir)
        // 12 fixes a second apart at 2× take about 6 s; then 2 s without a fix.
        let seen = try daemon.waitForFrames(in: frames, timeout: 30, "the stale look after the replay") {
            $0.contains { $0.state == "stale" }
        }
        let live = seen.filter { $0.state == "live" }
        XCTAssertGreaterThan(live.count, 20)
        let mercator = TestMercator(center: drive.fixes[0], zoom: 16, width: 640, height: 480)
        for line in live {
            let lat = try XCTUnwrap(line.lat), lon = try XCTUnwrap(line.lon)
            XCTAssertLessThan(drive.route.distance(lat: lat, lon: lon), 1e-9, "\(line) is off the route")
            let p = mercator.pixel(lat: lat, lon: lon)
            XCTAssertEqual(try XCTUnwrap(line.x), p.x, accuracy: 0.01, "\(line)")
            XCTAssertEqual(try XCTUnwrap(line.y), p.y, accuracy: 0.01, "\(line)")
        }
        // The glide is smooth: fixes arrive every 0.5 s about 12.6 px apart; frames 0.1 s apart
        // move the dot a fraction of that, never the whole way at once.
        let fixDistance = hypot(mercator.pixel(lat: drive.fixes[1].lat, lon: drive.fixes[1].lon).x - mercator.pixel(lat: drive.fixes[0].lat, lon: drive.fixes[0].lon).x,
                                mercator.pixel(lat: drive.fixes[1].lat, lon: drive.fixes[1].lon).y - mercator.pixel(lat: drive.fixes[0].lat, lon: drive.fixes[0].lon).y)
        for (a, b) in zip(live, live.dropFirst()) where b.t - a.t < 0.15 {
            XCTAssertLessThan(hypot(b.x! - a.x!, b.y! - a.y!), 0.6 * fixDistance, "a step between \(a) and \(b)")
        }
        // It reached the last fix and stays there, stale.
        let last = drive.fixes[drive.fixes.count - 1]
        let stale = try XCTUnwrap(seen.first { $0.state == "stale" })
        XCTAssertEqual(try XCTUnwrap(stale.lat), last.lat, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(stale.lon), last.lon, accuracy: 1e-12)
        let log = daemon.log
        XCTAssertTrue(log.contains("<6>replay \(file.path): NMEA, 12 fixes over "), log)
        XCTAssertTrue(log.contains("bad checksum"), log)
        XCTAssertTrue(log.contains("<5>replay \(file.path) ended"), log)
        XCTAssertEqual(daemon.stop().status, 0, log)
    }
}

extension String {
    func appendLine(to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(utf8))
    }
}
