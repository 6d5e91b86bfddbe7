import Foundation
import TestSupport
import Transit
import XCTest

/// `trip = auto` on the real Fortaleza feed (2,292 trips on 14 shapes, both directions of most
/// lines on the same streets): a vehicle driven along a trip's shape at its timetable's pace,
/// with 15 m of noise, is told to be that trip; an hour later on the same shape, the run due
/// then; standing still, or driving backwards along a shape, decides nothing.
final class TripDetectorTests: XCTestCase {
    static let zoneName = "America/Fortaleza"
    /// A day of the feed's service period (2019-06-14 to 2019-09-14) the trip runs on: its
    /// trip_ids start with their service_id, D on Sundays, S on Saturdays, U on weekdays.
    static func date(of tripID: String) -> Int {
        switch tripID.first { case "D": return 20190616; case "S": return 20190615; default: return 20190617 }
    }

    struct Drive {
        let trip: Trip
        /// (UTC seconds, latitude, longitude, metres along) every `step` seconds.
        let fixes: [(time: Double, lat: Double, lon: Double, along: Double)]
    }

    /// The trip's vehicle from stop `from` to stop `to` at the timetable's pace, `shift` seconds
    /// after it, every `step` seconds; each fix moved up to 15 m by a fixed pseudo-random walk.
    static func drive(_ tripID: String, from: Int, to: Int, shift: Double = 0, step: Double = 2, seed: UInt64 = 7) throws -> Drive {
        try drive(TripChoice(tripID: tripID), index: TransitIndex(path: FortalezaImportTests.index().report.path),
                  zone: TimeZoneRules.load(zoneName), date: date(of: tripID), from: from, to: to, shift: shift, step: step, seed: seed)
    }

    static func drive(_ choice: TripChoice, index: TransitIndex, zone: TimeZoneRules, date: Int, from: Int, to: Int,
                      shift: Double = 0, step: Double = 2, seed: UInt64 = 7) throws -> Drive {
        let trip = try index.trip(choice)
        let origin = Double(zone.serviceDayOrigin(date))
        let timed = trip.stops[from...min(to, trip.stops.count - 1)].compactMap { s in s.departure.map { (distance: s.distance, time: Double($0)) } }
        var random = seed
        func noise() -> Double {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Double(Int(random >> 33) % 2001 - 1000) / 1000 * 15 / 1.5
        }
        var fixes: [(Double, Double, Double, Double)] = []
        var t = timed.first!.time
        while t <= timed.last!.time {
            let k = timed.lastIndex { $0.time <= t }!
            let a = timed[k], b = timed[min(k + 1, timed.count - 1)]
            let d = b.time > a.time ? a.distance + (b.distance - a.distance) * (t - a.time) / (b.time - a.time) : a.distance
            let p = trip.line.position(at: d)
            let mLat = 111_320.0, mLon = 111_320.0 * cos(p.latitude * .pi / 180)
            fixes.append((origin + t + shift, p.latitude + noise() / mLat, p.longitude + noise() / mLon, d))
            t += step
        }
        return Drive(trip: trip, fixes: fixes)
    }

    static func detector() throws -> TripDetector {
        TripDetector(index: try TransitIndex(path: FortalezaImportTests.index().report.path), zone: try TimeZoneRules.load(zoneName))
    }

    /// Feeds the fixes until a decision; the decision and the fix it came at.
    static func decide(_ detector: TripDetector, _ fixes: [(time: Double, lat: Double, lon: Double, along: Double)])
        throws -> (decision: TripDetector.Decision, at: Int)? {
        for (i, f) in fixes.enumerated() {
            if let d = try detector.update(latitude: f.lat, longitude: f.lon, time: f.time).decision { return (d, i) }
        }
        return nil
    }

    func testEachTripIsToldFromItsFixesMidRoute() throws {
        var report: [String] = []
        for id in FortalezaTripTests.trips {
            let drive = try Self.drive(id, from: 2, to: 8)
            let detector = try Self.detector()
            let outcome = try XCTUnwrap(Self.decide(detector, drive.fixes), "\(id): no decision")
            XCTAssertEqual(outcome.decision.choice, TripChoice(tripID: id), "\(id): \(outcome.decision.reason)")
            XCTAssertEqual(outcome.decision.shapeID, drive.trip.shapeID, id)
            XCTAssertLessThanOrEqual(abs(outcome.decision.late), 60, outcome.decision.reason)
            // Where it was decided: the vehicle's own place along the line, within the noise.
            XCTAssertEqual(outcome.decision.distance, drive.fixes[outcome.at].along, accuracy: 40, outcome.decision.reason)
            // Soon: a few hundred metres of consistent progress, not the whole trip.
            XCTAssertLessThanOrEqual(outcome.at, 60, outcome.decision.reason)
            report.append("\(id): decided at fix \(outcome.at) of \(drive.fixes.count): \(outcome.decision.reason)")
        }
        print(report.joined(separator: "\n"))
    }

    func testTheScheduleChoosesTheRunDueNow() throws {
        let id = FortalezaTripTests.trips[0]
        // The same street an hour later: another trip of the line is due there then.
        let drive = try Self.drive(id, from: 2, to: 8, shift: 3600)
        let outcome = try XCTUnwrap(Self.decide(try Self.detector(), drive.fixes))
        XCTAssertNotEqual(outcome.decision.choice.tripID, id, outcome.decision.reason)
        XCTAssertEqual(outcome.decision.shapeID, drive.trip.shapeID, outcome.decision.reason)
        // That trip's own timetable has it there within minutes of the clock.
        let index = try TransitIndex(path: FortalezaImportTests.index().report.path)
        let chosen = try index.trip(outcome.decision.choice)
        let zone = try TimeZoneRules.load(Self.zoneName)
        let fix = drive.fixes[outcome.at]
        let seconds = Int(fix.time) - Int(zone.serviceDayOrigin(Self.date(of: id)))
        let due = try XCTUnwrap(ScheduledTrip(tripID: chosen.tripID, stopDistances: chosen.stops.map { $0.distance },
                                              arrivals: chosen.stops.map { $0.arrival }, departures: chosen.stops.map { $0.departure },
                                              frequencies: [], serviceRow: 0).time(at: outcome.decision.distance))
        XCTAssertEqual(seconds - due, outcome.decision.late, outcome.decision.reason)
        XCTAssertLessThanOrEqual(abs(outcome.decision.late), 600, outcome.decision.reason)
        // And no other trip on the shape is due nearer.
        for other in try index.scheduledTrips(onShape: drive.trip.shapeID!, line: drive.trip.line) where other.tripID.first == id.first {
            guard let t = other.time(at: outcome.decision.distance) else { continue }
            XCTAssertGreaterThanOrEqual(abs(seconds - t), abs(outcome.decision.late), "\(other.tripID) is due nearer")
        }
    }

    func testStandingStillDecidesNothing() throws {
        let drive = try Self.drive(FortalezaTripTests.trips[0], from: 3, to: 3)
        let f = drive.fixes[0]
        let still = (0..<120).map { i in (time: f.time + Double(i), lat: f.lat, lon: f.lon, along: f.along) }
        XCTAssertNil(try Self.decide(try Self.detector(), still))
    }

    /// Backwards over a stretch the shape runs once (shape806-I comes back along its own streets
    /// between 1,060 and 2,026 m, where driving it backwards is driving it forwards).
    func testDrivingAShapeBackwardsDecidesNotThatShape() throws {
        let id = FortalezaTripTests.trips[0]
        let drive = try Self.drive(id, from: 2, to: 10)
        let reversed = zip(drive.fixes, drive.fixes.reversed()).map { (time: $0.0.time, lat: $0.1.lat, lon: $0.1.lon, along: $0.1.along) }
        let outcome = try Self.decide(try Self.detector(), reversed)
        XCTAssertNotEqual(outcome?.decision.shapeID, drive.trip.shapeID, outcome?.decision.reason ?? "")
    }

    func testOffEveryShapeDecidesNothing() throws {
        let drive = try Self.drive(FortalezaTripTests.trips[0], from: 2, to: 8)
        // 33 km north of the route, out at sea: no shape within 50 m.
        let away = drive.fixes.map { (time: $0.time, lat: $0.lat + 0.3, lon: $0.lon, along: $0.along) }
        let detector = try Self.detector()
        XCTAssertNil(try Self.decide(detector, away))
        XCTAssertEqual(detector.shapesFollowed, [])
    }

    /// A run of a frequencies.txt trip (SmallFeed's T2: every 10 min from 06:00, S1 to S3 in
    /// 20 min) is told by its start; a trip past midnight (T1, 23:51 to 24:10:30) belongs to the
    /// service day before.
    func testARunOfAFrequenciesTripAndATripPastMidnight() throws {
        let feed = try SmallFeed()
        defer { feed.remove() }
        let index = try TransitIndex(path: feed.importFeed().path)
        let zone = try TimeZoneRules.load("Europe/Warsaw")
        let monday = 20250602
        let run = try Self.drive(TripChoice(tripID: "T2", start: 7 * 3600 + 10 * 60), index: index, zone: zone, date: monday,
                                 from: 0, to: 1, step: 5)
        let decided = try XCTUnwrap(Self.decide(TripDetector(index: index, zone: zone), run.fixes))
        XCTAssertEqual(decided.decision.choice, TripChoice(tripID: "T2", start: 7 * 3600 + 10 * 60), decided.decision.reason)
        XCTAssertLessThanOrEqual(abs(decided.decision.late), 10, decided.decision.reason)

        let night = try Self.drive(TripChoice(tripID: "T1"), index: index, zone: zone, date: monday, from: 1, to: 2, step: 5)
        let late = try XCTUnwrap(Self.decide(TripDetector(index: index, zone: zone), night.fixes))
        XCTAssertGreaterThan(night.fixes[late.at].time, Double(zone.serviceDayOrigin(20250603)), "decided after midnight")
        XCTAssertEqual(late.decision.choice, TripChoice(tripID: "T1"), late.decision.reason)
        XCTAssertTrue(late.decision.reason.contains("on service day 2025-06-02"), late.decision.reason)
    }
}

/// docs/transit.md gives trip = auto's figures; they are the detector's own.
final class TripDetectorDocumentTests: XCTestCase {
    func testTheGuideStatesTheDetectorsFigures() throws {
        let text = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("docs/transit.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        let s = TripDetector.Settings()
        for phrase in ["dropped when \(s.maxMisses + 1) fixes in a row miss it",
                       "carried the vehicle \(Int(s.minProgress)) m forward over \(s.minFixes) fixes",
                       "none due within \(s.maxScheduleGap / 60) minutes is no match",
                       "lead \(s.confirmFixes) fixes in a row before it is taken",
                       "after \(Int(s.releaseOffRouteSeconds / 60)) minutes off its line"] {
            XCTAssertTrue(text.contains(phrase), "docs/transit.md should say: \(phrase)")
        }
    }
}
