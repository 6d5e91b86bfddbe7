import Foundation
import Glibc
import Syscall
@testable import Systemd
import TestSupport
import XCTest

/// The notification protocol against real AF_UNIX datagram sockets standing in for systemd.
final class SystemdNotifyTests: XCTestCase {
    /// A bound receiving socket, like systemd's.
    struct Receiver {
        let fd: FileDescriptor
        init(_ address: String) throws {
            fd = try FileDescriptor.unixDatagramSocket(name: "test receiver")
            try fd.bind(to: UnixSocketAddress(address))
        }
        func message() throws -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = try buffer.withUnsafeMutableBytes { try fd.receive(into: $0) }
            return n.map { String(decoding: buffer[0..<$0], as: UTF8.self) }
        }
    }

    func checkProtocol(_ address: String) throws {
        let receiver = try Receiver(address)
        defer { receiver.fd.close() }
        let notifier = try XCTUnwrap(SystemdNotifier(notifySocket: address, watchdogUsec: "30000000", watchdogPid: nil, pid: getpid()))
        defer { notifier.close() }
        XCTAssertEqual(notifier.watchdogInterval, .seconds(15))
        XCTAssertNil(try receiver.message(), "nothing before the first message")
        try notifier.ready(status: "waiting for display (no connected output)")
        XCTAssertEqual(try receiver.message(), "READY=1\nSTATUS=waiting for display (no connected output)")
        try notifier.watchdog()
        XCTAssertEqual(try receiver.message(), "WATCHDOG=1")
        try notifier.status("kms HDMI-A-1 1920x1080@60 · live · 60 fps · gpsd 127.0.0.1:2947\nsecond line")
        XCTAssertEqual(try receiver.message(), "STATUS=kms HDMI-A-1 1920x1080@60 · live · 60 fps · gpsd 127.0.0.1:2947 second line")
        try notifier.reloading(now: MonotonicInstant(nanoseconds: 1_234_567_890_123))
        XCTAssertEqual(try receiver.message(), "RELOADING=1\nMONOTONIC_USEC=1234567890")
        try notifier.ready()
        XCTAssertEqual(try receiver.message(), "READY=1")
        try notifier.stopping(status: "stopping")
        XCTAssertEqual(try receiver.message(), "STOPPING=1\nSTATUS=stopping")
        XCTAssertNil(try receiver.message(), "one datagram per message")
    }

    func testPathSocket() throws {
        let dir = try TestEnvironment.temporaryDirectory("notify")
        defer { try? FileManager.default.removeItem(at: dir) }
        try checkProtocol(dir.appendingPathComponent("notify").path)
    }

    func testAbstractSocket() throws {
        try checkProtocol("@pulsedot-test-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }

    func testEnvironmentRules() throws {
        XCTAssertNil(try SystemdNotifier(notifySocket: nil, watchdogUsec: "1000", watchdogPid: nil, pid: 1))
        XCTAssertNil(try SystemdNotifier(notifySocket: "", watchdogUsec: nil, watchdogPid: nil, pid: 1))
        let noWatchdog = try XCTUnwrap(SystemdNotifier(notifySocket: "/run/x", watchdogUsec: nil, watchdogPid: nil, pid: 7))
        XCTAssertNil(noWatchdog.watchdogInterval)
        noWatchdog.close()
        // The watchdog variables were inherited from a parent: not ours.
        let other = try XCTUnwrap(SystemdNotifier(notifySocket: "/run/x", watchdogUsec: "8000000", watchdogPid: "4242", pid: 7))
        XCTAssertNil(other.watchdogInterval)
        other.close()
        let ours = try XCTUnwrap(SystemdNotifier(notifySocket: "@x", watchdogUsec: "8000000", watchdogPid: "7", pid: 7))
        XCTAssertEqual(ours.watchdogInterval, .seconds(4))
        ours.close()
        XCTAssertThrowsError(try SystemdNotifier(notifySocket: "/run/x", watchdogUsec: "soon", watchdogPid: nil, pid: 7)) { e in
            XCTAssertEqual("\(e)", "WATCHDOG_USEC=soon: not a positive number of microseconds")
        }
        XCTAssertThrowsError(try SystemdNotifier(notifySocket: "run/notify", watchdogUsec: nil, watchdogPid: nil, pid: 7)) { e in
            XCTAssertEqual("\(e)", "NOTIFY_SOCKET=run/notify: not a socket path or @abstract name (Invalid argument)")
        }
        let long = "/" + String(repeating: "x", count: 120)
        XCTAssertThrowsError(try SystemdNotifier(notifySocket: long, watchdogUsec: nil, watchdogPid: nil, pid: 7)) { e in
            XCTAssertTrue("\(e)".hasSuffix("(File name too long)"), "\(e)")
        }
    }

    func testFromTheProcessEnvironment() throws {
        let address = "@pulsedot-test-env-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let receiver = try Receiver(address)
        defer { receiver.fd.close() }
        setenv("NOTIFY_SOCKET", address, 1)
        setenv("WATCHDOG_USEC", "2000000", 1)
        setenv("WATCHDOG_PID", "\(getpid())", 1)
        defer { unsetenv("NOTIFY_SOCKET"); unsetenv("WATCHDOG_USEC"); unsetenv("WATCHDOG_PID") }
        let notifier = try XCTUnwrap(try SystemdNotifier.fromEnvironment())
        defer { notifier.close() }
        XCTAssertEqual(notifier.watchdogInterval, .seconds(1))
        try notifier.ready()
        XCTAssertEqual(try receiver.message(), "READY=1")
        unsetenv("NOTIFY_SOCKET")
        XCTAssertNil(try SystemdNotifier.fromEnvironment())
    }

    func testASocketNobodyListensOnIsANamedError() throws {
        let dir = try TestEnvironment.temporaryDirectory("notify")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("gone").path
        let notifier = try XCTUnwrap(SystemdNotifier(notifySocket: path, watchdogUsec: nil, watchdogPid: nil, pid: 1))
        defer { notifier.close() }
        XCTAssertThrowsError(try notifier.ready()) { e in
            XCTAssertEqual(e as? SyscallError, SyscallError(call: "sendto", object: path, errno: ENOENT))
        }
        let abstract = try XCTUnwrap(SystemdNotifier(notifySocket: "@pulsedot-nobody-\(getpid())", watchdogUsec: nil, watchdogPid: nil, pid: 1))
        defer { abstract.close() }
        XCTAssertThrowsError(try abstract.watchdog()) { e in
            XCTAssertEqual((e as? SyscallError)?.errno, ECONNREFUSED)
        }
    }

    func testWatchdogCadence() {
        var cadence = WatchdogCadence(interval: .seconds(15))
        let t0 = MonotonicInstant(nanoseconds: 5_000_000_000)
        XCTAssertTrue(cadence.isDue(at: t0), "the first ping goes at once")
        XCTAssertEqual(Poll.timeoutMilliseconds(until: cadence.nextDue, now: t0), 0)
        cadence.sent(at: t0)
        XCTAssertFalse(cadence.isDue(at: t0.advanced(by: .milliseconds(14_999))))
        XCTAssertTrue(cadence.isDue(at: t0.advanced(by: .seconds(15))))
        XCTAssertEqual(cadence.nextDue, MonotonicInstant(nanoseconds: 20_000_000_000))
        XCTAssertEqual(Poll.timeoutMilliseconds(until: cadence.nextDue, now: t0), 15_000)
    }
}
