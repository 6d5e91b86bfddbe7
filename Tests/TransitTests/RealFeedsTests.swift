import Foundation
import TestSupport
import Transit
import XCTest

/// Two more real agencies' feeds beside Fortaleza's, as `deploy/install-deps --test` fetches them
/// (the data of gtfs-kit's source distribution on PyPI, pinned by hash): Cairns's buses (route
/// colours, holidays in calendar_dates, 2014) and New York City's subway (550 trips on one shape
/// of the 1 line, Christmas in calendar_dates, 2024–25). Each imports whole; trips follow their
/// stop_times; the holidays move service; `trip = auto` tells a subway train among the hundreds
/// on its shape by the clock.
final class RealFeedsTests: XCTestCase {
    static var folder: String {
        (ProcessInfo.processInfo.environment["PULSEDOT_CACHE"] ?? "/var/cache/pulsedot-test") + "/gtfs-feeds"
    }

    nonisolated(unsafe) static var imported: [String: (report: TransitImporter.Report, directory: URL)] = [:]

    static func index(_ name: String) throws -> TransitImporter.Report {
        if let known = imported[name] { return known.report }
        let feed = folder + "/" + name
        guard FileManager.default.fileExists(atPath: feed) else {
            throw TestFailure("\(feed) is missing: deploy/install-deps --test fetches it")
        }
        let directory = try TestEnvironment.temporaryDirectory("realfeed")
        let report = try TransitImporter.importFeed(at: feed, cacheDirectory: directory.path) { _ in }
        imported[name] = (report, directory)
        return report
    }

    override class func tearDown() {
        for (_, i) in imported { try? FileManager.default.removeItem(at: i.directory) }
        imported = [:]
    }

    /// Data rows of one file of a feed (its lines, the header aside).
    static func rows(_ name: String, _ file: String) throws -> Int {
        let text = try runProgram("/usr/bin/unzip", ["-p", folder + "/" + name, file]).stdout
        return text.split(whereSeparator: \.isNewline).count - 1
    }

    func testCairnsBusesImportWholeWithTheirColoursHolidaysAndStops() throws {
        let report = try Self.index("cairns_gtfs.zip")
        XCTAssertEqual(report.skipped, [])
        XCTAssertEqual(report.info.trips, try Self.rows("cairns_gtfs.zip", "trips.txt"))
        XCTAssertEqual(report.info.stopTimes, try Self.rows("cairns_gtfs.zip", "stop_times.txt"))
        XCTAssertEqual(report.info.agencies.first?.timezone, "Australia/Brisbane")
        let index = try TransitIndex(path: report.path)
        // The first trips of the three busiest routes, driven with dwells and 15 m of noise.
        for id in ["CNS2014-CNS_MUL-Weekday-00-4165878"] + (try Self.firstTrips(of: ["111-423", "123-423"])) {
            let trip = try index.trip(TripChoice(tripID: id))
            XCTAssertNotNil(trip.shapeID, id)
            if id.hasSuffix("4165878") {
                XCTAssertEqual(trip.route.shortName, "110")
                XCTAssertEqual(trip.route.color, 0x7BC142)
                XCTAssertEqual(trip.route.textColor, 0x000000)
                XCTAssertEqual(trip.destination, "The Pier Cairns Terminus")
                // Weekday service, taken out on the Queen's Birthday (Monday 2014-06-09).
                XCTAssertFalse(try index.runs(trip, onServiceDay: 20140609))
                XCTAssertTrue(try index.runs(trip, onServiceDay: 20140610))
                XCTAssertFalse(try index.runs(trip, onServiceDay: 20140614), "a Saturday")
            }
            let drive = SyntheticDrive(points: trip.line.points.map { ($0.latitude, $0.longitude) })
            let along = drive.stopDistances(trip.stops.map { ($0.latitude, $0.longitude) })
            var progress = RouteProgress(trip: trip)
            let outcome = DriveOutcome(drive.fixes(dwellAt: along.enumerated().map { ($0.offset, $0.element) }, seed: 11), progress: &progress)
            let announced = trip.stops.indices.filter { trip.stops[$0].announced }
            XCTAssertEqual(outcome.arrivals.map { $0.stop }.filter { announced.contains($0) }, announced, id)
            XCTAssertEqual(outcome.offRoute, 0, id)
            XCTAssertEqual(outcome.passed, [], id)
        }
    }

    /// The first trip_id of each route, in trips.txt's order.
    static func firstTrips(of routes: [String]) throws -> [String] {
        let text = try runProgram("/usr/bin/unzip", ["-p", folder + "/cairns_gtfs.zip", "trips.txt"]).stdout
        var out: [String] = []
        for route in routes {
            guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix(route + ",") }) else { continue }
            out.append(String(line.split(separator: ",")[2]))
        }
        return out
    }

    func testNewYorkSubwayTrainsAreToldByTheClockAmongHundredsOnOneShape() throws {
        let report = try Self.index("nyc_subway_gtfs.zip")
        XCTAssertEqual(report.skipped, [])
        XCTAssertEqual(report.info.stopTimes, try Self.rows("nyc_subway_gtfs.zip", "stop_times.txt"))
        let index = try TransitIndex(path: report.path)
        let zone = try TimeZoneRules.load("America/New_York")
        let line = try XCTUnwrap(try index.shapeLine("1..S03R"))
        let onShape = try index.scheduledTrips(onShape: "1..S03R", line: line)
        XCTAssertEqual(onShape.count, 550)
        // Sunday trains on 2024-12-22, Christmas Day (a Wednesday) running Sunday service.
        for (date, service) in [(20241222, "Sunday"), (20241225, "Sunday")] {
            for noon in [12 * 3600, 12 * 3600 + 7 * 60] {
                let candidates = onShape.filter { $0.tripID.contains("-\(service)-") }
                let due = try XCTUnwrap(candidates.min { abs(($0.firstDeparture ?? 0) - noon) < abs(($1.firstDeparture ?? 0) - noon) })
                let trip = try index.trip(TripChoice(tripID: due.tripID))
                XCTAssertTrue(try index.runs(trip, onServiceDay: date), "\(due.tripID) on \(date)")
                let drive = try TripDetectorTests.drive(TripChoice(tripID: due.tripID), index: index, zone: zone, date: date, from: 3, to: 12)
                let outcome = try XCTUnwrap(TripDetectorTests.decide(TripDetector(index: index, zone: zone), drive.fixes), due.tripID)
                XCTAssertEqual(outcome.decision.choice.tripID, due.tripID, outcome.decision.reason)
                XCTAssertLessThanOrEqual(abs(outcome.decision.late), 60, outcome.decision.reason)
                XCTAssertTrue(outcome.decision.reason.contains("on service day \(TransitIndex.dateText(date))"), outcome.decision.reason)
            }
        }
        // Weekday trains do not run on Christmas Day.
        let weekday = try XCTUnwrap(onShape.first { $0.tripID.contains("-Weekday-") })
        XCTAssertFalse(try index.runs(try index.trip(TripChoice(tripID: weekday.tripID)), onServiceDay: 20241225))
        XCTAssertTrue(try index.runs(try index.trip(TripChoice(tripID: weekday.tripID)), onServiceDay: 20241224))
    }
}
