import Foundation
import Glibc
import TestSupport
import XCTest

/// A kiosk is reloaded many times over its life: each SIGHUP builds a new view (canvas, map
/// window) and frees the old one, and the daemon's anonymous memory must not ratchet up with it.
final class RunReloadMemoryTests: XCTestCase {
    func testReloadsDoNotGrowAnonymousMemory() throws {
        let dir = try TestEnvironment.temporaryDirectory("run-reload-memory")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = { (color: String) in """
            [source]
            position = 52.52,13.405
            [display]
            output = none
            mode = 1280x800
            fps = 10
            [dot]
            annotationColor = \(color)

            """ }
        let daemon = try RunningDaemon(config: config("#FF3B30"), in: dir)
        try daemon.waitForLog("running")
        func rssAnonKB() throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(daemon.child.pid)/status", encoding: .utf8)
            let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
            return try XCTUnwrap(Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? ""))
        }
        // Two reloads first: the allocator settles, then eight more must not add a frame's worth.
        for i in 1...10 {
            try daemon.rewrite(config(i % 2 == 0 ? "#FF3B30" : "#34C759"))
            daemon.child.signal(SIGHUP)
            try daemon.waitForLog("configuration reloaded", occurrences: i)
        }
        let settled = try rssAnonKB()
        for i in 11...18 {
            try daemon.rewrite(config(i % 2 == 0 ? "#FF3B30" : "#34C759"))
            daemon.child.signal(SIGHUP)
            try daemon.waitForLog("configuration reloaded", occurrences: i)
        }
        let after = try rssAnonKB()
        // One 1280x800 XRGB8888 frame is 4,000 KiB; before the fix each reload kept about that much.
        XCTAssertLessThan(after - settled, 1024, "RssAnon \(settled) kB → \(after) kB over 8 reloads:\n\(daemon.log)")
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }
}
