@testable import Demo
import Foundation
import Geo
import TestSupport
import Transit
import XCTest

/// The demo town's GTFS feed: a feed the daemon's own importer takes whole, whose trip is the
/// drive — its line the route, its stops on it in the order the bus reaches them, its times the
/// drive's, on the drive's service day.
final class DemoFeedTests: XCTestCase {
    struct Imported {
        let feed: DemoFeed
        let report: TransitImporter.Report
        let index: TransitIndex
        let trip: Trip
    }

    nonisolated(unsafe) static var shared: Imported?

    private func imported() throws -> Imported {
        if let shared = Self.shared { return shared }
        let dir = try TestEnvironment.temporaryDirectory("demo-feed").path
        let feed = DemoFeed()
        try feed.write(to: dir + "/town-gtfs")
        let report = try TransitImporter.importFeed(at: dir + "/town-gtfs", cacheDirectory: dir + "/cache") { _ in }
        let index = try TransitIndex(path: report.path)
        let made = Imported(feed: feed, report: report, index: index, trip: try index.trip(TripChoice(tripID: DemoFeed.tripID)))
        Self.shared = made
        return made
    }

    func testTheImporterTakesTheFeedWhole() throws {
        let i = try imported()
        XCTAssertEqual(i.report.skipped, [], "rows the importer left out")
        let info = i.report.info
        XCTAssertEqual(info.agencies.map(\.name), [DemoFeed.agencyName])
        XCTAssertEqual(info.agencies.map(\.timezone), ["Etc/UTC"])
        XCTAssertEqual([info.routes, info.trips, info.stops, info.stopTimes, info.shapes], [1, 1, 6, 7, 1])
        XCTAssertEqual(info.untimedStopTimes, 0)
        XCTAssertEqual(info.shapePoints, i.feed.drive.town.route.points.count)
        XCTAssertEqual(i.trip.route.shortName, "12")
        XCTAssertEqual(i.trip.route.color, 0xAF52DE)
        XCTAssertEqual(i.trip.route.textColor, 0xFFFFFF)
        XCTAssertEqual(i.trip.destination, "Terminus Belvédère")
    }

    /// Each lap is a run of the trip (frequencies.txt, a lap apart): the fixes of laps 1 to 3
    /// tell, as `trip = auto` does on the display, the run that lap is, soon after it starts.
    func testEachLapIsTheNextRunOfTheTrip() throws {
        let i = try imported()
        XCTAssertEqual(i.report.info.frequencies, 1)
        let zone = try TimeZoneRules.load(DemoFeed.timeZone)
        let fixes = i.feed.drive.fixes(laps: 3)
        let first = try XCTUnwrap(DemoFeed.firstRun.start)
        for lap in 0..<3 {
            let detector = TripDetector(index: i.index, zone: zone)
            let start = Double(lap) * i.feed.drive.timeline.duration
            var decision: TripDetector.Decision?
            var when = 0.0
            for (t, fix) in fixes where t >= start && t < start + i.feed.drive.timeline.duration {
                guard let fix, let time = fix.time, decision == nil else { continue }
                decision = try detector.update(latitude: fix.latitude, longitude: fix.longitude, time: Double(time.secondsSinceEpoch)).decision
                when = t - start
            }
            let d = try XCTUnwrap(decision, "lap \(lap + 1): no run told")
            XCTAssertEqual(d.choice, TripChoice(tripID: DemoFeed.tripID, start: first + lap * i.feed.headway), d.reason)
            XCTAssertLessThan(when, 60, "lap \(lap + 1) told \(when) s after it began: \(d.reason)")
            XCTAssertLessThanOrEqual(abs(d.late), 30, d.reason)
        }
    }

    func testTheTripsStopsAreOnTheDrivesPathInItsOrder() throws {
        let i = try imported()
        let town = i.feed.drive.town, metres = town.metresPerPixel
        XCTAssertEqual(i.trip.stops.map(\.stopID), ["belvedere", "erables", "saint-eloi", "tilleuls", "place-armes", "marche", "belvedere"])
        XCTAssertEqual(i.trip.stops.map(\.name), ["Terminus Belvédère", "Parc des Érables", "Rue Saint-Éloi", "Rue des Tilleuls",
                                                  "Place d'Armes", "Marché aux Fleurs", "Terminus Belvédère"])
        XCTAssertEqual(i.trip.placement, .shapeDistTraveled, "the feed's distances, not stops snapped to the line")
        // The line is the route: as long, every point of it on it.
        XCTAssertEqual(i.trip.line.length, town.route.length * metres, accuracy: town.route.length * metres * 0.002)
        for p in i.trip.line.points {
            let onMap = town.projection.point(for: GeoPoint(latitude: p.latitude, longitude: p.longitude))
            XCTAssertLessThan(town.route.distance(toNearest: onMap).away * metres, 0.05)
        }
        // Each stop within a metre of the route, where the drive reaches it: the stops A and B the
        // bus dwells at, the terminal at both ends of the line.
        let calls = i.feed.calls
        for (stop, call) in zip(i.trip.stops, calls) {
            let onMap = town.projection.point(for: GeoPoint(latitude: stop.latitude, longitude: stop.longitude))
            XCTAssertLessThan(town.route.distance(toNearest: onMap).away * metres, 1, stop.name)
            XCTAssertEqual(stop.distance, call.along * metres, accuracy: 1, stop.name)
        }
        XCTAssertEqual(i.trip.stops.first?.distance, 0)
        XCTAssertEqual(i.trip.stops.last?.distance ?? 0, i.trip.line.length, accuracy: 1)
        XCTAssertEqual(calls[1].place.point, DemoTown.stopA)
        XCTAssertEqual(calls[4].place.point, DemoTown.stopB)
        let distances = i.trip.stops.map(\.distance)
        XCTAssertEqual(distances, distances.sorted())
    }

    func testTheTripsTimesAreTheDrivesOnItsServiceDay() throws {
        let i = try imported()
        let drive = i.feed.drive, tl = drive.timeline
        // The drive starts at 08:00:00 UTC, the agency's zone: its seconds are the trip's after 08:00.
        let start = Int(DemoDrive.startTime.secondsSinceEpoch % 86_400)
        XCTAssertEqual(start, 8 * 3600)
        let arrivals = try i.trip.stops.map { try XCTUnwrap($0.arrival) - start }
        let departures = try i.trip.stops.map { try XCTUnwrap($0.departure) - start }
        XCTAssertFalse(i.trip.stops.contains { $0.interpolated })
        XCTAssertEqual(arrivals, arrivals.sorted())
        XCTAssertEqual([arrivals[0], departures[0]], [0, Int(tl.departs)])
        XCTAssertEqual([arrivals[1], departures[1]], [Int(tl.stopA.lowerBound.rounded()), Int(tl.stopA.upperBound.rounded())])
        XCTAssertEqual([arrivals[4], departures[4]], [Int(tl.stopB.lowerBound.rounded()), Int(tl.stopB.upperBound.rounded())])
        XCTAssertEqual(arrivals[6], Int(tl.arrives.rounded(.up)))
        // The places passed: the bus gets there in the second the trip says.
        for k in [2, 3, 5] {
            XCTAssertEqual(arrivals[k], departures[k])
            let along = i.feed.calls[k].along
            XCTAssertLessThan(drive.samples[arrivals[k] - 1].along, along, i.trip.stops[k].name)
            XCTAssertGreaterThanOrEqual(drive.samples[arrivals[k]].along, along, i.trip.stops[k].name)
        }
        // The calendar has the trip on the drive's day (and on the display demo's, years on).
        let zone = try TimeZoneRules.load(i.trip.timeZone)
        let day = try i.index.serviceDay(of: i.trip, at: DemoDrive.startTime.secondsSinceEpoch, in: zone)
        XCTAssertEqual(day.date, 20250514)
        XCTAssertTrue(day.runs)
        XCTAssertEqual(day.origin, DemoDrive.startTime.secondsSinceEpoch - Int64(start))
        XCTAssertTrue(try i.index.serviceDay(of: i.trip, at: 1_798_675_200, in: zone).runs, "2026-12-31")
    }
}
