import Foundation
import TestSupport
import Transit
import XCTest

/// Trips of the small written feed (SmallFeed): shape_dist_traveled converted to metres, a
/// frequencies run chosen by its start, service days across midnight in the agency's zone, a
/// feed with calendar_dates only, and the errors of a trip that is not there.
final class SmallFeedTripTests: XCTestCase {
    func index(_ changes: [String: String?] = [:]) throws -> (SmallFeed, TransitIndex) {
        let feed = try SmallFeed(changes)
        _ = try feed.importFeed()
        return (feed, try TransitIndex(path: feed.index))
    }

    /// T1's stops on SH1 by shape_dist_traveled (the feed's unit is not the metre: the stops
    /// land on the shape's points, measured in metres), S2's missing time by that distance.
    func testShapeDistIsConvertedToMetresAndGapsInterpolated() throws {
        let (feed, index) = try index()
        defer { feed.remove() }
        let trip = try index.trip(TripChoice(tripID: "T1"))
        XCTAssertEqual(trip.placement, .shapeDistTraveled)
        XCTAssertEqual(trip.route, Trip.Route(routeID: "R1", shortName: "7", longName: "Dworzec – Łódź Fabryczna", type: 3, color: 0xE2001A, textColor: 0xFFFFFF))
        XCTAssertEqual(trip.headsign, "Dworzec")
        XCTAssertEqual(trip.timeZone, "Europe/Warsaw")
        XCTAssertEqual(trip.stops.map { $0.stopID }, ["S1", "S2", "S3"])
        XCTAssertEqual(trip.stops.map { $0.name }, ["Łódź Fabryczna", "Piotrkowska, róg", "Dworzec"])
        XCTAssertEqual(trip.stops[1].headsign, "Dworzec, peron 1")
        let leg1 = SyntheticDrive.meters((51.77, 19.47), (51.76, 19.458)), leg2 = SyntheticDrive.meters((51.76, 19.458), (51.75, 19.44))
        XCTAssertEqual(trip.stops[0].distance, 0, accuracy: 0.01)
        XCTAssertEqual(trip.stops[1].distance, leg1, accuracy: leg1 * 0.002)
        XCTAssertEqual(trip.stops[2].distance, leg1 + leg2, accuracy: (leg1 + leg2) * 0.002)
        XCTAssertNotEqual(trip.stops[1].distance, 1500.5, accuracy: 50)
        let leave = 23 * 3600 + 51 * 60, reach = 24 * 3600 + 10 * 60 + 30
        XCTAssertEqual(Double(trip.stops[1].arrival!), Double(leave) + Double(reach - leave) * leg1 / (leg1 + leg2), accuracy: 1)
        XCTAssertTrue(trip.stops[1].interpolated)
        XCTAssertEqual(trip.stops.map { $0.departure }, [leave, trip.stops[1].arrival, reach])
        // S1 drops nobody off and S3 picks nobody up: both still announced.
        XCTAssertEqual(trip.stops.map { $0.announced }, [true, true, true])
        XCTAssertEqual(trip.destination, "Dworzec")
    }

    func testAFrequenciesRunIsChosenByItsStart() throws {
        let (feed, index) = try index()
        defer { feed.remove() }
        let template = try index.trip(TripChoice(tripID: "T2"))
        XCTAssertEqual(template.frequencies, [Trip.Frequency(start: 6 * 3600, end: 9 * 3600, headway: 600, exactTimes: true)])
        XCTAssertEqual(template.stops.map { $0.arrival }, [8 * 3600, 8 * 3600 + 20 * 60])
        let run = try index.trip(TripChoice.parse("T2@06:10:00"))
        XCTAssertEqual(run.runStart, 6 * 3600 + 600)
        XCTAssertEqual(run.stops.map { $0.arrival }, [6 * 3600 + 600, 6 * 3600 + 600 + 20 * 60])
        XCTAssertEqual(run.stops.map { $0.departure }, run.stops.map { $0.arrival })
        // Without shapes.txt's distances for T2 the stops are snapped to SH1's ends.
        XCTAssertEqual(run.placement, .snapped)
        XCTAssertEqual(run.stops.last!.distance, run.line.length, accuracy: 1)
        XCTAssertThrowsError(try index.trip(TripChoice.parse("T2@06:05:00"))) { error in
            XCTAssertEqual("\(error)", "trip 'T2@06:05:00': no run starts then (frequencies.txt: 06:00:00-09:00:00 every 600 s exactly)")
        }
        XCTAssertThrowsError(try index.trip(TripChoice.parse("T2@09:10:00")))
        XCTAssertNoThrow(try index.trip(TripChoice.parse("T1@23:51:00")))
        XCTAssertThrowsError(try index.trip(TripChoice.parse("T1@23:00:00"))) { error in
            XCTAssertEqual("\(error)", "trip 'T1@23:00:00': not in frequencies.txt: its one run starts at 23:51:00")
        }
    }

    func testATripThatIsNotThereIsOneLine() throws {
        let (feed, index) = try index()
        defer { feed.remove() }
        XCTAssertThrowsError(try index.trip(TripChoice.parse("T9"))) { error in
            XCTAssertEqual("\(error)", "\(feed.index): no trip 'T9' in the feed's trips.txt")
        }
        XCTAssertThrowsError(try index.trip(TripChoice(tripID: "T1\nx"))) { error in
            XCTAssertEqual("\(error)", "\(feed.index): no trip 'T1\\nx' in the feed's trips.txt")
        }
    }

    /// A trip at 25:00-25:10 on Fridays: at 01:05 on Saturday it is Friday's run, 300 s into
    /// its 25th hour; on Friday at 01:05 only Friday itself runs it (tonight); the zone's origin
    /// is Warsaw's noon minus 12 h, as Foundation's zone computes it.
    func testATripPastMidnightBelongsToTheDayBefore() throws {
        let (feed, index) = try index([
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,0,0,0,0,1,0,0,20250101,20251231\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,25:00:00,25:00:00,S1,1\nT1,25:10:00,25:10:00,S3,2\n",
        ])
        defer { feed.remove() }
        let zone = try TimeZoneRules.load("Europe/Warsaw")
        var warsaw = Calendar(identifier: .gregorian)
        warsaw.timeZone = TimeZone(identifier: "Europe/Warsaw")!
        func instant(_ day: Int, _ hour: Int, _ minute: Int) -> Int64 {
            Int64(warsaw.date(from: DateComponents(year: 2025, month: 6, day: day, hour: hour, minute: minute))!.timeIntervalSince1970)
        }
        let trip = try index.trip(TripChoice(tripID: "T1"))
        XCTAssertEqual(trip.firstDeparture, 25 * 3600)
        // 2025-06-13 is a Friday.
        XCTAssertTrue(try index.runs(trip, onServiceDay: 20_250_613))
        XCTAssertFalse(try index.runs(trip, onServiceDay: 20_250_614))
        let saturday = try index.serviceDay(of: trip, at: instant(14, 1, 5), in: zone)
        XCTAssertEqual(saturday.date, 20_250_613)
        XCTAssertTrue(saturday.runs)
        XCTAssertEqual(saturday.seconds, 25 * 3600 + 300)
        XCTAssertEqual(saturday.origin, instant(13, 0, 0))
        let friday = try index.serviceDay(of: trip, at: instant(13, 1, 5), in: zone)
        XCTAssertEqual(friday.date, 20_250_613)
        XCTAssertEqual(friday.seconds, 3900)
        let tuesday = try index.serviceDay(of: trip, at: instant(17, 1, 5), in: zone)
        XCTAssertEqual(tuesday.date, 20_250_617)
        XCTAssertFalse(tuesday.runs)
    }

    /// Without calendar.txt: the added date runs, the days around it do not, and the period is
    /// that one day, over at the agency's midnight.
    func testCalendarDatesAloneGiveTheServiceDays() throws {
        let (feed, index) = try index(["calendar.txt": nil])
        defer { feed.remove() }
        let trip = try index.trip(TripChoice(tripID: "T1"))
        XCTAssertTrue(try index.runs(trip, onServiceDay: 20_260_105))
        XCTAssertFalse(try index.runs(trip, onServiceDay: 20_260_104))
        XCTAssertFalse(try index.runs(trip, onServiceDay: 20_260_106))
        XCTAssertFalse(try index.runs(trip, onServiceDay: 20_250_501))
        let zone = try TimeZoneRules.load("Europe/Warsaw")
        var warsaw = Calendar(identifier: .gregorian)
        warsaw.timeZone = TimeZone(identifier: "Europe/Warsaw")!
        func instant(_ day: Int, _ hour: Int) -> Int64 {
            Int64(warsaw.date(from: DateComponents(year: 2026, month: 1, day: day, hour: hour, minute: 30))!.timeIntervalSince1970)
        }
        XCTAssertFalse(try index.serviceEnded(at: instant(5, 23), in: zone))
        XCTAssertTrue(try index.serviceEnded(at: instant(6, 0), in: zone))
    }

    /// With calendar.txt, the removed date (a Thursday) is off and the next day on.
    func testARemovedDateIsOff() throws {
        let (feed, index) = try index()
        defer { feed.remove() }
        let trip = try index.trip(TripChoice(tripID: "T1"))
        XCTAssertFalse(try index.runs(trip, onServiceDay: 20_250_501))
        XCTAssertTrue(try index.runs(trip, onServiceDay: 20_250_502))
        XCTAssertFalse(try index.runs(trip, onServiceDay: 20_250_503))
        XCTAssertTrue(try index.runs(trip, onServiceDay: 20_260_105))
    }
}
