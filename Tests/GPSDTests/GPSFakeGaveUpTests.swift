import TestSupport
import XCTest

/// The one retry the gpsd tests allow themselves: gpsfake giving up, nothing else.
final class GPSFakeGaveUpTests: XCTestCase {
    struct Other: Error {}

    func testAGiveUpRunsTheAttemptOnceMore() throws {
        var attempts = 0
        try GPSFake.againIfItGaveUp {
            attempts += 1
            if attempts == 1 { throw GPSFake.GaveUp(stderr: "Test timed out") }
        }
        XCTAssertEqual(attempts, 2)
    }

    func testASecondGiveUpIsThrown() {
        var attempts = 0
        XCTAssertThrowsError(try GPSFake.againIfItGaveUp {
            attempts += 1
            throw GPSFake.GaveUp(stderr: "Test timed out")
        }) { XCTAssertTrue($0 is GPSFake.GaveUp) }
        XCTAssertEqual(attempts, 2)
    }

    func testAnyOtherErrorIsThrownWithoutASecondAttempt() {
        var attempts = 0
        XCTAssertThrowsError(try GPSFake.againIfItGaveUp {
            attempts += 1
            throw Other()
        }) { XCTAssertTrue($0 is Other) }
        XCTAssertEqual(attempts, 1)
    }
}
