import Foundation
import GTFS
import TestSupport
import Transit
import XCTest

/// Feeds written by the tests: every field the index keeps, the optional files absent, and each
/// kind of broken feed with the one line it gives.
final class SmallFeedImportTests: XCTestCase {
    func testEveryKeptFieldArrives() throws {
        let feed = try SmallFeed()
        defer { feed.remove() }
        let report = try feed.importFeed()
        XCTAssertEqual(report.skipped, [])
        XCTAssertEqual(report.info.service, ServicePeriod(first: 20_250_101, last: 20_260_105))
        let db = try IndexReader(feed.index)
        XCTAssertEqual(try db.rows("SELECT agency_id, name, url, timezone FROM agency"), ["A|Metro|https://example.org|Europe/Warsaw"])
        XCTAssertEqual(try db.rows("SELECT route_id, short_name, long_name, type, printf('%06X/%06X', color, text_color) FROM routes"),
                       ["R1|7|Dworzec – Łódź Fabryczna|3|E2001A/FFFFFF"])
        XCTAssertEqual(try db.rows("SELECT t.trip_id, t.headsign, t.direction, t.block_id, s.shape_id FROM trips t JOIN shapes s ON s.id = t.shape"),
                       ["T1|Dworzec|0|B7|SH1", "T2|Dworzec|1|B7|SH1"])
        XCTAssertEqual(try db.rows("SELECT s.stop_id, s.name, s.location_type, p.stop_id, s.platform_code FROM stops s LEFT JOIN stops p ON p.id = s.parent ORDER BY s.stop_id"),
                       ["S1|Łódź Fabryczna|0|ST|2", "S2|Piotrkowska, róg|0|NULL|NULL", "S3|Dworzec|0|NULL|NULL", "ST|Fabryczna station|1|NULL|NULL"])
        // Past midnight stays on the trip's service day: 24:10:30 is 87,030 s.
        XCTAssertEqual(try db.rows("""
            SELECT stop_sequence, arrival, departure, stop_headsign, pickup_type, drop_off_type, shape_dist FROM stop_times
            WHERE trip = (SELECT id FROM trips WHERE trip_id = 'T1') ORDER BY stop_sequence
            """), ["1|85800|85860|NULL|0|1|0.0", "2|NULL|NULL|Dworzec, peron 1|0|0|1500.5", "3|87030|87030|NULL|1|0|3100.0"])
        XCTAssertEqual(try db.rows("SELECT sequence, lat, lon, dist FROM shape_points ORDER BY sequence"),
                       ["10|51.77|19.47|0.0", "20|51.76|19.458|1500.5", "30|51.75|19.44|3100.0"])
        XCTAssertEqual(try db.value("SELECT count(*) FROM shape_segments"), "2")
        XCTAssertEqual(try db.rows("SELECT start_time, end_time, headway_secs, exact_times FROM frequencies"), ["21600|32400|600|1"])
        XCTAssertEqual(try db.rows("SELECT days, start_date, end_date FROM calendar"), ["31|20250101|20251231"])
        XCTAssertEqual(try db.rows("SELECT date, exception_type FROM calendar_dates ORDER BY date"), ["20250501|2", "20260105|1"])
        XCTAssertEqual(try feed.leftovers(), ["index.sqlite"])
    }

    func testCalendarMayBeAbsentWhenDatesAreGiven() throws {
        let feed = try SmallFeed(["calendar.txt": nil, "frequencies.txt": nil, "shapes.txt": nil,
                                  "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR1,WK,T2\n"])
        defer { feed.remove() }
        let report = try feed.importFeed()
        XCTAssertEqual(report.info.service, ServicePeriod(first: 20_260_105, last: 20_260_105))
        XCTAssertEqual(report.info.trips, 2)
        XCTAssertEqual(report.info.shapes, 0)
        XCTAssertEqual(report.info.frequencies, 0)
    }

    func testWithoutAnyCalendarTheFeedIsRefused() throws {
        let feed = try SmallFeed(["calendar.txt": nil, "calendar_dates.txt": nil])
        defer { feed.remove() }
        XCTAssertThrowsError(try feed.importFeed()) { error in
            XCTAssertEqual("\(error)", "\(feed.feed)/calendar.txt: missing, and so is calendar_dates.txt: a feed needs one of them")
        }
        XCTAssertEqual(try feed.leftovers(), [])
    }

    func testAMissingRequiredFileIsNamed() throws {
        let feed = try SmallFeed(["stops.txt": nil])
        defer { feed.remove() }
        XCTAssertThrowsError(try feed.importFeed()) { error in
            XCTAssertEqual("\(error)", "\(feed.feed)/stops.txt: missing: every feed must have it")
        }
        XCTAssertEqual(try feed.leftovers(), [])
    }

    func testABrokenRequiredFileNamesFileLineAndColumn() throws {
        let cases: [(String, String, String)] = [
            ("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id\nT1,08:00:00,08:00:00,S1\n",
             "stop_times.txt:1 (stop_sequence): required column missing (the header has: trip_id, arrival_time, departure_time, stop_id)"),
            ("stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nS1,One,51.77,19.47\nS2,\"Two,51.76,19.45\nS3,Three,51.75,19.44\n",
             "stops.txt:3:2: quoted field never closed: the file ends inside it (an unmatched quote)"),
            ("agency.txt", "", "agency.txt:1: empty file: no header line naming the columns"),
            ("agency.txt", "agency_name,agency_timezone\n,Europe/Warsaw\n",
             "agency.txt: no agency could be read (skipped 1 × agency.txt (agency_name): empty, and the field is required, the first: FEED/agency.txt:2:1 (agency_name): empty, and the field is required)"),
        ]
        for (name, text, message) in cases {
            let feed = try SmallFeed([name: text])
            defer { feed.remove() }
            XCTAssertThrowsError(try feed.importFeed(), name) { error in
                XCTAssertEqual("\(error)", feed.feed + "/" + message.replacingOccurrences(of: "FEED", with: feed.feed))
            }
            XCTAssertEqual(try feed.leftovers(), [], "no index and no temporary file after \(message)")
        }
    }

    /// One broken stop is left out and said once with its count, and so are the stop times that
    /// needed it; everything else arrives.
    func testBrokenRowsAreSkippedAndEachKindSaidOnce() throws {
        let feed = try SmallFeed([
            "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                S1,One,51.77,19.47
                S2,Two,abc,19.45
                S3,Three,51.75,19.44
                S4,Four,95,19.44
                S5,Five,51.7
                S6,Six,51.74,19.43

                """,
            "routes.txt": "route_id,agency_id,route_short_name,route_type,route_color\nR1,A,7,3,red\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,08:05:00,08:05:00,S2,2
                T1,08:10:00,08:10:00,S3,3
                T1,08:12:00,08:12:00,S4,4
                T1,8:61:00,8:61:00,S6,5
                T1,08:20:00,08:20:00,S6,6
                T1,08:21:00,08:21:00,S6,6
                TX,08:00:00,08:00:00,S1,1

                """,
        ])
        defer { feed.remove() }
        let report = try feed.importFeed()
        let f = feed.feed
        XCTAssertEqual(report.skipped, [
            "skipped 1 × routes.txt (route_color): not a colour RRGGBB, the first: \(f)/routes.txt:2:5 (route_color): not a colour RRGGBB: 'red'",
            "skipped 2 × stops.txt (stop_lat): not a number from -90.0 to 90.0, the first: \(f)/stops.txt:3:3 (stop_lat): not a number from -90.0 to 90.0: 'abc'",
            "skipped 1 × stops.txt (stop_lon): short row, the first: \(f)/stops.txt:6:4 (stop_lon): short row: 3 fields where the header names 4",
            "skipped 2 × stop_times.txt (stop_id): no stop in stops.txt (or it was skipped) with this id, the first: \(f)/stop_times.txt:3:4 (stop_id): no stop in stops.txt (or it was skipped) with this id: 'S2'",
            "skipped 1 × stop_times.txt (arrival_time): not a time HH:MM:SS, the first: \(f)/stop_times.txt:6:2 (arrival_time): not a time HH:MM:SS: '8:61:00'",
            "skipped 1 × stop_times.txt (stop_sequence): a second stop time with this stop_sequence in the trip, the first: \(f)/stop_times.txt:8:5 (stop_sequence): a second stop time with this stop_sequence in the trip: '6'",
            "skipped 1 × stop_times.txt (trip_id): no trip in trips.txt (or it was skipped) with this id, the first: \(f)/stop_times.txt:9:1 (trip_id): no trip in trips.txt (or it was skipped) with this id: 'TX'",
        ])
        XCTAssertEqual(report.info.skipped, 9)
        XCTAssertEqual(report.info.stops, 3)
        XCTAssertEqual(report.info.stopTimes, 3)
        let db = try IndexReader(feed.index)
        XCTAssertEqual(try db.rows("SELECT color FROM routes"), ["NULL"])
    }

    /// The same feed zipped imports the same, and an index written with --out replaces the old
    /// one by rename: a reader holding the old file keeps reading it.
    func testAZippedFeedAndAnIndexReplacedByRename() throws {
        let feed = try SmallFeed()
        defer { feed.remove() }
        let first = try feed.importFeed()
        let reader = try TransitIndex(path: feed.index)
        let zip = feed.directory.appendingPathComponent("feed.zip").path
        let zipped = try runProgram("/bin/sh", ["-c", "cd \(feed.feed) && zip -q -r \(zip) ."])
        XCTAssertEqual(zipped.status, 0, zipped.stderr)
        let second = try TransitImporter.importFeed(at: zip, output: feed.index, cacheDirectory: feed.directory.path) { _ in }
        XCTAssertNotEqual(first.feedHash, second.feedHash)
        XCTAssertEqual(second.info.stopTimes, first.info.stopTimes)
        XCTAssertEqual(second.info.service, first.info.service)
        XCTAssertEqual(reader.feedHash, first.feedHash)
        XCTAssertEqual(try reader.info().stopTimes, 5)
        XCTAssertEqual(try TransitIndex(path: feed.index).feedHash, second.feedHash)
    }
}
