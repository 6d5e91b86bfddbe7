import Glibc
import XCTest
@testable import Syscall

final class MonotonicClockTests: XCTestCase {
    func testNeverGoesBackwardsAndArithmeticIsExact() {
        var last = MonotonicInstant.now()
        for _ in 0..<1000 {
            let now = MonotonicInstant.now()
            XCTAssertGreaterThanOrEqual(now, last)
            last = now
        }
        let t = MonotonicInstant(nanoseconds: 5_000_000_000)
        XCTAssertEqual(t.advanced(by: .milliseconds(250)).nanoseconds, 5_250_000_000)
        XCTAssertEqual(t.duration(to: MonotonicInstant(nanoseconds: 4_000_000_000)), .seconds(-1))
        XCTAssertEqual(Duration.seconds(0.25).nanoseconds, 250_000_000)
        XCTAssertEqual(Duration.seconds(Int64.max).nanoseconds, .max, "saturates instead of trapping")
        XCTAssertEqual(Duration.milliseconds(1_500).seconds, 1.5)
    }
}

final class PollTests: XCTestCase {
    func testTimeoutRoundsUpAndCaps() {
        let now = MonotonicInstant(nanoseconds: 1_000_000_000)
        XCTAssertEqual(Poll.timeoutMilliseconds(until: nil, now: now), -1)
        XCTAssertEqual(Poll.timeoutMilliseconds(until: now, now: now), 0)
        XCTAssertEqual(Poll.timeoutMilliseconds(until: now.advanced(by: .seconds(-3)), now: now), 0)
        XCTAssertEqual(Poll.timeoutMilliseconds(until: now.advanced(by: .nanoseconds(1)), now: now), 1, "never wakes early")
        XCTAssertEqual(Poll.timeoutMilliseconds(until: now.advanced(by: .milliseconds(250)), now: now), 250)
        XCTAssertEqual(Poll.timeoutMilliseconds(until: now.advanced(by: .seconds(1e9)), now: now), Int32.max)
        XCTAssertEqual(Poll.earliest(nil, nil), nil)
        XCTAssertEqual(Poll.earliest(now, nil), now)
        XCTAssertEqual(Poll.earliest(now.advanced(by: .seconds(1)), now), now)
    }

    func testWaitReportsReadiness() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        var set = [pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)]
        XCTAssertEqual(try Poll.wait(&set, timeoutMilliseconds: 0), 0)
        XCTAssertEqual(write(fds[1], "x", 1), 1)
        XCTAssertEqual(try Poll.wait(&set, timeoutMilliseconds: 1000), 1)
        XCTAssertEqual(set[0].revents & Int16(POLLIN), Int16(POLLIN))
    }

    func testWaitUntilReadableTellsDataHangUpTimeoutAndAClosedDescriptor() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let r = FileDescriptor(rawValue: fds[0], name: "pipe"), w = FileDescriptor(rawValue: fds[1], name: "pipe")
        XCTAssertFalse(try r.waitUntilReadable(timeoutMilliseconds: 0), "nothing written yet")
        XCTAssertEqual(write(fds[1], "x", 1), 1)
        XCTAssertTrue(try r.waitUntilReadable(timeoutMilliseconds: 1000))
        var byte: UInt8 = 0
        XCTAssertEqual(read(fds[0], &byte, 1), 1)
        w.close()
        XCTAssertTrue(try r.waitUntilReadable(timeoutMilliseconds: 1000), "a hang-up is for the next read to report")
        r.close()
        // A number no descriptor of this process has (a closed one could be reused meanwhile).
        let notOpen = FileDescriptor(rawValue: 1_000_000, name: "/dev/dri/card9")
        XCTAssertThrowsError(try notOpen.waitUntilReadable(timeoutMilliseconds: 0)) { error in
            XCTAssertEqual("\(error)", "poll /dev/dri/card9: Bad file descriptor (errno 9)")
        }
    }
}

final class SocketTests: XCTestCase {
    func testAddressesPrintAsTheyAreWritten() throws {
        XCTAssertEqual(try SocketAddress.resolve(host: "127.0.0.1", port: 2947)[0].description, "127.0.0.1:2947")
        let v6 = try SocketAddress.resolve(host: "::1", port: 80)[0]
        XCTAssertEqual(v6.description, "[::1]:80")
        XCTAssertEqual(v6.family, AF_INET6)
        XCTAssertEqual(v6.port, 80)
    }

    func testConnectSendAndAcceptOverLoopback() throws {
        let listener = try FileDescriptor.listenTCP(SocketAddress.resolve(host: "127.0.0.1", port: 0)[0])
        defer { listener.close() }
        let address = try listener.localAddress()
        XCTAssertNil(try listener.accept(), "nobody is waiting yet")
        let client = try FileDescriptor.tcpSocket(family: AF_INET, name: "test client")
        defer { client.close() }
        if try !client.connect(to: address) {
            var set = [pollfd(fd: client.rawValue, events: Int16(POLLOUT), revents: 0)]
            _ = try Poll.wait(&set, timeoutMilliseconds: 2000)
        }
        XCTAssertEqual(try client.pendingSocketError(), 0)
        var set = [pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0)]
        _ = try Poll.wait(&set, timeoutMilliseconds: 2000)
        let peer = try XCTUnwrap(try listener.accept())
        XCTAssertNotEqual(fcntl(peer.rawValue, F_GETFL) & O_NONBLOCK, 0, "accepted sockets are non-blocking")
        XCTAssertNotEqual(fcntl(peer.rawValue, F_GETFD) & FD_CLOEXEC, 0)
        XCTAssertEqual(try Array("hi".utf8).withUnsafeBytes { try client.send($0) }, 2)
        var buffer = [UInt8](repeating: 0, count: 8)
        set = [pollfd(fd: peer.rawValue, events: Int16(POLLIN), revents: 0)]
        _ = try Poll.wait(&set, timeoutMilliseconds: 2000)
        XCTAssertEqual(try buffer.withUnsafeMutableBytes { try peer.read(into: $0) }, 2)
        // Sending to a peer that is gone is an error, never a SIGPIPE that kills the process.
        peer.close()
        var failure: SyscallError?
        for _ in 0..<50 where failure == nil {
            do { _ = try Array("x".utf8).withUnsafeBytes { try client.send($0) } } catch { failure = error as? SyscallError }
            usleep(10_000)
        }
        XCTAssertTrue([EPIPE, ECONNRESET].contains(failure?.errno ?? 0), "\(String(describing: failure))")
        XCTAssertEqual(failure?.call, "send")
    }

    func testRefusedConnectNamesCallAndObject() throws {
        let listener = try FileDescriptor.listenTCP(SocketAddress.resolve(host: "127.0.0.1", port: 0)[0])
        let address = try listener.localAddress()
        listener.close()
        let client = try FileDescriptor.tcpSocket(family: AF_INET, name: "gpsd \(address)")
        defer { client.close() }
        do {
            if try !client.connect(to: address) {
                var set = [pollfd(fd: client.rawValue, events: Int16(POLLOUT), revents: 0)]
                _ = try Poll.wait(&set, timeoutMilliseconds: 2000)
                XCTAssertEqual(try client.pendingSocketError(), ECONNREFUSED)
            } else {
                XCTFail("connected to a closed port")
            }
        } catch {
            XCTAssertEqual(error.description, "connect gpsd \(address): Connection refused (errno 111)")
        }
    }

    /// A socket bound to a port and connected to that same port talks to itself (TCP simultaneous
    /// open): what a client's connect to an ephemeral-range port with nothing listening can become.
    func testSelfConnectionIsRecognisedAndARealOneIsNot() throws {
        let probe = try FileDescriptor.listenTCP(SocketAddress.resolve(host: "127.0.0.1", port: 0)[0])
        let address = try probe.localAddress()
        probe.close()
        let lonely = try FileDescriptor.tcpSocket(family: AF_INET, name: "lonely")
        defer { lonely.close() }
        let bound = try address.withSockaddr { (sa, len) throws(SyscallError) -> Int32 in bind(lonely.rawValue, sa, len) }
        XCTAssertEqual(bound, 0)
        if try !lonely.connect(to: address) {
            var set = [pollfd(fd: lonely.rawValue, events: Int16(POLLOUT), revents: 0)]
            _ = try Poll.wait(&set, timeoutMilliseconds: 2000)
        }
        XCTAssertEqual(try lonely.pendingSocketError(), 0, "the simultaneous open succeeds")
        XCTAssertTrue(try lonely.isConnectedToItself())

        let listener = try FileDescriptor.listenTCP(SocketAddress.resolve(host: "127.0.0.1", port: 0)[0])
        defer { listener.close() }
        let client = try FileDescriptor.tcpSocket(family: AF_INET, name: "client")
        defer { client.close() }
        if try !client.connect(to: try listener.localAddress()) {
            var set = [pollfd(fd: client.rawValue, events: Int16(POLLOUT), revents: 0)]
            _ = try Poll.wait(&set, timeoutMilliseconds: 2000)
        }
        XCTAssertEqual(try client.pendingSocketError(), 0)
        XCTAssertFalse(try client.isConnectedToItself())
    }
}
