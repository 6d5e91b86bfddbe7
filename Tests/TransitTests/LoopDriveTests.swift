import Foundation
import Transit
import XCTest

/// Routes that pass one place twice, written as small feeds in metres around a point of Łódź:
/// both directions of one street 12 m apart (out and back, a stop on each side), a square loop
/// ending at the stop it starts from (one stop_id at two stop_sequences), and a figure of eight
/// through its middle stop three times. Driven with 15 m noise, the next stop still goes through
/// the stops in stop_sequence order and each is arrived at once.
final class LoopDriveTests: XCTestCase {
    typealias XY = (x: Double, y: Double)

    static let origin = (lat: 51.77, lon: 19.47)

    static func latLon(_ p: XY) -> (lat: Double, lon: Double) {
        (origin.lat + p.y / 111_320.0, origin.lon + p.x / (111_320.0 * cos(origin.lat * .pi / 180)))
    }

    /// The corners joined by points every 50 m.
    static func densified(_ corners: [XY]) -> [XY] {
        var out: [XY] = [corners[0]]
        for (a, b) in zip(corners, corners.dropFirst()) {
            let n = max(1, Int((hypot(b.x - a.x, b.y - a.y) / 50).rounded(.up)))
            for k in 1...n { out.append((a.x + (b.x - a.x) * Double(k) / Double(n), a.y + (b.y - a.y) * Double(k) / Double(n))) }
        }
        return out
    }

    /// A feed whose trip T1 follows `corners` and calls at `stops` (ids may repeat) in order.
    static func feed(_ corners: [XY], stops: [(id: String, at: XY)]) throws -> SmallFeed {
        var shapes = "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\n"
        for (i, p) in densified(corners).enumerated() {
            let g = latLon(p)
            shapes += "L,\(g.lat),\(g.lon),\(i + 1)\n"
        }
        var stopRows = "stop_id,stop_name,stop_lat,stop_lon\n", times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        var seen: Set<String> = []
        for (i, s) in stops.enumerated() {
            if seen.insert(s.id).inserted {
                let g = latLon(s.at)
                stopRows += "\(s.id),Stop \(s.id),\(g.lat),\(g.lon)\n"
            }
            let t = 8 * 3600 + i * 120
            let clock = "\(t / 3600):\(t / 60 % 60 < 10 ? "0" : "")\(t / 60 % 60):00"
            times += "T1,\(clock),\(clock),\(s.id),\((i + 1) * 10)\n"
        }
        return try SmallFeed([
            "shapes.txt": shapes, "stops.txt": stopRows, "stop_times.txt": times, "frequencies.txt": nil,
            "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WK,T1,L\n",
        ])
    }

    func drive(_ corners: [XY], stops: [(id: String, at: XY)], seed: UInt64, file: StaticString = #filePath, line: UInt = #line) throws {
        let feed = try Self.feed(corners, stops: stops)
        defer { feed.remove() }
        _ = try feed.importFeed()
        let trip = try TransitIndex(path: feed.index).trip(TripChoice(tripID: "T1"))
        XCTAssertEqual(trip.stops.map { $0.stopID }, stops.map { $0.id }, file: file, line: line)
        let drive = SyntheticDrive(points: trip.line.points.map { ($0.latitude, $0.longitude) })
        let along = drive.stopDistances(stops.map { Self.latLon($0.at) })
        // The stops are placed where the test's own in-order search puts them (its great-circle
        // metres are 0.1 % shorter than 111,320 m a degree).
        for (placed, expected) in zip(trip.stops.map { $0.distance }, along) {
            XCTAssertEqual(placed, expected, accuracy: 3 + expected * 0.002, file: file, line: line)
        }
        let samples = drive.fixes(dwellAt: along.enumerated().map { ($0.offset, $0.element) }, seed: seed)
        var progress = RouteProgress(trip: trip)
        let outcome = DriveOutcome(samples, progress: &progress)
        let all = Array(trip.stops.indices)
        let first = outcome.firstAtStop == 0 ? 1 : 0
        XCTAssertEqual(outcome.nextStops, all.dropFirst(first).map { Optional($0) } + [nil], file: file, line: line)
        XCTAssertEqual(outcome.arrivals.map { $0.stop }, all, file: file, line: line)
        XCTAssertEqual(outcome.passed, [], file: file, line: line)
        XCTAssertEqual(outcome.offRoute, 0, file: file, line: line)
        XCTAssertLessThanOrEqual(outcome.backwards, 40, file: file, line: line)
        // Distance along never strays to the other pass: within 40 m of the truth at every fix.
        var fresh = RouteProgress(trip: trip)
        var worst = 0.0
        for s in samples {
            let u = fresh.update(s.fix)
            worst = max(worst, abs(u.distance! - s.distance))
        }
        XCTAssertLessThanOrEqual(worst, 40, "worst distance error", file: file, line: line)
    }

    func testOutAndBack() throws {
        try drive([(0, 0), (1200, 0), (1200, -12), (0, -12)], stops: [
            ("O1", (0, 5)), ("O2", (300, 5)), ("O3", (600, 5)), ("O4", (900, 5)), ("O5", (1200, 5)),
            ("B4", (900, -17)), ("B3", (600, -17)), ("B2", (300, -17)), ("B1", (0, -17)),
        ], seed: 7)
    }

    func testALoopBackToItsFirstStop() throws {
        try drive([(0, 0), (600, 0), (600, 600), (0, 600), (0, 0)], stops: [
            ("S1", (0, -8)), ("S2", (300, -8)), ("S3", (608, 300)), ("S4", (300, 608)), ("S5", (-8, 300)), ("S1", (0, -8)),
        ], seed: 11)
    }

    func testAFigureOfEightThroughItsMiddleStop() throws {
        try drive([(0, 0), (400, 0), (400, 400), (0, 400), (0, 0), (-400, 0), (-400, -400), (0, -400), (0, 0)], stops: [
            ("M", (5, 5)), ("A", (400, 200)), ("B", (200, 400)), ("M", (5, 5)), ("C", (-400, -200)), ("D", (-200, -400)), ("M", (5, 5)),
        ], seed: 13)
    }
}
