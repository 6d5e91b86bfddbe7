import Foundation
import TestSupport
import Transit
import XCTest

/// Feeds as agencies publish them on a bad day: no shapes.txt, a shape of one point, stop_times in
/// no order, a trip whose stops all stand on one spot, a shape that doubles back on itself. Each
/// still gives a trip the daemon can follow: the line from the stops where the shape is missing
/// or unusable, the stops in stop_sequence order, distances that never go backwards.
final class HostileFeedTests: XCTestCase {
    private func trip(_ changes: [String: String?], _ id: String = "T1") throws -> Trip {
        let feed = try SmallFeed(changes)
        defer { feed.remove() }
        _ = try feed.importFeed()
        return try TransitIndex(path: feed.index).trip(TripChoice(tripID: id))
    }

    private func assertLineRunsThroughTheStops(_ trip: Trip, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(trip.shapeID, "the line is the stops'", file: file, line: line)
        XCTAssertEqual(trip.line.points.map { $0.latitude }, trip.stops.map { $0.latitude }, file: file, line: line)
        XCTAssertEqual(trip.line.points.map { $0.longitude }, trip.stops.map { $0.longitude }, file: file, line: line)
        for (i, stop) in trip.stops.enumerated() {
            XCTAssertEqual(stop.distance, trip.line.distances[i], accuracy: 0.5, "stop \(stop.stopID) lies on the line", file: file, line: line)
        }
    }

    func testWithoutShapesTheLineRunsFromStopToStop() throws {
        let trip = try self.trip(["shapes.txt": nil])
        XCTAssertEqual(trip.stops.map { $0.stopID }, ["S1", "S2", "S3"])
        assertLineRunsThroughTheStops(trip)
        XCTAssertGreaterThan(trip.line.length, 2_000)
    }

    func testAShapeOfOnePointIsNotALine() throws {
        let trip = try self.trip(["shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH1,51.7500,19.4400,1\n"])
        assertLineRunsThroughTheStops(trip)
    }

    /// The file's order means nothing: stop_sequence alone orders a trip's stops (here T1's rows
    /// come last-first and T2's are split around them).
    func testStopTimesInNoOrderAreOrderedBySequence() throws {
        let trip = try self.trip(["stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T2,08:20:00,08:20:00,S3,9
            T1,08:20:00,08:20:00,S3,30
            T1,08:10:00,08:10:00,S2,20
            T2,08:00:00,08:00:00,S1,2
            T1,08:00:00,08:00:00,S1,10

            """])
        XCTAssertEqual(trip.stops.map { $0.stopID }, ["S1", "S2", "S3"])
        XCTAssertEqual(trip.stops.map { $0.sequence }, [10, 20, 30])
        XCTAssertEqual(trip.stops.map { $0.arrival }, [8 * 3600, 8 * 3600 + 600, 8 * 3600 + 1200])
        let distances = trip.stops.map { $0.distance }
        XCTAssertEqual(distances, distances.sorted(), "distances along never go backwards")
    }

    /// Every stop on one spot (a placeholder feed): a line of length zero, which must not divide
    /// by zero anywhere — times interpolated, progress made.
    func testStopsAllOnOneSpotGiveALineOfLengthZero() throws {
        let trip = try self.trip([
            "shapes.txt": nil,
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,51.77,19.47\nS2,Two,51.77,19.47\nS3,Three,51.77,19.47\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,,,S2,2
                T1,08:10:00,08:10:00,S3,3

                """,
        ])
        XCTAssertEqual(trip.line.length, 0)
        XCTAssertEqual(trip.stops.map { $0.distance }, [0, 0, 0])
        let middle = try XCTUnwrap(trip.stops[1].arrival)
        XCTAssertTrue((8 * 3600...8 * 3600 + 600).contains(middle), "S2's time between its neighbours', not \(middle)")
        var progress = RouteProgress(trip: trip)
        let update = progress.update(RouteProgress.Fix(latitude: 51.77, longitude: 19.47, speed: 0, time: 8 * 3600))
        XCTAssertFalse(update.offRoute, "a fix on the spot is on the route")
        XCTAssertEqual(update.distance, 0)
    }
}
