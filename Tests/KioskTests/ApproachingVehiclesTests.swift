import Foundation
import GTFSRealtime
@testable import Kiosk
import TestSupport
import Transit
import XCTest

/// The vehicles a stop's screen draws, on Fortaleza's real feed: Wednesday 2019-07-03, trip
/// U810-T01V05B01-I leaving stop 2662 (its stop 8) at 08:40; Fortaleza keeps UTC-3, so the
/// service day starts at 1,562,122,800 (counted by hand).
final class ApproachingVehiclesTests: XCTestCase {
    static let dayStart: Int64 = 1_562_122_800
    static let trip = "U810-T01V05B01-I"
    nonisolated(unsafe) static var imported: (index: TransitIndex, folder: URL)?

    func index() throws -> TransitIndex {
        if let imported = Self.imported { return imported.index }
        let folder = try TestEnvironment.temporaryDirectory("kiosk-vehicles")
        let report = try TransitImporter.importFeed(at: "/work/shared/testdata/gtfs/fortaleza.zip", cacheDirectory: folder.path) { _ in }
        let index = try TransitIndex(path: report.path)
        Self.imported = (index, folder)
        return index
    }

    func vehicle(_ id: String, trip: String, at stop: Trip.Stop, sequence: UInt32? = nil, time: UInt64? = nil) -> FeedEntity {
        var v = VehiclePosition()
        var d = TripDescriptor()
        d.tripID = trip
        v.trip = d
        var who = VehicleDescriptor()
        who.id = id
        v.vehicle = who
        var p = Position()
        p.latitude = Float(stop.latitude)
        p.longitude = Float(stop.longitude)
        p.bearing = 90
        v.position = p
        v.currentStopSequence = sequence
        v.timestamp = time
        var e = FeedEntity()
        e.id = id
        e.vehicle = v
        return e
    }

    func testVehiclesComingToTheStopNeverMoveBack() throws {
        let index = try index()
        let zone = try TimeZoneRules.load("America/Fortaleza")
        var settings = KioskModel.Settings()
        settings.staleAfter = 120
        let model = try KioskModel(index: index, zone: zone, stopIDs: ["2662"], settings: settings)
        let now = Double(Self.dayStart + 8 * 3600 + 33 * 60)
        let scheduled = try index.departures(at: ["2662"], from: Int64(now) - 3600, to: Int64(now) + 5400, in: zone)
        let trip = try XCTUnwrap(model.trip(Self.trip))
        let other = try XCTUnwrap(scheduled.first { $0.tripID != Self.trip && $0.departure > Int64(now) })
        func feed(_ entities: [FeedEntity]) -> FeedMessage { FeedMessage(header: FeedHeader(), entities: entities) }
        func markers(_ entities: [FeedEntity]) throws -> [VehicleMarker] {
            try model.markers(feed(entities), scheduled: scheduled, rows: [], now: now, headerTime: now)
        }

        // At its stop 3, then reported back at stop 2 (a stray fix): it stays; then at stop 5.
        let three = try markers([vehicle("V1", trip: Self.trip, at: trip.stops[2], time: UInt64(now))])
        XCTAssertEqual(three.count, 1)
        XCTAssertEqual(three[0].along, trip.stops[2].distance, accuracy: 30)
        XCTAssertFalse(three[0].old)
        let back = try markers([vehicle("V1", trip: Self.trip, at: trip.stops[1], time: UInt64(now))])
        XCTAssertEqual(back[0].along, three[0].along, "never back along the line")
        let five = try markers([vehicle("V1", trip: Self.trip, at: trip.stops[4], time: UInt64(now))])
        XCTAssertEqual(five[0].along, trip.stops[4].distance, accuracy: 30)

        // Past the stop by its current_stop_sequence, or by its place: no marker.
        XCTAssertTrue(try markers([vehicle("V2", trip: Self.trip, at: trip.stops[4], sequence: 9)]).isEmpty)
        XCTAssertTrue(try markers([vehicle("V3", trip: Self.trip, at: trip.stops[11])]).isEmpty)
        // On a trip that does not come here within the window: none.
        XCTAssertTrue(try markers([vehicle("V4", trip: "no-such-trip", at: trip.stops[2])]).isEmpty)
        // A place reported ten minutes ago is old: drawn faded.
        let old = try markers([vehicle("V5", trip: Self.trip, at: trip.stops[2], time: UInt64(now) - 600)])
        XCTAssertEqual(old.first?.old, true)

        // The soonest departure first; `vehicles` caps them.
        let otherTrip = try XCTUnwrap(model.trip(other.tripID))
        let both = try markers([vehicle("V7", trip: other.tripID, at: otherTrip.stops[0]), vehicle("V6", trip: Self.trip, at: trip.stops[2])])
        XCTAssertEqual(both.map { $0.vehicleID }, other.departure < Self.dayStart + 8 * 3600 + 40 * 60 ? ["V7", "V6"] : ["V6", "V7"])
        var one = settings
        one.vehicles = 1
        let capped = try KioskModel(index: index, zone: zone, stopIDs: ["2662"], settings: one)
        XCTAssertEqual(try capped.markers(feed([vehicle("V7", trip: other.tripID, at: otherTrip.stops[0]), vehicle("V6", trip: Self.trip, at: trip.stops[2])]),
                                          scheduled: scheduled, rows: [], now: now, headerTime: now).count, 1)
    }
}
