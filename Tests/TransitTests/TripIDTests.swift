import Foundation
import TestSupport
import Transit
import XCTest

/// Trip ids are free text: every id of a feed can be named as it is written there, whatever it
/// holds (`@`, `#`, `/`, spaces, quotes, letters outside ASCII), and `ID@HH:MM:SS` names a run of a
/// frequencies trip only when the whole text is not an id of the feed.
final class TripIDTests: XCTestCase {
    static let ids = ["A12-3@1#0815", "line/7 north", "\"Q\" 'trip'", "Łódź–Żabieniec", "東京@1", "X@08:00:00", "T2"]

    /// The small feed with a copy of T1 under each id above (T2 kept as the frequencies trip).
    func feed() throws -> SmallFeed {
        func csv(_ s: String) -> String { s.contains(",") || s.contains("\"") ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s }
        var trips = "route_id,service_id,trip_id,trip_headsign,direction_id,block_id,shape_id\n"
        var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for id in Self.ids where id != "T2" {
            trips += "R1,WK,\(csv(id)),Dworzec,0,,SH1\n"
            times += "\(csv(id)),07:00:00,07:00:00,S1,1\n\(csv(id)),07:20:00,07:20:00,S3,2\n"
        }
        trips += "R1,WK,T2,Dworzec,1,,SH1\n"
        times += "T2,08:00:00,08:00:00,S1,1\nT2,08:20:00,08:20:00,S3,2\n"
        return try SmallFeed(["trips.txt": trips, "stop_times.txt": times])
    }

    func testEveryIdOfTheFeedIsNamedVerbatim() throws {
        let feed = try feed()
        defer { feed.remove() }
        _ = try feed.importFeed()
        let index = try TransitIndex(path: feed.index)
        for id in Self.ids {
            let trip = try index.trip(TripChoice.parse(id))
            XCTAssertEqual(trip.tripID, id)
            XCTAssertNil(trip.runStart, id)
        }
    }

    /// `X@08:00:00` is a trip of the feed: taken whole. `T2@06:10:00` is not: T2's run at 06:10.
    /// `X@09:00:00` is neither, and the error names the id it asked for.
    func testATimeIsReadOnlyWhenTheWholeTextIsNoId() throws {
        let feed = try feed()
        defer { feed.remove() }
        _ = try feed.importFeed()
        let index = try TransitIndex(path: feed.index)
        let whole = try index.resolve(TripChoice.parse("X@08:00:00"))
        XCTAssertEqual(whole, TripChoice(tripID: "X@08:00:00"))
        XCTAssertEqual(whole.reading, "trip_id 'X@08:00:00'")
        let run = try index.resolve(TripChoice.parse("T2@06:10:00"))
        XCTAssertEqual(run.tripID, "T2")
        XCTAssertEqual(run.start, 6 * 3600 + 600)
        XCTAssertEqual(run.reading, "trip_id 'T2', the run starting at 06:10:00")
        XCTAssertEqual(try index.trip(run).runStart, 6 * 3600 + 600)
        XCTAssertThrowsError(try index.trip(TripChoice.parse("X@09:00:00"))) { error in
            XCTAssertTrue("\(error)".hasSuffix("no trip 'X' in the feed's trips.txt"), "\(error)")
        }
    }
}
