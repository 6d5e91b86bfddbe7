import Location
import Positioning
import Syscall
import XCTest

/// The trip's clock is the fix's own: a burst that arrives at one instant keeps the seconds the
/// receiver gave each fix, and a fix without a time follows the last that had one.
final class FixClockTests: XCTestCase {
    func fix(at received: Double, utc: Double?) -> Fix {
        var f = Fix(latitude: 0, longitude: 0, mode: .threeD, receivedAt: MonotonicInstant(nanoseconds: Int64(received * 1e9)))
        f.time = utc.map { FixTime(secondsSinceEpoch: Int64($0.rounded(.down)), nanoseconds: Int32((($0 - $0.rounded(.down)) * 1e9).rounded())) }
        return f
    }

    func testABurstKeepsTheReceiversSeconds() {
        var clock = FixClock()
        // Thirty fixes a second apart, buffered and delivered within 30 ms.
        let seconds = (0..<30).map { i in clock.seconds(of: fix(at: 100 + Double(i) * 0.001, utc: 1_800_000_000 + Double(i))) }
        XCTAssertEqual(seconds, (0..<30).map { 1_800_000_000 + Double($0) })
    }

    func testAFixWithoutTimeFollowsTheLastThatHadOne() {
        var clock = FixClock()
        XCTAssertEqual(clock.seconds(of: fix(at: 5, utc: nil)), 5, "before any time: the arrival")
        XCTAssertEqual(clock.seconds(of: fix(at: 10, utc: 1_800_000_000.5)), 1_800_000_000.5)
        XCTAssertEqual(clock.seconds(of: fix(at: 12, utc: nil)), 1_800_000_002.5, accuracy: 1e-6)
        let again = fix(at: 12, utc: nil)
        XCTAssertEqual(clock.seconds(of: again), clock.seconds(of: again), "the same fix, the same seconds")
    }
}
