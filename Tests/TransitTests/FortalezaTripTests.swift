import Foundation
import TestSupport
import Transit
import XCTest

/// Trips of the real Fortaleza feed loaded by id, checked against the CSV rows: stops in
/// stop_sequence order, the feed's times kept, its gaps interpolated in between, the stops
/// placed on the shape in order; the calendar's days and the end of the service period.
final class FortalezaTripTests: XCTestCase {
    static let trips = ["D804-T01V01B01-I", "D806-T01V01B01-I", "S816-T01V01B01-I", "D841-T01V01B01-I"]

    /// stop_times.txt's rows of a trip, by stop_sequence: (stop_id, seconds or nil).
    static func csvStopTimes(_ trip: String) throws -> [(sequence: Int, stopID: String, arrival: Int?)] {
        let csv = try runProgram("/usr/bin/unzip", ["-p", FortalezaImportTests.feed, "stop_times.txt"]).stdout
        var rows: [(Int, String, Int?)] = []
        for line in csv.split(whereSeparator: \.isNewline) where line.hasPrefix(trip + ",") {
            let f = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let p = f[1].split(separator: ":").compactMap { Int($0) }
            rows.append((Int(f[4])!, f[3], p.count == 3 ? p[0] * 3600 + p[1] * 60 + p[2] : nil))
        }
        return rows.sorted { $0.0 < $1.0 }
    }

    static func csv(_ file: String) throws -> [[String: String]] {
        let text = try runProgram("/usr/bin/unzip", ["-p", FortalezaImportTests.feed, file]).stdout
        var lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let header = lines.removeFirst().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.filter { !$0.isEmpty }.map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, f))
        }
    }

    func testTripsAreTheirCSVRowsWithGapsInterpolated() throws {
        let index = try TransitIndex(path: FortalezaImportTests.index().report.path)
        let tripRows = try Self.csv("trips.txt"), routeRows = try Self.csv("routes.txt")
        for id in Self.trips {
            let trip = try index.trip(TripChoice(tripID: id))
            let rows = try Self.csvStopTimes(id)
            XCTAssertEqual(trip.stops.map { $0.stopID }, rows.map { $0.stopID }, id)
            XCTAssertEqual(trip.stops.map { $0.sequence }, rows.map { $0.sequence }, id)
            let tripRow = try XCTUnwrap(tripRows.first { $0["trip_id"] == id })
            let routeRow = try XCTUnwrap(routeRows.first { $0["route_id"] == tripRow["route_id"] })
            XCTAssertEqual(trip.route.routeID, routeRow["route_id"])
            XCTAssertEqual(trip.route.shortName, routeRow["route_short_name"])
            XCTAssertEqual(trip.shapeID, tripRow["shape_id"])
            XCTAssertEqual(trip.serviceID, tripRow["service_id"])
            XCTAssertEqual(trip.timeZone, "America/Fortaleza")
            XCTAssertNil(trip.route.color)
            XCTAssertEqual(trip.placement, .snapped)
            // The feed's own times unchanged; each gap filled, in order, strictly between its neighbours' times.
            var interpolated = 0
            for (stop, row) in zip(trip.stops, rows) {
                if let given = row.arrival {
                    XCTAssertEqual(stop.arrival, given, "\(id) \(stop.sequence)")
                    XCTAssertFalse(stop.interpolated)
                } else {
                    XCTAssertTrue(stop.interpolated)
                    interpolated += 1
                }
            }
            XCTAssertEqual(interpolated, rows.filter { $0.arrival == nil }.count)
            let times = trip.stops.compactMap { $0.arrival }
            XCTAssertEqual(times.count, rows.count, "\(id): every stop has a time")
            XCTAssertEqual(times, times.sorted(), id)
            // Distances increase with the sequence, and each stop is beside the line (the feed's
            // stops stand up to about 21 m from its shapes).
            let distances = trip.stops.map { $0.distance }
            XCTAssertEqual(distances, distances.sorted(), id)
            let drive = SyntheticDrive(points: trip.line.points.map { ($0.latitude, $0.longitude) })
            for stop in trip.stops {
                let onLine = drive.position(at: stop.distance)
                XCTAssertLessThan(SyntheticDrive.meters((stop.latitude, stop.longitude), onLine), 30, "\(id) stop \(stop.stopID)")
            }
            XCTAssertEqual(trip.line.length, drive.length, accuracy: drive.length * 0.002)
        }
    }

    /// A stop without a time gets the time its distance along the line gives between the timed
    /// stops around it, measured by the test's own geometry.
    func testInterpolatedTimesFollowTheDistance() throws {
        let index = try TransitIndex(path: FortalezaImportTests.index().report.path)
        let trip = try index.trip(TripChoice(tripID: "D806-T01V01B01-I"))
        let drive = SyntheticDrive(points: trip.line.points.map { ($0.latitude, $0.longitude) })
        let along = drive.stopDistances(trip.stops.map { ($0.latitude, $0.longitude) })
        var checked = 0
        for (k, stop) in trip.stops.enumerated() where stop.interpolated {
            let a = try XCTUnwrap(trip.stops[..<k].lastIndex { !$0.interpolated })
            let b = try XCTUnwrap(trip.stops[(k + 1)...].firstIndex { !$0.interpolated })
            let t0 = Double(trip.stops[a].departure!), t1 = Double(trip.stops[b].arrival!)
            let expected = t0 + (t1 - t0) * (along[k] - along[a]) / (along[b] - along[a])
            XCTAssertEqual(Double(stop.arrival!), expected, accuracy: 3, "stop \(stop.sequence)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 3)
    }

    /// calendar.txt's weekdays and range (D: Sundays, S: Saturdays, 2019-06-14 to 2019-09-14),
    /// asked day by day over the period and a week either side.
    func testServiceDaysAreTheCalendars() throws {
        let index = try TransitIndex(path: FortalezaImportTests.index().report.path)
        let calendar = try Self.csv("calendar.txt")
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = TimeZone(identifier: "UTC")!
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        for id in ["D804-T01V01B01-I", "S816-T01V01B01-I"] {
            let trip = try index.trip(TripChoice(tripID: id))
            let row = try XCTUnwrap(calendar.first { $0["service_id"] == trip.serviceID })
            let first = Int(row["start_date"]!)!, last = Int(row["end_date"]!)!
            var day = gregorian.date(from: DateComponents(year: 2019, month: 6, day: 7))!
            var running = 0
            while day < gregorian.date(from: DateComponents(year: 2019, month: 9, day: 22))! {
                let c = gregorian.dateComponents([.year, .month, .day, .weekday], from: day)
                let date = c.year! * 10000 + c.month! * 100 + c.day!
                let expected = date >= first && date <= last && row[names[c.weekday! - 1]] == "1"
                XCTAssertEqual(try index.runs(trip, onServiceDay: date), expected, "\(id) on \(date)")
                if expected { running += 1 }
                day = gregorian.date(byAdding: .day, value: 1, to: day)!
            }
            XCTAssertGreaterThan(running, 10, id)
        }
    }

    /// The period ends with the agency's local date (UTC−3), not UTC's.
    func testTheServicePeriodEndsAtLocalMidnight() throws {
        let index = try TransitIndex(path: FortalezaImportTests.index().report.path)
        let zone = try TimeZoneRules.load("America/Fortaleza")
        var local = Calendar(identifier: .gregorian)
        local.timeZone = TimeZone(identifier: "America/Fortaleza")!
        func instant(_ day: Int, _ hour: Int, _ minute: Int) -> Int64 {
            Int64(local.date(from: DateComponents(year: 2019, month: 9, day: day, hour: hour, minute: minute))!.timeIntervalSince1970)
        }
        XCTAssertFalse(try index.serviceEnded(at: instant(14, 23, 30), in: zone))
        XCTAssertTrue(try index.serviceEnded(at: instant(15, 0, 30), in: zone))
        // 2019-09-15 01:30 UTC is still the 14th in Fortaleza.
        XCTAssertFalse(try index.serviceEnded(at: instant(14, 22, 30), in: zone))
        XCTAssertEqual(try index.servicePeriod(), ServicePeriod(first: 20_190_614, last: 20_190_914))
    }
}
