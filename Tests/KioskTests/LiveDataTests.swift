import GTFSRealtime
@testable import Kiosk
import XCTest

/// The live-data rule: predictions are live only with a TripUpdates feed read within
/// `staleAfter` on a synchronised clock; a failed fetch alone does not end it.
final class LiveDataTests: XCTestCase {
    func feed(timestamp: UInt64?, differential: Bool = false) -> [UInt8] {
        // FeedMessage { header { gtfs_realtime_version: "2.0", incrementality, timestamp } }
        var header: [UInt8] = [0x0A, 0x03, 0x32, 0x2E, 0x30]
        if differential { header += [0x10, 0x01] }
        if let t = timestamp {
            header.append(0x18)
            var v = t
            repeat { var b = UInt8(v & 0x7F); v >>= 7; if v != 0 { b |= 0x80 }; header.append(b) } while v != 0
        }
        return [0x0A, UInt8(header.count)] + header
    }

    func testTheRule() {
        var states = FeedStates()
        let now = 1_800_000_000.0
        XCTAssertEqual(states.live(configured: false, at: now, staleAfter: 120, clockSynchronised: true), .noFeed)
        XCTAssertEqual(states.live(configured: true, at: now, staleAfter: 120, clockSynchronised: true), .waiting)
        XCTAssertEqual(states.take(.tripUpdates, .failed(kind: "connect", sentence: "connection refused"), at: now), "tripUpdates: connection refused")
        XCTAssertEqual(states.live(configured: true, at: now, staleAfter: 120, clockSynchronised: true), .unreachable("connection refused"))
        XCTAssertEqual(states.take(.tripUpdates, .fresh(feed(timestamp: UInt64(now) - 10)), at: now), "tripUpdates: fetched and read again")
        XCTAssertEqual(states.live(configured: true, at: now, staleAfter: 120, clockSynchronised: true), .live)
        XCTAssertEqual(states.live(configured: true, at: now, staleAfter: 120, clockSynchronised: false), .clockNotSynchronised)
        // One failure within staleAfter: still live, the failure said once.
        XCTAssertNotNil(states.take(.tripUpdates, .failed(kind: "status", sentence: "HTTP 500"), at: now + 20))
        XCTAssertNil(states.take(.tripUpdates, .failed(kind: "status", sentence: "HTTP 500"), at: now + 35))
        XCTAssertEqual(states.live(configured: true, at: now + 35, staleAfter: 120, clockSynchronised: true), .live)
        XCTAssertEqual(states.live(configured: true, at: now + 200, staleAfter: 120, clockSynchronised: true), .unreachable("HTTP 500"))
        // Answering with an old feed: stale, by its header's age.
        _ = states.take(.tripUpdates, .fresh(feed(timestamp: UInt64(now))), at: now + 300)
        XCTAssertEqual(states.live(configured: true, at: now + 300, staleAfter: 120, clockSynchronised: true), .stale(seconds: 300))
    }

    func testHeaderAheadOfTheClockIsTheFetchTime() {
        var states = FeedStates()
        let now = 1_800_000_000.0
        let said = states.take(.vehiclePositions, .fresh(feed(timestamp: UInt64(now) + 3600)), at: now)
        XCTAssertEqual(said, "vehiclePositions: header timestamp 3600 s ahead of the clock: taken as the fetch time")
        XCTAssertEqual(states[.vehiclePositions].time, now)
        _ = states.take(.vehiclePositions, .fresh(feed(timestamp: nil)), at: now + 5)
        XCTAssertEqual(states[.vehiclePositions].time, now + 5)
    }

    func testDifferentialIsRefusedInOneLine() {
        var states = FeedStates()
        let now = 1_800_000_000.0
        _ = states.take(.tripUpdates, .fresh(feed(timestamp: UInt64(now))), at: now)
        XCTAssertEqual(states.take(.tripUpdates, .fresh(feed(timestamp: UInt64(now), differential: true)), at: now + 5),
                       "tripUpdates: DIFFERENTIAL feeds are not supported: the feed is not used (a FULL_DATASET feed is needed)")
        XCTAssertNil(states.take(.tripUpdates, .fresh(feed(timestamp: UInt64(now), differential: true)), at: now + 10), "said once")
        // The last FULL_DATASET feed ages on: no live data once it is older than staleAfter.
        XCTAssertEqual(states.live(configured: true, at: now + 100, staleAfter: 120, clockSynchronised: true), .live)
        XCTAssertFalse(states.live(configured: true, at: now + 200, staleAfter: 120, clockSynchronised: true).isLive)
    }

    func testGarbageKeepsTheLastGoodFeed() {
        var states = FeedStates()
        let now = 1_800_000_000.0
        _ = states.take(.tripUpdates, .fresh(feed(timestamp: UInt64(now))), at: now)
        let said = states.take(.tripUpdates, .fresh([0xFF, 0xFF, 0xFF]), at: now + 15)
        XCTAssertNotNil(said)
        XCTAssertTrue(said!.hasSuffix("the last good feed is kept"), said!)
        XCTAssertNotNil(states[.tripUpdates].message)
        XCTAssertEqual(states.live(configured: true, at: now + 15, staleAfter: 120, clockSynchronised: true), .live)
    }
}
