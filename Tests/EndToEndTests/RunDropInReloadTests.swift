import Foundation
import Glibc
import TestSupport
import XCTest

/// The daemon reads the drop-ins beside its file at start and again on SIGHUP: a drop-in added
/// moves the kiosk, one removed moves it back, a broken one is refused with its name and the
/// running configuration stays.
final class RunDropInReloadTests: XCTestCase {
    func testSIGHUPRereadsTheDropIns() throws {
        let dir = try TestEnvironment.temporaryDirectory("run-dropins")
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = dir.appendingPathComponent("frames")
        let dropIns = dir.appendingPathComponent("pulsedot.conf.d")
        try FileManager.default.createDirectory(at: dropIns, withIntermediateDirectories: true)
        let site = dropIns.appendingPathComponent("10-site.conf"), vehicle = dropIns.appendingPathComponent("50-vehicle.conf")
        try "[source]\nposition = 45.5,-73.6\n".write(to: site, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(config: """
            \(ConfigSnippet.pngDisplay(frames.path, mode: "320x200", fps: 10, pngFps: 10))

            """, in: dir)
        try daemon.waitForFrames(in: frames, "a frame at the site drop-in's position") { $0.contains { $0.lat == 45.5 } }

        func reload(_ count: Int, to lat: Double, _ what: String) throws {
            daemon.child.signal(SIGHUP)
            try daemon.waitForLog("configuration reloaded", occurrences: count)
            let before = daemon.frames(in: frames).count
            let seen = try daemon.waitForFrames(in: frames, what) { $0.count >= before + 3 }
            for line in seen.dropFirst(before + 1) { XCTAssertEqual(line.lat, lat, "\(what): \(line)") }
        }
        try "[source]\nposition = 48.8566,2.3522\n".write(to: vehicle, atomically: true, encoding: .utf8)
        try reload(1, to: 48.8566, "a later drop-in wins")
        try FileManager.default.removeItem(at: vehicle)
        try reload(2, to: 45.5, "the removed drop-in is gone")

        let broken = dropIns.appendingPathComponent("60-broken.conf")
        try "[display]\nfps = sixty\n".write(to: broken, atomically: true, encoding: .utf8)
        daemon.child.signal(SIGHUP)
        try daemon.waitForLog("reload rejected")
        XCTAssertTrue(daemon.log.contains("\(broken.path):2: display.fps = sixty"), daemon.log)
        XCTAssertTrue(daemon.isRunning)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }
}
