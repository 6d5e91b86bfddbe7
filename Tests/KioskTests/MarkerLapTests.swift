import Foundation
import GTFSRealtime
@testable import Kiosk
import TestSupport
import Transit
import XCTest

/// A line that passes one street twice — out north along one side, back south along the other,
/// 30 m apart — and a board at a stop of the way back. A vehicle there is put on the lap its
/// VehiclePosition names, else on the one its timetable puts it on, never on the nearest by
/// chance; one far off the line is drawn where it is, as diverted.
final class MarkerLapTests: XCTestCase {
    static let origin = (lat: 51.77, lon: 19.47)
    static func at(x: Double, y: Double) -> (lat: Double, lon: Double) {
        (origin.lat + y / 111_320.0, origin.lon + x / (111_320.0 * cos(origin.lat * .pi / 180)))
    }

    /// The feed: shape U north 2 km at x = 0, across 30 m, back south at x = 30; stops every
    /// 500 m each way, a minute apart from 09:00 (Europe/Warsaw), trip U1 every day of 2027.
    func index() throws -> (TransitIndex, URL) {
        let folder = try TestEnvironment.temporaryDirectory("marker-lap")
        let feed = folder.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        var shape = "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\n", n = 0
        func point(_ x: Double, _ y: Double) { n += 1; let p = Self.at(x: x, y: y); shape += "U,\(p.lat),\(p.lon),\(n)\n" }
        for y in stride(from: 0.0, through: 2000, by: 100) { point(0, y) }
        for y in stride(from: 2000.0, through: 0, by: -100) { point(30, y) }
        var stops = "stop_id,stop_name,stop_lat,stop_lon\n", times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        let places: [(String, Double, Double)] = [("N0", 0, 0), ("N1", 0, 500), ("N2", 0, 1000), ("N3", 0, 1500), ("T", 15, 2000),
                                                  ("S3", 30, 1500), ("S2", 30, 1000), ("S1", 30, 500), ("S0", 30, 0)]
        for (i, (id, x, y)) in places.enumerated() {
            let p = Self.at(x: x, y: y)
            stops += "\(id),\(id),\(p.lat),\(p.lon)\n"
            times += String(format: "U1,09:%02d:00,09:%02d:00,%@,%d\n", i, i, id, i + 1)
        }
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nM,Metro,https://example.org,Europe/Warsaw\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nALL,1,1,1,1,1,1,1,20270101,20271231\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR,M,8,3\n",
            "trips.txt": "route_id,service_id,trip_id,shape_id\nR,ALL,U1,U\n",
            "stops.txt": stops, "stop_times.txt": times, "shapes.txt": shape,
        ]
        for (name, text) in files { try Data(text.utf8).write(to: feed.appendingPathComponent(name)) }
        let report = try TransitImporter.importFeed(at: feed.path, cacheDirectory: folder.path) { _ in }
        return (try TransitIndex(path: report.path), folder)
    }

    func vehicle(_ id: String, x: Double, y: Double, sequence: UInt32? = nil) -> FeedEntity {
        var v = VehiclePosition()
        var d = TripDescriptor()
        d.tripID = "U1"
        v.trip = d
        var who = VehicleDescriptor()
        who.id = id
        v.vehicle = who
        var p = Position()
        let place = Self.at(x: x, y: y)
        p.latitude = Float(place.lat)
        p.longitude = Float(place.lon)
        v.position = p
        v.currentStopSequence = sequence
        var e = FeedEntity()
        e.id = id
        e.vehicle = v
        return e
    }

    func testTheRightLapTheTimetablesOrTheOneNamedAndADivertedVehicleWhereItIs() throws {
        let (index, folder) = try index()
        defer { try? FileManager.default.removeItem(at: folder) }
        let zone = try TimeZoneRules.load("Europe/Warsaw")
        let model = try KioskModel(index: index, zone: zone, stopIDs: ["S1"], settings: KioskModel.Settings())
        // 2027-03-10 09:05:30 in Warsaw (UTC+1): the run is between S3 and S2 on its way back.
        let now = 1_804_666_530.0
        let scheduled = try index.departures(at: ["S1"], from: Int64(now) - 3600, to: Int64(now) + 5400, in: zone)
        XCTAssertEqual(scheduled.map { $0.tripID }, ["U1"])
        let trip = try XCTUnwrap(model.trip("U1"))
        let back = trip.stops[5].distance, s2 = trip.stops[6].distance
        func markers(_ entities: [FeedEntity]) throws -> [VehicleMarker] {
            try model.markers(FeedMessage(header: FeedHeader(), entities: entities), scheduled: scheduled, rows: [], now: now, headerTime: now)
        }

        // At y = 1200, 10 m from the way out and 20 m from the way back (GPS puts a bus on either
        // side of its street): the timetable says the way back (about 2.8 km along), not the
        // nearest, the way out (1.2 km).
        let timed = try XCTUnwrap(try markers([vehicle("V1", x: 10, y: 1200)]).first)
        XCTAssertEqual(timed.along, back + 300, accuracy: 40)
        XCTAssertNil(timed.diverted)
        // Next fetch, 100 m on: along the way back, not across to the way out.
        let on = try XCTUnwrap(try markers([vehicle("V1", x: 10, y: 1100)]).first)
        XCTAssertEqual(on.along, back + 400, accuracy: 40)

        // A vehicle that names its stop (in transit to S2, sequence 7) is put between S3 and S2.
        let named = try XCTUnwrap(try markers([vehicle("V2", x: 15, y: 1300, sequence: 7)]).first)
        XCTAssertEqual(named.along, s2 - 300, accuracy: 40)
        // One that names the way out's N3 (sequence 4) is taken at its word: past the board's
        // stop it would not be, so it is shown on the way out.
        let out = try XCTUnwrap(try markers([vehicle("V3", x: 15, y: 1300, sequence: 4)]).first)
        XCTAssertEqual(out.along, 1300, accuracy: 40)

        // 400 m east of its line: drawn where it is, as diverted, not snapped onto the line.
        let away = try XCTUnwrap(try markers([vehicle("V4", x: 430, y: 1200)]).first)
        let place = Self.at(x: 430, y: 1200)
        XCTAssertEqual(try XCTUnwrap(away.diverted).latitude, place.lat, accuracy: 1e-5)
        XCTAssertEqual(try XCTUnwrap(away.diverted).longitude, place.lon, accuracy: 1e-5)
    }
}
