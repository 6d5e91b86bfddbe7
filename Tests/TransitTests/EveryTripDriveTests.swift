import Demo
import Foundation
import TestSupport
import Transit
import XCTest

/// Every trip of every real feed the tests have (Fortaleza, Cairns, New York's subway) driven
/// along its own line through RouteProgress, as a bus is driven: 10 m/s between stops, a 20 s
/// dwell at each, 15 m of noise on every fix, a 60 s outage, two single fixes thrown 200 m aside
/// (multipath), and — where the line has room for one clear of its other parts — a 250 m detour
/// that misses two stops. The stops announced next must be the trip's stops in order (the
/// detour's two may be missing), the detour picked up again. Trips whose line and stops are the
/// same (New York runs hundreds on one shape) drive the same: each such group is driven once
/// and counts for all its trips. The figures are printed and kept in docs/transit.md.
final class EveryTripDriveTests: XCTestCase {
    struct FeedReport: CustomStringConvertible {
        var feed: String
        var trips = 0
        var groups = 0
        var followed = 0
        var detours = 0
        var worstPickUp = 0.0
        var worstPickUpTrip = ""
        var failed: [String] = []

        var description: String {
            "| \(feed) | \(trips) | \(groups) | \(followed) | \(detours) | \(Int(worstPickUp.rounded())) s\(worstPickUpTrip.isEmpty ? "" : " (\(worstPickUpTrip))") | "
                + (failed.isEmpty ? "none" : failed.prefix(8).joined(separator: "; ") + (failed.count > 8 ? " (and \(failed.count - 8) more)" : "")) + " |"
        }
    }

    /// Drives every trip of the index at `path`.
    func driveEveryTrip(_ feed: String, index path: String) throws -> FeedReport {
        let index = try TransitIndex(path: path)
        let ids = try IndexReader(path).rows("SELECT trip_id FROM trips ORDER BY trip_id")
        var report = FeedReport(feed: feed)
        var groups: [String: [String]] = [:]
        var trips: [String: Trip] = [:]
        for id in ids {
            // Named as a configuration names it: the text parsed, the feed deciding what it is.
            let trip = try index.trip(TripChoice.parse(id))
            XCTAssertEqual(trip.tripID, id)
            let key = trip.line.points.map { "\($0.latitude),\($0.longitude)" }.joined(separator: ";") + "|"
                + trip.stops.map { "\($0.stopID):\($0.distance):\($0.announced)" }.joined(separator: ";")
            if groups[key] == nil { trips[key] = trip }
            groups[key, default: []].append(id)
        }
        report.trips = ids.count
        report.groups = groups.count
        for (n, key) in groups.keys.sorted().enumerated() {
            let trip = trips[key]!, members = groups[key]!
            switch drive(trip, seed: UInt64(n + 1)) {
            case .followed(let pickUp):
                report.followed += members.count
                if let pickUp {
                    report.detours += members.count
                    if pickUp > report.worstPickUp { report.worstPickUpTrip = trip.tripID }
                    report.worstPickUp = max(report.worstPickUp, pickUp)
                }
            case .failed(let why):
                report.failed.append("\(trip.tripID)\(members.count > 1 ? " (+\(members.count - 1) alike)" : ""): \(why)")
            }
        }
        return report
    }

    enum Result {
        /// With the seconds from the detour's end to back on route (nil: no detour driven).
        case followed(pickUp: Double?)
        case failed(String)
    }

    func drive(_ trip: Trip, seed: UInt64) -> Result {
        let drive = SyntheticDrive(points: trip.line.points.map { ($0.latitude, $0.longitude) })
        guard drive.length > 0, trip.stops.count >= 2 else { return .failed("a line of \(Int(drive.length)) m with \(trip.stops.count) stops") }
        let along = trip.stops.map { $0.distance }
        let detour = Self.detour(drive, along: along)
        let bypassed = detour.map { d in trip.stops.indices.filter { along[$0] > d.from && along[$0] < d.to } } ?? []
        var samples = drive.fixes(dwellAt: along.enumerated().compactMap { i, d in bypassed.contains(i) ? nil : (i, d) }, seed: seed, detour: detour)
        // A 60 s outage on the longest stretch between two stops clear of the detour (the stops
        // it hides, when the stretch is shorter than a minute's drive, may go unannounced), then
        // two lone fixes thrown 200 m aside at half and two thirds of the drive.
        var hidden: [Int] = []
        let gaps = along.indices.dropLast().filter { g in detour.map { along[g + 1] < $0.from || along[g] > $0.to } ?? true }
        if let g = gaps.max(by: { along[$0 + 1] - along[$0] < along[$1 + 1] - along[$1] }),
           let first = samples.firstIndex(where: { $0.dwelling == nil && $0.distance > along[g] + 20 }), first + 60 < samples.count {
            let span = samples[first].distance...samples[first + 59].distance
            hidden = trip.stops.indices.filter { span.contains(along[$0]) }
            samples.removeSubrange(first..<(first + 60))
        }
        for at in [samples.count / 2, samples.count * 2 / 3] where at < samples.count && samples[at].dwelling == nil {
            let s = samples[at], p = drive.position(at: s.distance, left: 200)
            samples[at] = SyntheticDrive.Sample(fix: RouteProgress.Fix(latitude: p.lat, longitude: p.lon, speed: s.fix.speed, time: s.fix.time),
                                                distance: s.distance, dwelling: nil, dwellStart: false)
        }
        var progress = RouteProgress(trip: trip)
        var next: [Int] = [], pickUp: Double?, leftLine = false
        // When the vehicle is back on its line after the detour (the ramp ends): pick-up counts from there.
        let detourEnded = detour.flatMap { d in samples.first { $0.distance >= d.to }?.fix.time }
        let debug = ProcessInfo.processInfo.environment["PULSEDOT_DRIVE_TRIP"] == trip.tripID
        for s in samples {
            let u = progress.update(s.fix)
            if debug { print("t \(Int(s.fix.time)) true \(Int(s.distance)) seen \(u.distance.map { Int($0) } ?? -1) off \(u.offset.map { Int($0) } ?? -1) \(u.offRoute) next \(u.nextStop ?? -1) \(u.events)") }
            if let n = u.nextStop, next.last != n { next.append(n) }
            if let detour, s.distance > detour.from, s.distance < detour.to, u.events.contains(.offRoute) { leftLine = true }
            if leftLine, pickUp == nil, u.events.contains(.backOnRoute), let ended = detourEnded { pickUp = max(s.fix.time - ended, 0) }
        }
        let missable = bypassed + hidden
        let wanted = trip.stops.indices.filter { trip.stops[$0].announced && !missable.contains($0) }
        let seen = next.filter { !missable.contains($0) }
        // A drive that starts on the first stop is at it from the first fix: the second is next.
        guard seen == wanted || seen == Array(wanted.dropFirst()) else {
            return .failed("announced \(seen) for \(wanted)\(detour.map { " (detour \(Int($0.from))–\(Int($0.to)) m)" } ?? ""), stops at \(along.map { Int($0) })")
        }
        if detour != nil && pickUp == nil && progress.offRoute { return .failed("not picked up again after the detour") }
        return .followed(pickUp: detour == nil ? nil : (pickUp ?? 0))
    }

    /// A detour 250 m aside that leaves the line 40 m after a stop and rejoins 150 m before the
    /// third stop on (so two stops are missed, and the third is announced before it is reached),
    /// its far part 150 m clear of every part of the line.
    static func detour(_ drive: SyntheticDrive, along: [Double]) -> SyntheticDrive.Detour? {
        guard along.count >= 5 else { return nil }
        for k in 1..<(along.count - 3) {
            let from = along[k] + 40, to = along[k + 3] - 150
            guard to - from >= 400 else { continue }
            for side in [250.0, -250.0] {
                let detour = SyntheticDrive.Detour(from: from, to: to, side: side, ramp: 100)
                var clear = true, d = from + 100
                while d <= to - 100 && clear {
                    clear = drive.clearance(drive.position(at: d, left: detour.offset(at: d))) > 150
                    d += 25
                }
                if clear { return detour }
            }
        }
        return nil
    }

    func testEveryTripOfEveryFeedIsFollowedStopByStop() throws {
        // The demo town's feed, as `pulsedot demo` writes it.
        let demo = try TestEnvironment.temporaryDirectory("every-trip-demo")
        defer { try? FileManager.default.removeItem(at: demo) }
        try DemoFeed().write(to: demo.path + "/town-gtfs")
        let town = try TransitImporter.importFeed(at: demo.path + "/town-gtfs", cacheDirectory: demo.path) { _ in }
        var reports = [try driveEveryTrip("Fortaleza", index: FortalezaImportTests.index().report.path),
                       try driveEveryTrip("demo town", index: town.path)]
        for (name, file) in [("Cairns", "cairns_gtfs.zip"), ("New York subway", "nyc_subway_gtfs.zip")] {
            reports.append(try driveEveryTrip(name, index: RealFeedsTests.index(file).path))
        }
        let table = "| feed | trips | distinct lines | followed | with a detour | worst pick-up after it | failed |\n|---|---:|---:|---:|---:|---:|---|\n"
            + reports.map(\.description).joined(separator: "\n")
        print(table)
        // docs/transit.md carries the table as this run made it (the drive is deterministic).
        let doc = TestEnvironment.packageRoot.appendingPathComponent("docs/transit.md")
        var text = try String(contentsOf: doc, encoding: .utf8)
        let begin = "<!-- every-trip:begin -->\n", end = "<!-- every-trip:end -->"
        let b = try XCTUnwrap(text.range(of: begin), "docs/transit.md has no \(begin)"), e = try XCTUnwrap(text.range(of: end))
        if ProcessInfo.processInfo.environment["PULSEDOT_WRITE_DOCS"] != nil {
            text.replaceSubrange(b.upperBound..<e.lowerBound, with: table + "\n")
            try text.write(to: doc, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(String(text[b.upperBound..<e.lowerBound]), table + "\n",
                       "docs/transit.md's table is out of date: PULSEDOT_WRITE_DOCS=1 swift test --filter EveryTripDriveTests")
        for r in reports {
            XCTAssertEqual(r.followed, r.trips, "\(r.feed): \(r.failed.joined(separator: "\n"))")
            // The demo town's one short line leaves no stretch 150 m clear
            // of its other parts for a 250 m detour: its trip is driven without one.
            if r.feed != "demo town" { XCTAssertGreaterThan(r.detours, 0, r.feed) }
            // A detour that misses two stops is picked up again within a minute of its end.
            XCTAssertLessThanOrEqual(r.worstPickUp, 60, "\(r.feed): \(r.worstPickUpTrip)")
        }
    }
}
