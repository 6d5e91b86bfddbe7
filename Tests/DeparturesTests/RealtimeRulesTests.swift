import Departures
import Foundation
import GTFSRealtime
import XCTest

/// GTFS-realtime's TripUpdate rules on Fortaleza's trip U810-T01V05B01-I on 2019-07-03, whose
/// stops 2 (2675), 5 (2666), 8 (2662) and 9 (2657) leave at 08:34, 08:37, 08:40 and 08:41;
/// stop 3 leaves at 08:35. The board is read at 08:20.
final class RealtimeRulesTests: XCTestCase {
    typealias F = BoardFixture
    let trip = BoardFixture.trip

    override class func tearDown() { BoardFixture.removeAll() }

    /// A delay at stop 3 holds at stop 8 (live); stop 2, before any update, keeps the timetable.
    func testADelayCarriesToLaterStopsNotEarlierOnes() throws {
        let board = try F.board("delay_at_3", stops: ["2675", "2662"])
        let later = try XCTUnwrap(board.row(trip, "2662"))
        XCTAssertEqual(later.scheduled, F.local(8, 40))
        XCTAssertEqual(later.predicted, F.local(8, 42))
        XCTAssertTrue(later.live)
        XCTAssertEqual(later.minutes, 22)
        XCTAssertEqual(later.timetable.headsign, "PRAÇA TERMINAL PAPICU, SN", "no headsign in the feed: its last stop's name")
        let earlier = try XCTUnwrap(board.row(trip, "2675"))
        XCTAssertEqual(earlier.scheduled, F.local(8, 34))
        XCTAssertNil(earlier.predicted)
        XCTAssertFalse(earlier.live)
        // Other trips at the stop are the timetable's.
        XCTAssertTrue(board.departures.filter { $0.timetable.tripID != trip }.allSatisfy { !$0.live && $0.predicted == nil })
        XCTAssertEqual(board.tally.applied, 1)
    }

    /// A SCHEDULED update at stop 6 without times ends stop 3's delay: stop 5 still late, stop 8
    /// on the timetable and not live. NO_DATA at stop 6 does the same.
    func testScheduledOrNoDataEndTheDelay() throws {
        for feed in ["scheduled_at_6", "no_data_at_6"] {
            let board = try F.board(feed, stops: ["2666", "2662"])
            let before = try XCTUnwrap(board.row(trip, "2666"), feed)
            XCTAssertEqual(before.predicted, F.local(8, 39), feed)
            XCTAssertTrue(before.live, feed)
            let after = try XCTUnwrap(board.row(trip, "2662"), feed)
            XCTAssertNil(after.predicted, feed)
            XCTAssertFalse(after.live, feed)
            XCTAssertEqual(after.time, F.local(8, 40), feed)
        }
    }

    /// A SKIPPED stop 8 (named by stop_id) is marked so, and stop 3's delay goes on to stop 9.
    func testASkippedStopIsMarkedAndPassesTheDelayOn() throws {
        let board = try F.board("skipped_8", stops: ["2662", "2657"])
        let skipped = try XCTUnwrap(board.row(trip, "2662"))
        XCTAssertTrue(skipped.skipped)
        XCTAssertNil(skipped.predicted)
        let next = try XCTUnwrap(board.row(trip, "2657"))
        XCTAssertFalse(next.skipped)
        XCTAssertEqual(next.predicted, F.local(8, 43))
        XCTAssertTrue(next.live)
    }

    /// `time` (5 minutes late) wins over `delay` (1 minute) in the same event.
    func testTimeWinsOverDelay() throws {
        let row = try XCTUnwrap(F.board("time_beats_delay", stops: ["2662"]).row(trip, "2662"))
        XCTAssertEqual(row.predicted, F.local(8, 45))
    }

    /// Only an arrival delay (3 minutes) given: the departure takes it.
    func testAMissingDepartureTakesTheArrivalsDelay() throws {
        let row = try XCTUnwrap(F.board("arrival_only", stops: ["2662"]).row(trip, "2662"))
        XCTAssertEqual(row.predicted, F.local(8, 43))
        XCTAssertTrue(row.live)
    }

    func testACanceledTripStaysMarkedCancelled() throws {
        let row = try XCTUnwrap(F.board("canceled", stops: ["2662"]).row(trip, "2662"))
        XCTAssertTrue(row.cancelled)
        XCTAssertNil(row.predicted)
        XCTAssertEqual(row.scheduled, F.local(8, 40))
    }

    func testADeletedTripIsGone() throws {
        let plain = try F.board(nil, stops: ["2662"])
        let board = try F.board("deleted", stops: ["2662"])
        XCTAssertNotNil(plain.row(trip, "2662"))
        XCTAssertNil(board.row(trip, "2662"))
        XCTAssertEqual(board.departures.count, plain.departures.count - 1)
    }

    /// A NEW trip's own stop times make its row, its route from route_id; its last stop is none.
    func testANewTripAppearsFromItsOwnStopTimes() throws {
        let board = try F.board("new_trip", stops: ["2662", "2657"])
        let row = try XCTUnwrap(board.row("NEW-1", "2662"))
        XCTAssertEqual(row.predicted, F.local(9, 6))
        XCTAssertTrue(row.live)
        XCTAssertEqual(row.timetable.route.shortName, "810-Papicu/Praia do Futuro")
        XCTAssertNil(board.row("NEW-1", "2657"))
    }

    /// REPLACEMENT: the run's timetable row gives way to the update's own time (one row, live);
    /// the deprecated ADDED is read as NEW.
    func testAReplacementReplacesTheRunAndAddedIsNew() throws {
        let board = try F.board("replacement_and_added", stops: ["2662"])
        let replaced = board.departures.filter { $0.timetable.tripID == trip }
        XCTAssertEqual(replaced.map(\.time), [F.local(8, 50)])
        XCTAssertEqual(replaced.first?.live, true)
        XCTAssertEqual(replaced.first?.timetable.route.routeID, "810")
        let added = try XCTUnwrap(board.row("ADDED-1", "2662"))
        XCTAssertEqual(added.predicted, F.local(9, 15))
        XCTAssertEqual(board.tally.applied, 2)
    }

    /// DUPLICATED: the trip again from 09:02 (30 minutes after its 08:32), under its new id; the
    /// timetable's run stays.
    func testADuplicatedTripIsACopyAtTheNewStart() throws {
        let board = try F.board("duplicated", stops: ["2662"])
        let copy = try XCTUnwrap(board.row("U810-DUPLICATE", "2662"))
        XCTAssertEqual(copy.scheduled, F.local(9, 10))
        XCTAssertEqual(copy.timetable.route.routeID, "810")
        XCTAssertEqual(try XCTUnwrap(board.row(trip, "2662")).scheduled, F.local(8, 40))
    }

    /// A trip and a stop the timetable lacks are counted, not applied, and change nothing.
    func testUnknownTripsAndStopsAreCounted() throws {
        let board = try F.board("unknown", stops: ["2662"])
        XCTAssertEqual(board.tally.unknownTrips, 1)
        XCTAssertEqual(board.tally.unknownStops, 1)
        XCTAssertEqual(board.departures, try F.board(nil, stops: ["2662"]).departures)
    }

    /// A time no subtraction can hold and a stop_sequence past any stop: no prediction, no trap
    /// (Int may be 32-bit), the sequence counted as an unknown stop.
    func testOutOfRangeValuesGiveNoPrediction() throws {
        let board = try F.board("out_of_range", stops: ["2662"])
        let row = try XCTUnwrap(board.row(trip, "2662"))
        XCTAssertNil(row.predicted)
        XCTAssertFalse(row.live)
        XCTAssertEqual(board.tally.unknownStops, 1)
    }

    /// No start_date: the run of the service day nearest now (today's, not yesterday's).
    func testNoStartDateMeansTheDayNearestNow() throws {
        let board = try F.board("no_start_date", stops: ["2662"], from: F.local(8, 20) - 86400)
        XCTAssertEqual(try XCTUnwrap(board.row(trip, "2662")).predicted, F.local(8, 44))
    }

    /// A frequencies trip's run is matched by start_time and takes `time` only: a delay leaves
    /// it on the timetable; a time moves it, and only the run named.
    func testAFrequencyTripTakesTimeOnly() throws {
        let index = try F.frequencyIndex()
        let delayed = try F.board("freq_delay", stops: ["STA"], index: index)
        let run = try XCTUnwrap(delayed.departures.first { $0.scheduled == F.local(8, 20) })
        XCTAssertNil(run.predicted)
        XCTAssertFalse(run.live)
        let timed = try F.board("freq_time", stops: ["STA"], index: index)
        let moved = try XCTUnwrap(timed.departures.first { $0.scheduled == F.local(8, 20) })
        XCTAssertEqual(moved.predicted, F.local(8, 23))
        XCTAssertTrue(moved.live)
        XCTAssertEqual(timed.departures.filter(\.live).count, 1)
    }
}
