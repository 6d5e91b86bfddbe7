import Glibc
import XCTest
@testable import Syscall

/// timerfd as the frame clock. Only lower bounds on elapsed time are asserted: a busy machine may
/// wake late, never early.
final class TimerTests: XCTestCase {
    func testTicksWakePollAndCountMissedPeriods() throws {
        let timer = try FrameTimer(rate: 100)
        defer { timer.close() }
        var fds = [pollfd(fd: timer.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        XCTAssertEqual(try Poll.wait(&fds, timeoutMilliseconds: 5_000), 1, "a 10 ms tick wakes poll")
        XCTAssertGreaterThanOrEqual(try timer.expirations(), 1)
        // 100 ms without reading: at least 9 more periods of 10 ms have gone by, reported at once.
        let start = MonotonicInstant.now()
        usleep(100_000)
        XCTAssertGreaterThanOrEqual(start.duration(to: .now()), .milliseconds(100))
        XCTAssertGreaterThanOrEqual(try timer.expirations(), 9)
    }

    func testNoTickBeforeTheFirstPeriod() throws {
        let slow = try FrameTimer(rate: 0.01) // first tick in 100 s
        defer { slow.close() }
        XCTAssertEqual(try slow.expirations(), 0, "not readable: 0, not a blocking read")
        var fds = [pollfd(fd: slow.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        XCTAssertEqual(try Poll.wait(&fds, timeoutMilliseconds: 0), 0)
    }
}
