import Foundation
import Glibc
import TestSupport
import XCTest

/// `pulsedot run` under a notification socket of the test's own, standing in for systemd: a
/// datagram socket in `NOTIFY_SOCKET`, with `WATCHDOG_USEC` set.
final class RunNotifyTests: XCTestCase {
    /// A bound AF_UNIX datagram socket collecting every message the daemon sends.
    final class NotifySocket {
        let path: String
        let fd: Int32

        init(path: String) throws {
            self.path = path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: bytes + [0]) }
            let bound = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0 else { throw TestFailure("bind \(path): errno \(errno)") }
        }

        deinit { close(fd) }

        private(set) var messages: [(at: Date, text: String)] = []

        /// Reads whatever arrived.
        func drain() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { return }
                messages.append((Date(), String(decoding: buffer[0..<n], as: UTF8.self)))
            }
        }

        /// Waits until a message satisfies `condition` (after the first `skip` messages).
        @discardableResult
        func wait(for what: String, after skip: Int = 0, timeout: Double = 15, _ condition: (String) -> Bool) throws -> String {
            var found: String?
            _ = ChildProcess.waitUntil(timeout: timeout) {
                self.drain()
                found = self.messages.dropFirst(skip).first { condition($0.text) }?.text
                return found != nil
            }
            guard let found else {
                throw TestFailure("no \(what) within \(timeout) s; got: \(messages.map(\.text))")
            }
            return found
        }
    }

    private var dir: URL!

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("run-notify")
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    /// No display can be driven: a DRM device that does not exist.
    private let noDisplay = """
        [source]
        position = 45.5017,-73.5673
        [display]
        output = kms
        device = /nonexistent/dri/card0
        [log]
        summaryEvery = 0
        """

    func testReadyWatchdogStatusReloadAndStopUnderSystemdNotification() throws {
        let socket = try NotifySocket(path: dir.appendingPathComponent("notify").path)
        // A 0.4 s watchdog: a ping is due every 0.2 s.
        let daemon = try RunningDaemon(config: noDisplay, in: dir,
                                       environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "400000"])

        // READY=1 although no display is there, and the status says what it waits for.
        let ready = try socket.wait(for: "READY=1") { $0.hasPrefix("READY=1") }
        XCTAssertTrue(ready.contains("\nSTATUS=waiting for display (kms): no DRM device: /nonexistent/dri/card0 does not exist"), ready)
        XCTAssertTrue(ready.contains("nofix") || ready.contains("live"), ready)
        XCTAssertTrue(ready.contains("position 45.5017,-73.5673"), ready)
        XCTAssertEqual(socket.messages.first?.text.hasPrefix("READY=1"), true, "READY=1 comes first: \(socket.messages.map(\.text))")

        // The watchdog at half WATCHDOG_USEC: about 15 pings in 3 s, counted with generous bounds.
        let start = socket.messages.count
        usleep(3_000_000)
        socket.drain()
        let pings = socket.messages.dropFirst(start).filter { $0.text == "WATCHDOG=1" }.count
        XCTAssertGreaterThanOrEqual(pings, 8, "too few watchdog pings in 3 s")
        XCTAssertLessThanOrEqual(pings, 30, "too many watchdog pings in 3 s")
        XCTAssertTrue(daemon.isRunning, daemon.log)
        XCTAssertEqual(daemon.log.components(separatedBy: "waiting for display").count - 1, 1,
                       "the wait for a display is said once, not once per retry:\n\(daemon.log)")

        // SIGHUP with a good file: RELOADING=1 with the monotonic time, then READY=1 and the new status.
        try daemon.rewrite(noDisplay.replacingOccurrences(of: "position = 45.5017,-73.5673", with: "position = 48.8566,2.3522"))
        var mark = socket.messages.count
        daemon.child.signal(SIGHUP)
        let reloading = try socket.wait(for: "RELOADING=1", after: mark) { $0.hasPrefix("RELOADING=1") }
        XCTAssertNotNil(reloading.range(of: "\nMONOTONIC_USEC=[0-9]+", options: .regularExpression), reloading)
        let reloaded = try socket.wait(for: "READY=1 after the reload", after: mark) { $0.hasPrefix("READY=1") }
        XCTAssertTrue(reloaded.contains("position 48.8566,2.3522"), reloaded)
        try daemon.waitForLog("configuration reloaded")

        // SIGHUP with a broken file: rejected with the reason, the old configuration keeps running.
        try daemon.rewrite(noDisplay + "\n[dot]\ncolorDotInset = 12\n")
        mark = socket.messages.count
        daemon.child.signal(SIGHUP)
        try socket.wait(for: "RELOADING=1 for the broken file", after: mark) { $0.hasPrefix("RELOADING=1") }
        let kept = try socket.wait(for: "READY=1 after the rejected reload", after: mark) { $0.hasPrefix("READY=1") }
        XCTAssertTrue(kept.contains("position 48.8566,2.3522"), "the running configuration stays: \(kept)")
        let log = try daemon.waitForLog("reload rejected")
        XCTAssertTrue(log.contains("<3>reload rejected, the running configuration stays: \(daemon.configPath):9: colorDotInset = 12"), log)
        mark = socket.messages.count
        usleep(500_000)
        socket.drain()
        XCTAssertTrue(daemon.isRunning, log)
        XCTAssertTrue(socket.messages.dropFirst(mark).contains { $0.text == "WATCHDOG=1" }, "the watchdog goes on after a rejected reload")

        // SIGTERM: STOPPING=1 and exit 0 within a second.
        mark = socket.messages.count
        let stopped = daemon.stop()
        XCTAssertEqual(stopped.status, 0, daemon.log)
        XCTAssertLessThan(stopped.seconds, 1.0, "SIGTERM took \(stopped.seconds) s")
        try socket.wait(for: "STOPPING=1", after: mark) { $0.hasPrefix("STOPPING=1") }
    }

    func testLiveStatusWithAHeadlessOutputAndSIGINT() throws {
        let socket = try NotifySocket(path: dir.appendingPathComponent("notify").path)
        let daemon = try RunningDaemon(config: """
            [source]
            position = 45.5017,-73.5673
            [display]
            output = none
            mode = 320x200
            fps = 20
            [log]
            summaryEvery = 1
            """, in: dir, environment: ["NOTIFY_SOCKET": socket.path])
        try socket.wait(for: "READY=1") { $0.hasPrefix("READY=1") }
        // The summary's status carries the measured frame rate and the live fix.
        let status = try socket.wait(for: "a live status with the measured fps") {
            $0.hasPrefix("STATUS=none 320x200 · software composition · live · ") && $0.hasSuffix(" fps · position 45.5017,-73.5673") && !$0.contains("fps set")
        }
        XCTAssertFalse(socket.messages.contains { $0.text == "WATCHDOG=1" }, "no watchdog without WATCHDOG_USEC: \(status)")
        let log = try daemon.waitForLog("summary: ")
        XCTAssertNotNil(log.range(of: #"<6>summary: [0-9.]+ fps, frame work p50 [0-9.]+ ms p99 [0-9.]+ ms, fix age [0-9.]+ s, live, gpsd reconnects 0, skipped lines 0"#,
                                  options: .regularExpression), log)
        let mark = socket.messages.count
        daemon.child.signal(SIGINT)
        XCTAssertEqual(daemon.child.wait(timeout: 5), 0, daemon.log)
        try socket.wait(for: "STOPPING=1", after: mark) { $0.hasPrefix("STOPPING=1") }
        XCTAssertTrue(daemon.log.contains("<5>SIGINT: stopping"), daemon.log)
    }
}
