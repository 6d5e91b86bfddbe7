import Glibc
import XCTest
@testable import Syscall

/// signalfd as the daemon's poll loop uses it: blocked signals become readable events.
/// Signals are raised at this thread only (raise, not kill): XCTest runs other threads, where a
/// process-directed SIGHUP would take its default action and end the test run.
final class SignalsTests: XCTestCase {
    private func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    private func readable(_ fd: FileDescriptor, timeoutMilliseconds: Int32) throws -> Bool {
        var fds = [pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)]
        return try Poll.wait(&fds, timeoutMilliseconds: timeoutMilliseconds) == 1 && fds[0].revents & Int16(POLLIN) != 0
    }

    func testBlockedSignalsArriveThroughTheDescriptor() throws {
        let signals = [SIGHUP, SIGUSR1, SIGTERM]
        let fd = try SignalDescriptor(signals)
        defer { fd.close(); unblock(signals) }
        XCTAssertNil(try fd.next(), "nothing pending yet")
        XCTAssertFalse(try readable(fd.descriptor, timeoutMilliseconds: 0))

        XCTAssertEqual(raise(SIGUSR1), 0)
        XCTAssertEqual(raise(SIGHUP), 0)
        XCTAssertEqual(raise(SIGHUP), 0) // standard signals do not queue: one SIGHUP is read
        XCTAssertTrue(try readable(fd.descriptor, timeoutMilliseconds: 1000))
        var seen: [Int32] = []
        while let s = try fd.next() { seen.append(s) }
        XCTAssertEqual(seen.sorted(), [SIGHUP, SIGUSR1])
        XCTAssertFalse(try readable(fd.descriptor, timeoutMilliseconds: 0))

        XCTAssertEqual(raise(SIGTERM), 0)
        XCTAssertEqual(try fd.next(), SIGTERM, "SIGTERM reaches the loop instead of ending the process")
    }
}
