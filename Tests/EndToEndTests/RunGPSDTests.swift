import Foundation
import Glibc
import TestSupport
import XCTest

/// The whole daemon, headless (`png:`), fed by a real gpsd (gpsfake on a free loopback port)
/// replaying NMEA the test generated: what the frames say they show must be the projected fixes.
final class RunGPSDTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        try GPSFake.requireInstalled()
        dir = try TestEnvironment.temporaryDirectory("run-gpsd")
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private func config(port: UInt16, center: (lat: Double, lon: Double), staleAfter: Double, frames: URL) -> String {
        """
        [source]
        gpsd = 127.0.0.1:\(port)
        staleAfter = \(staleAfter)
        silenceTimeout = 3
        \(ConfigSnippet.pngDisplay(frames.path, mode: "640x480", fps: 30, pngFps: 10))
        [map]
        center = \(center.lat),\(center.lon)
        zoom = 17
        follow = off
        [log]
        level = debug
        summaryEvery = 1
        """
    }

    func testFramesShowTheProjectedFixesFromGpsd() throws {
        let drive = DriveNMEA.straight(from: 45.5, -73.5667, count: 40)
        let log = dir.appendingPathComponent("drive.nmea")
        try drive.write(to: log)
        let frames = dir.appendingPathComponent("frames")
        let port = try TestEnvironment.freeTCPPort()
        let start = drive.fixes[0]
        let daemon = try RunningDaemon(config: config(port: port, center: start, staleAfter: 60, frames: frames), in: dir)
        try daemon.waitForLog("connecting to gpsd")
        let gpsfake = try GPSFake(log: log, port: port, once: true, pace: 0.1, pipe: true)
        defer { gpsfake.stop() }
        try daemon.waitForLog("receiving from")

        // The feed ends; the dot, drawn a little in the past, then comes to rest on the last fix.
        let last = drive.fixes[drive.fixes.count - 1]
        let seen = try daemon.waitForFrames(in: frames, timeout: 60, "the dot resting on the last fix") { lines in
            lines.contains { abs(($0.lat ?? 0) - last.lat) < 2e-8 && abs(($0.lon ?? 0) - last.lon) < 2e-8 }
        }
        XCTAssertTrue(daemon.isRunning, daemon.log)

        let mercator = TestMercator(center: start, zoom: 17, width: 640, height: 480)
        let route = drive.route
        var between = 0
        var lastLive: FrameLine?
        for line in seen {
            guard line.state != "nofix" else {
                XCTAssertNil(line.lat, "\(line): no position before the first fix")
                XCTAssertNil(lastLive, "\(line): no fix after a live frame")
                continue
            }
            XCTAssertEqual(line.state, "live", "\(line)")
            let lat = try XCTUnwrap(line.lat), lon = try XCTUnwrap(line.lon)
            let x = try XCTUnwrap(line.x), y = try XCTUnwrap(line.y)
            // Drawn where the map puts that position (the test's own projection)...
            let p = mercator.pixel(lat: lat, lon: lon)
            XCTAssertEqual(x, p.x, accuracy: 0.01, "\(line)")
            XCTAssertEqual(y, p.y, accuracy: 0.01, "\(line)")
            // ...and that position is on the driven route, never beyond it.
            XCTAssertLessThan(route.distance(lat: lat, lon: lon), 2e-8, "\(line) is off the route")
            // The course (60° at 20 knots, above headingMinSpeed) once gpsd has reported it.
            if let heading = line.heading { XCTAssertEqual(heading, 60, accuracy: 1e-9, "\(line)") }
            if !drive.fixes.contains(where: { abs($0.lat - lat) < 2e-8 && abs($0.lon - lon) < 2e-8 }) { between += 1 }
            if let previous = lastLive {
                XCTAssertGreaterThanOrEqual(lat, previous.lat! - 2e-8, "\(line) went back along the route after \(previous)")
            }
            lastLive = line
        }
        XCTAssertNotNil(lastLive, "no live frame")
        XCTAssertEqual(lastLive?.heading, 60, "the resting dot shows the course")
        XCTAssertGreaterThan(between, 0, "the dot never glided between fixes")
        let stopped = daemon.stop()
        XCTAssertEqual(stopped.status, 0, daemon.log)
    }

    func testGpsdKilledGoesStaleAndComesBackLiveWithoutTheDaemonExiting() throws {
        let drive = DriveNMEA.straight(from: 52.52, 13.405, count: 30)
        let log = dir.appendingPathComponent("loop.nmea")
        try drive.write(to: log)
        let frames = dir.appendingPathComponent("frames")
        let port = try TestEnvironment.freeTCPPort()
        let daemon = try RunningDaemon(config: config(port: port, center: drive.fixes[0], staleAfter: 2, frames: frames), in: dir)
        try daemon.waitForLog("connecting to gpsd")
        var gpsfake = try GPSFake.listening(log: log, port: port, once: false, pace: 0.05, pipe: true)
        try daemon.waitForFrames(in: frames, "live frames") { $0.filter { $0.state == "live" }.count >= 5 }

        gpsfake.stop()
        let stale = try daemon.waitForFrames(in: frames, "the stale look after gpsd went away") { $0.last?.state == "stale" }
        XCTAssertTrue(daemon.isRunning, "the daemon exited when gpsd went away:\n\(daemon.log)")
        let staleFrame = try XCTUnwrap(stale.last)
        XCTAssertNotNil(staleFrame.lat, "a stale dot stays where the last fix was")

        gpsfake = try GPSFake.listening(log: log, port: port, once: false, pace: 0.05, pipe: true)
        defer { gpsfake.stop() }
        let again = try daemon.waitForFrames(in: frames, timeout: 60, "live frames after gpsd came back") { lines in
            lines.contains { $0.state == "live" && $0.t > staleFrame.t }
        }
        XCTAssertTrue(daemon.isRunning, daemon.log)
        XCTAssertTrue(again.contains { $0.state == "stale" }, "never stale")
        try daemon.waitForLog("gpsd reconnects 1")
        let text = daemon.log
        XCTAssertTrue(text.contains("<4>lost gpsd at 127.0.0.1:\(port)"), text)
        XCTAssertTrue(text.contains("<4>no fix for 2 s: the dot shows the stale look"), text)
        XCTAssertTrue(text.contains("<5>fix again at "), text)
        // Retrying while gpsd was down said so once, not once per attempt.
        let lines = text.split(separator: "\n").filter { !$0.contains("summary:") }
        for (a, b) in zip(lines, lines.dropFirst()) { XCTAssertNotEqual(a, b, "a line repeated in a retry loop") }
        XCTAssertLessThanOrEqual(text.components(separatedBy: "unreachable").count - 1, 2, text)
        for line in lines { XCTAssertTrue(line.range(of: "^<[3-7]>", options: .regularExpression) != nil, "no priority: \(line)") }

        let stopped = daemon.stop()
        XCTAssertEqual(stopped.status, 0, daemon.log)
    }
}
