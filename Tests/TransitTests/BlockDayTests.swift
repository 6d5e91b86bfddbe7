import Foundation
import Transit
import XCTest

/// A block's service day: SmallFeed's block B7 runs T2 at 08:00 and T1 from 23:50 to 24:10:30 on
/// weekdays (Warsaw). Just after midnight the block is still the day before's, with T1 running;
/// once that has ended, today's block, its first trip next.
final class BlockDayTests: XCTestCase {
    func testAfterMidnightTheBlockIsTheDayBefores() throws {
        let feed = try SmallFeed()
        defer { feed.remove() }
        let index = try TransitIndex(path: feed.importFeed().path)
        let zone = try TimeZoneRules.load("Europe/Warsaw")
        let tuesday = zone.serviceDayOrigin(20250603)
        let t1 = TransitIndex.BlockTrip(tripID: "T1", start: 23 * 3600 + 51 * 60, end: 24 * 3600 + 10 * 60 + 30)
        let t2 = TransitIndex.BlockTrip(tripID: "T2", start: 8 * 3600, end: 8 * 3600 + 20 * 60)

        // 00:05 on Tuesday: Monday's T1 runs until 00:10:30.
        XCTAssertEqual(try index.blockDay("B7", at: tuesday + 5 * 60, in: zone),
                       TransitIndex.BlockDay(date: 20250602, trips: [t2, t1], current: 1))
        // 00:15: Monday's block has ended; Tuesday's begins with T2.
        XCTAssertEqual(try index.blockDay("B7", at: tuesday + 15 * 60, in: zone),
                       TransitIndex.BlockDay(date: 20250603, trips: [t2, t1], current: 0))
        // 09:00: T2 has ended, T1 is next.
        XCTAssertEqual(try index.blockDay("B7", at: tuesday + 9 * 3600, in: zone)?.current, 1)
        // Saturday 00:05 is still Friday's block; Sunday has none, nor the Saturday before it.
        XCTAssertEqual(try index.blockDay("B7", at: zone.serviceDayOrigin(20250607) + 5 * 60, in: zone)?.date, 20250606)
        XCTAssertNil(try index.blockDay("B7", at: zone.serviceDayOrigin(20250608) + 12 * 3600, in: zone))
        XCTAssertNil(try index.blockDay("NONE", at: tuesday, in: zone))
    }
}
