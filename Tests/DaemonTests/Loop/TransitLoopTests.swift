import Daemon
import Foundation
import Glibc
import Metrics
import TestSupport
import XCTest

/// The loop following a trip on virtual time: a small feed written here (a straight street north
/// with three stops), fixes driven along it with dwells at the stops and one detour. The log says
/// each arrival once, in order, and the metrics file carries the transit gauges.
final class TransitLoopTests: XCTestCase {
    /// A point `x` metres east and `y` north of the street's origin.
    static func at(x: Double = 0, _ y: Double) -> (lat: Double, lon: Double) { BusStreet.at(x: x, y) }

    static var stops: [(id: String, name: String, y: Double)] { BusStreet.stops }

    /// The street's feed in DIR/feed, its calendar from 2026-01-01; `lastDay` ends it (YYYYMMDD).
    static func writeFeed(in dir: String, lastDay: String) throws -> String {
        try BusStreet.writeFeed(to: URL(fileURLWithPath: dir + "/feed"), firstDay: "20260101", lastDay: lastDay)
        return dir + "/feed"
    }

    static func config(feed: String, dir: String, trip: String = "T1") -> String {
        RunLoopTests.base + "[metrics]\ntextfile = \(dir)/pulsedot.prom\nevery = 1\n"
            + "[transit]\ngtfs = \(feed)\ntrip = \(trip)\ncache = \(dir)/cache\n"
    }

    /// Days from the harness's wall clock (its date in Warsaw) through `last`, both counted.
    static func daysLeft(through last: DateComponents) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Warsaw")!
        let today = calendar.startOfDay(for: Date(timeIntervalSince1970: LoopHarness.wallStart))
        let end = calendar.date(from: last)!
        return calendar.dateComponents([.day], from: today, to: end).day! + 1
    }

    func testArrivalsInOrderAndTheGaugesInTheMetricsFile() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-loop").path
        let feed = try Self.writeFeed(in: dir, lastDay: "20271231")
        let h = try LoopHarness(config: Self.config(feed: feed, dir: dir))
        var t = 1.0, fixes = 0
        func fix(x: Double = 0, _ y: Double) {
            let p = Self.at(x: x, y)
            h.waiting.at(t) { h.source.deliver(latitude: p.lat, longitude: p.lon, at: h.waiting.now()) }
            t += 0.5
            fixes += 1
        }
        func dwell(_ y: Double, fixes: Int = 3) { for _ in 0..<fixes { fix(y) } }
        dwell(0)
        for y in stride(from: 20.0, through: 700, by: 20) { fix(y) }
        dwell(700, fixes: 6)
        var atB: MetricsSamples?
        // Written during the dwell: a write falls in every second of it.
        h.waiting.at(t - 0.6) {
            atB = try? MetricsSamples(parsing: String(contentsOfFile: dir + "/pulsedot.prom", encoding: .utf8))
        }
        for y in stride(from: 720.0, through: 1000, by: 20) { fix(y) }
        for y in [1020.0, 1040, 1060] { fix(x: 200, y) }
        for y in stride(from: 1020.0, through: 1400, by: 20) { fix(y) }
        dwell(1400)
        let end = t + 1.55
        // A reload that changes nothing in [transit] keeps the trip and where the vehicle is on it.
        h.waiting.signal(SIGHUP, at: 5.25)
        h.waiting.signal(SIGTERM, at: end)
        XCTAssertEqual(try h.run(), 0)

        let arrivals = h.lines.map { $0.text }.filter { $0.contains("transit: arrived") }
        XCTAssertEqual(arrivals.map { String($0[$0.range(of: "transit: ")!.lowerBound...]) }, [
            "transit: arrived at Plac Wolności (stop 1 of 3)",
            "transit: arrived at Piotrkowska, róg (stop 2 of 3)",
            "transit: arrived at Dworzec (stop 3 of 3)",
        ], h.log)
        XCTAssertEqual(h.logged("transit: departed from").count, 2, h.log)
        XCTAssertEqual(h.logged("configuration reloaded"), [5.25], h.log)
        XCTAssertEqual(h.logged("transit: loading ").count, 1, "the reload did not load the feed again: \(h.log)")
        XCTAssertEqual(h.logged("transit: passed").count, 0, h.log)
        XCTAssertEqual(h.logged("transit: off route (").count, 1, h.log)
        XCTAssertEqual(h.logged("transit: back on route").count, 1, h.log)
        let off = try XCTUnwrap(h.lines.first { $0.text.contains("transit: off route (") }?.text)
        XCTAssertTrue(off.hasSuffix(" m from line 7)"), off)
        let left = Self.daysLeft(through: DateComponents(year: 2027, month: 12, day: 31))
        XCTAssertEqual(h.logged("service 2026-01-01 to 2027-12-31: \(left) days left").count, 1, h.log)
        XCTAssertEqual(h.logged("transit: trip T1 (route 7 – Dworzec) to Dworzec, 3 stops").count, 1, h.log)
        XCTAssertTrue(h.logged("service period ended").isEmpty, h.log)
        XCTAssertEqual(h.display?.presents, Int(end * 10), "drawing went on at every frame")

        // Each frame says the trip as it stood then; the stamp is shared between frames, not rebuilt.
        let stamps = try XCTUnwrap(h.display?.stamps)
        // The load (inline here) is taken before the first frame; no fix has placed the vehicle yet.
        XCTAssertEqual(stamps.first?.transit?.trip, "T1")
        XCTAssertNil(stamps.first?.transit?.distanceAlong)
        XCTAssertEqual(stamps.first?.transit?.nextStopID, "A")
        let atStopB = stamps.compactMap { $0.transit }.filter { $0.atStop && $0.nextStopID == "C" }
        XCTAssertFalse(atStopB.isEmpty, h.log)
        XCTAssertEqual(atStopB.first?.trip, "T1")
        XCTAssertEqual(atStopB.first?.nextStopName, "Dworzec")
        let distinct = Set(stamps.compactMap { $0.transit.map { ObjectIdentifier($0) } }).count
        XCTAssertLessThanOrEqual(distinct, fixes + 1, "one stamp per fix (and the load's), whatever the frames")
        XCTAssertGreaterThan(stamps.count, 4 * fixes)
        XCTAssertEqual(stamps.last?.transit?.nextStopID, nil, "after the terminus")
        XCTAssertEqual(stamps.last?.transit?.atStop, true)

        let m = try XCTUnwrap(atB, "no metrics file while standing at B: \(h.log)")
        let labels = ["trip": "T1", "route": "7"]
        // 2028-01-01 00:00 in Warsaw (UTC+1 in winter).
        XCTAssertEqual(m.value("pulsedot_transit_service_end_timestamp_seconds"),
                       ISO8601DateFormatter().date(from: "2027-12-31T23:00:00Z")!.timeIntervalSince1970)
        XCTAssertEqual(m.value("pulsedot_transit_at_stop", labels), 1)
        XCTAssertEqual(m.value("pulsedot_transit_off_route", labels), 0)
        XCTAssertEqual(try XCTUnwrap(m.value("pulsedot_transit_distance_along_meters", labels)), 800, accuracy: 1,
                       "B is 700 m north of A, and the line starts 100 m before A")
        let next = try XCTUnwrap(m.sample("pulsedot_transit_next_stop_sequence"))
        XCTAssertEqual(next.value, 30)
        XCTAssertEqual(next.labels, ["trip": "T1", "route": "7", "stop_id": "C", "stop": "Dworzec"])

        let final = try String(contentsOfFile: dir + "/pulsedot.prom", encoding: .utf8)
        let result = try runProgram("/bin/sh", ["-c", "/usr/bin/promtool check metrics < \"$1\"", "sh", dir + "/pulsedot.prom"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr + final)
        XCTAssertEqual(result.stdout + result.stderr, "", final)
        let summary = try StatusSummaryText.of(final, written: LoopHarness.wallStart + end)
        XCTAssertTrue(summary.contains("transit  trip T1 (route 7): no stop ahead, 1500 m along, at a stop; \(left) days of service left"), summary)
    }

    func testAnEndedServicePeriodIsSaidOnceAndAnUnreadableFeedOnceWhileTheDotIsDrawn() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-ended").path
        let feed = try Self.writeFeed(in: dir, lastDay: "20261231")
        let h = try LoopHarness(config: Self.config(feed: feed, dir: dir))
        for s in stride(from: 1.0, through: 4, by: 0.5) {
            h.waiting.at(s) { h.source.deliver(latitude: Self.at(0).lat, longitude: Self.at(0).lon, at: h.waiting.now()) }
        }
        // A feed with no stops.txt: the reload's load fails, said once; the old trip is dropped.
        h.waiting.at(4.2) {
            try? FileManager.default.removeItem(atPath: feed + "/stops.txt")
            try? Data("x".utf8).write(to: URL(fileURLWithPath: feed + "/agency.txt"))
            h.configText = Self.config(feed: feed, dir: dir, trip: "T1@08:00:00")
        }
        h.waiting.signal(SIGHUP, at: 4.2)
        h.waiting.signal(SIGTERM, at: 7.05)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.logged("transit: the feed's service period ended on 2026-12-31").count, 1, h.log)
        XCTAssertEqual(h.logged("service 2026-01-01 to 2026-12-31: ended ").count, 1, h.log)
        let errors = h.lines.filter { $0.text.contains("transit: ") && $0.text.contains("the dot is drawn without it") }
        XCTAssertEqual(errors.count, 1, h.log)
        XCTAssertEqual(errors.first?.t, 4.2, h.log)
        XCTAssertEqual(h.display?.presents, 70, "drawing never stopped")
        let m = try MetricsSamples(parsing: String(contentsOfFile: dir + "/pulsedot.prom", encoding: .utf8))
        XCTAssertNil(m.sample("pulsedot_transit_off_route"), "no trip is shown once its feed failed to load")
    }
}

/// `pulsedot status` of a metrics file written just now.
enum StatusSummaryText {
    static func of(_ text: String, written: Double) throws -> String {
        try StatusSummary.text(metrics: text, path: "pulsedot.prom", written: written, now: written, every: 1)
    }
}
