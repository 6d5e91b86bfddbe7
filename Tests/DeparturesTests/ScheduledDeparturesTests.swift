import Foundation
import GTFS
import TestSupport
import Transit
import XCTest

/// The timetable's departures at a stop against Fortaleza's own CSV, read with unzip here, not
/// through the importer: every trip of the day's service at the stop, at its time, save those
/// ending there; and a station's platforms, with frequencies.txt's runs laid out.
final class ScheduledDeparturesTests: XCTestCase {
    typealias F = BoardFixture

    override class func tearDown() { BoardFixture.removeAll() }

    /// One stop_times row at a stop: its departure in the day's seconds, or for a row the feed
    /// leaves untimed, the bounds its trip's timed neighbours set (the departure before it, the
    /// arrival after); whether the trip ends there.
    struct CSVRow {
        let trip: String
        let earliest: Int
        let latest: Int
        let last: Bool
    }

    /// The rows at `stop` of the trips of `service`, from the zip's text.
    static func csvRows(stop: String, service: String) throws -> [CSVRow] {
        func member(_ name: String) throws -> [[String]] {
            let run = try runProgram("/usr/bin/unzip", ["-p", F.feed, name])
            XCTAssertEqual(run.status, 0, run.stderr)
            // Fortaleza's stop_times and trips quote nothing.
            return run.stdout.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        }
        func seconds(_ text: String) -> Int? {
            let hms = text.split(separator: ":").compactMap { Int($0) }
            return hms.count == 3 ? hms[0] * 3600 + hms[1] * 60 + hms[2] : nil
        }
        let trips = Set(try member("trips.txt").filter { $0[1] == service }.map { $0[2] })
        var byTrip: [String: [[String]]] = [:]
        for r in try member("stop_times.txt") where trips.contains(r[0]) { byTrip[r[0], default: []].append(r) }
        var out: [CSVRow] = []
        for (trip, unsorted) in byTrip {
            let rows = unsorted.sorted { Int($0[4])! < Int($1[4])! }
            for (i, r) in rows.enumerated() where r[3] == stop {
                let earliest = seconds(r[2]) ?? rows[..<i].reversed().lazy.compactMap { seconds($0[2]) }.first!
                let latest = seconds(r[2]) ?? rows[(i + 1)...].lazy.compactMap { seconds($0[1]) }.first!
                out.append(CSVRow(trip: trip, earliest: earliest, latest: latest, last: i == rows.count - 1))
            }
        }
        return out
    }

    /// Stop 2662 on Wednesday 2019-07-03 (weekday service U) and Sunday 2019-07-07 (D): exactly
    /// the CSV's trips, in time order, at the CSV's times (within its neighbours' for the rows it
    /// leaves untimed, which Sunday's has).
    func testADaysDeparturesAreTheCSVs() throws {
        let index = try F.fortaleza(), zone = try F.zone()
        for (dayStart, service) in [(F.dayStart, "U"), (F.dayStart + 4 * 86400, "D")] {
            let expected = try Self.csvRows(stop: "2662", service: service).filter { !$0.last }
            XCTAssertGreaterThan(expected.count, 20, service)
            let got = try index.departures(at: ["2662"], from: dayStart, to: dayStart + 86399, in: zone)
            XCTAssertEqual(got.map(\.tripID).sorted(), expected.map(\.trip).sorted(), service)
            XCTAssertEqual(got.map(\.departure), got.map(\.departure).sorted(), service)
            let bounds = Dictionary(uniqueKeysWithValues: expected.map { ($0.trip, $0) })
            for row in got {
                let csv = try XCTUnwrap(bounds[row.tripID])
                XCTAssertTrue((dayStart + Int64(csv.earliest)...dayStart + Int64(csv.latest)).contains(row.departure),
                              "\(row.tripID) at \(row.departure - dayStart) s, the CSV: \(csv.earliest)...\(csv.latest)")
                XCTAssertEqual(row.stopID, "2662")
                XCTAssertEqual(row.startDate, service == "U" ? 20_190_703 : 20_190_707)
            }
            if service == "U" { XCTAssertTrue(expected.allSatisfy { $0.earliest == $0.latest }, "weekdays are all timed") }
            else { XCTAssertTrue(expected.contains { $0.earliest < $0.latest }, "Sunday has untimed rows") }
        }
    }

    /// At stop 5836 some weekday trips end and others leave: only those leaving are departures.
    func testTripsEndingAtTheStopAreNoDepartures() throws {
        let rows = try Self.csvRows(stop: "5836", service: "U")
        let ending = Set(rows.filter(\.last).map(\.trip)), leaving = Set(rows.filter { !$0.last }.map(\.trip))
        XCTAssertFalse(ending.isEmpty)
        XCTAssertFalse(leaving.isEmpty)
        let got = try F.fortaleza().departures(at: ["5836"], from: F.dayStart, to: F.dayStart + 86399, in: F.zone())
        XCTAssertEqual(Set(got.map(\.tripID)), leaving)
        XCTAssertEqual(got.count, leaving.count)
    }

    /// A station takes its platforms, with platform_code; F1's six runs from 08:00 every 10
    /// minutes leave P1, not P2 (their last stop), each with its own start time.
    func testAStationsPlatformsAndFrequencyRuns() throws {
        let got = try F.frequencyIndex().departures(at: ["STA"], from: F.dayStart, to: F.dayStart + 86399, in: F.zone())
        XCTAssertEqual(got.map(\.departure), (0..<6).map { F.local(8, 10 * $0) })
        XCTAssertEqual(got.map(\.startTime), (0..<6).map { 8 * 3600 + 600 * $0 })
        XCTAssertTrue(got.allSatisfy { $0.stopID == "P1" && $0.platformCode == "3" && $0.frequencyBased && $0.headsign == "Beach" })
        XCTAssertEqual(CivilDay.text(got[0].startDate), "2019-07-03")
    }
}
