import Foundation
import Transit
import XCTest

/// Real Fortaleza trips driven synthetically (SyntheticDrive: 10 m/s, 20 s dwell, 15 m noise)
/// through RouteProgress: the next stop goes through stop_times' order one by one, each stop is
/// arrived at once, near the moment the vehicle reached it; a detour far off the route is said
/// once each way and passes only the stops it bypassed.
final class FortalezaDriveTests: XCTestCase {
    struct Prepared {
        let trip: Trip
        let drive: SyntheticDrive
        let along: [Double]
    }

    static func prepare(_ id: String) throws -> Prepared {
        let index = try TransitIndex(path: FortalezaImportTests.index().report.path)
        let trip = try index.trip(TripChoice(tripID: id))
        let drive = SyntheticDrive(points: trip.line.points.map { ($0.latitude, $0.longitude) })
        return Prepared(trip: trip, drive: drive, along: drive.stopDistances(trip.stops.map { ($0.latitude, $0.longitude) }))
    }

    func testTheNextStopGoesThroughStopTimesInOrder() throws {
        var report: [String] = []
        for (n, id) in FortalezaTripTests.trips.enumerated() {
            let p = try Self.prepare(id)
            let csv = try FortalezaTripTests.csvStopTimes(id)
            XCTAssertEqual(p.trip.stops.map { $0.stopID }, csv.map { $0.stopID })
            let samples = p.drive.fixes(dwellAt: p.along.enumerated().map { ($0.offset, $0.element) }, seed: UInt64(n + 1))
            var progress = RouteProgress(trip: p.trip)
            let outcome = DriveOutcome(samples, progress: &progress)
            let all = Array(p.trip.stops.indices)
            // A drive starting on the first stop is at it from the first fix: the next stop is then the second.
            let first = outcome.firstAtStop == 0 ? 1 : 0
            XCTAssertEqual(outcome.nextStops, all.dropFirst(first).map { Optional($0) } + [nil], id)
            XCTAssertEqual(outcome.arrivals.map { $0.stop }, all, id)
            XCTAssertEqual(outcome.passed, [], id)
            // Leaving the terminus only when the shape goes on beyond it.
            XCTAssertEqual(outcome.departures, Array(all.prefix(outcome.departures.count)), id)
            XCTAssertGreaterThanOrEqual(outcome.departures.count, all.count - 1, id)
            XCTAssertEqual(outcome.offRoute, 0, id)
            XCTAssertLessThanOrEqual(outcome.backwards, 40, id)
            // Arrival when the vehicle reached the stop and slowed: the dwell's first fix.
            var worst = 0.0
            for (stop, time) in outcome.arrivals {
                let reached = try XCTUnwrap(samples.first { $0.dwelling == stop && $0.dwellStart }).fix.time
                worst = max(worst, abs(time - reached))
            }
            XCTAssertLessThanOrEqual(worst, 3, id)
            report.append("\(id): \(p.trip.stops.count) stops, \(samples.count) fixes, worst arrival \(worst) s, \(Int(outcome.secondsPerFix * 1e6)) µs a fix")
        }
        print(report.joined(separator: "\n"))
    }

    /// A minute 200 m beside the route, on whichever side and stretch stays clear of every part
    /// of the line (the test looks for one after the second stop): off route once, back once,
    /// the stops beside the detour passed, every other stop arrived at.
    func testADetourIsOffRouteThenBackWithoutSkippingOtherStops() throws {
        var tried = 0
        for (n, id) in FortalezaTripTests.trips.enumerated() where id != "D841-T01V01B01-I" {
            let p = try Self.prepare(id)
            guard let detour = Self.clearDetour(p) else { continue }
            tried += 1
            let samples = p.drive.fixes(dwellAt: p.along.enumerated().compactMap { i, d in
                d > detour.from && d < detour.to ? nil : (i, d)
            }, seed: UInt64(100 + n), detour: detour)
            let offFixes = samples.filter { abs(detour.offset(at: $0.distance)) >= 200 }.count
            XCTAssertGreaterThanOrEqual(offFixes, 60, id)
            var progress = RouteProgress(trip: p.trip)
            let outcome = DriveOutcome(samples, progress: &progress)
            XCTAssertEqual(outcome.offRoute, 1, id)
            XCTAssertEqual(outcome.backOnRoute, 1, id)
            let bypassed = p.trip.stops.indices.filter { p.along[$0] > detour.from && p.along[$0] < detour.to }
            XCTAssertEqual(outcome.passed, bypassed, id)
            XCTAssertEqual(outcome.arrivals.map { $0.stop }, p.trip.stops.indices.filter { !bypassed.contains($0) }, id)
            XCTAssertEqual(outcome.nextStops.last!, nil, id)
            XCTAssertLessThanOrEqual(outcome.backwards, 40, id)
            print("\(id): detour \(Int(detour.from))-\(Int(detour.to)) m, \(detour.side > 0 ? "left" : "right"), \(offFixes) fixes 200 m off, passed \(outcome.passed)")
        }
        XCTAssertGreaterThanOrEqual(tried, 2)
    }

    /// A stretch starting 60 m after a stop, 1 km long (a minute at 200 m plus the ramps), whose
    /// far part stays 120 m from every part of the line.
    static func clearDetour(_ p: Prepared) -> SyntheticDrive.Detour? {
        for k in 1..<max(p.along.count - 1, 1) {
            for side in [200.0, -200.0] {
                let from = p.along[k] + 60, to = from + 1000
                guard to < p.drive.length - 100 else { return nil }
                let detour = SyntheticDrive.Detour(from: from, to: to, side: side, ramp: 150)
                var clear = true
                var d = from
                while d <= to && clear {
                    if abs(detour.offset(at: d)) >= 150 {
                        clear = p.drive.clearance(p.drive.position(at: d, left: detour.offset(at: d))) > 120
                    }
                    d += 20
                }
                if clear { return detour }
            }
        }
        return nil
    }
}
