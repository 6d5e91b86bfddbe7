import Demo
import Foundation
import GTFSRealtime
@testable import Kiosk
import TestSupport
import Transit
import XCTest

/// Every trip of every real feed the tests have, a vehicle put halfway between each two of its
/// stops at the time its timetable says (10 m off its line): the kiosk's marker must land on the
/// vehicle's true place along the trip — by the stop its VehiclePosition names, and, with none,
/// by the timetable — however often the line passes that place (rings, terminal loops, both ways
/// along one street). Trips with the same line and stops are checked once for all.
final class EveryTripMarkerTests: XCTestCase {
    struct Report: CustomStringConvertible {
        var feed: String, trips = 0, places = 0, namedOff = 0, timedOff = 0, worstNamed = 0.0, worstTimed = 0.0, loops = 0
        var failures: [String] = []
        var description: String {
            "\(feed): \(trips) trips (\(loops) whose line passes a place twice), \(places) places; off by more than 60 m: \(namedOff) with the stop named "
                + "(worst \(Int(worstNamed)) m), \(timedOff) by the timetable (worst \(Int(worstTimed)) m)"
                + (failures.isEmpty ? "" : "; " + failures.prefix(5).joined(separator: "; "))
        }
    }

    static var feeds: String { (ProcessInfo.processInfo.environment["PULSEDOT_CACHE"] ?? "/var/cache/pulsedot-test") + "/gtfs-feeds" }

    func check(_ name: String, feed: String) throws -> Report {
        let folder = try TestEnvironment.temporaryDirectory("every-marker")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try TransitImporter.importFeed(at: feed, cacheDirectory: folder.path) { _ in }
        let index = try TransitIndex(path: report.path)
        let model = try KioskModel(index: index, zone: try TimeZoneRules.load("UTC"), stopIDs: [], settings: KioskModel.Settings())
        var out = Report(feed: name)
        var seen = Set<String>()
        for id in try tripIDs(feed) {
            guard let trip = try model.trip(id), trip.stops.count >= 2, trip.line.length > 0 else { continue }
            out.trips += 1
            let key = trip.stops.map { "\($0.stopID):\(Int($0.distance)):\($0.departure ?? -1)" }.joined(separator: ";") + "|\(trip.shapeID ?? "")"
            guard seen.insert(key).inserted else { continue }
            let last = trip.stops[trip.stops.count - 1]
            guard let lastTime = last.arrival ?? last.departure else { continue }
            let origin: Int64 = 1_800_000_000
            let due = TransitIndex.StopDeparture(tripID: id, route: trip.route, headsign: trip.headsign ?? "", stopID: last.stopID, platformCode: nil,
                                                 stopSequence: last.sequence, departure: origin + Int64(last.departure ?? lastTime),
                                                 startDate: 0, startTime: 0, frequencyBased: false)
            var passesTwice = false
            for i in 0..<(trip.stops.count - 1) {
                let a = trip.stops[i], b = trip.stops[i + 1]
                guard let ta = a.departure ?? a.arrival, let tb = b.arrival ?? b.departure, b.distance > a.distance + 50 else { continue }
                let d = (a.distance + b.distance) / 2, t = Double(origin) + Double(ta + tb) / 2
                let p = trip.line.position(at: d)
                // 10 m east of the line.
                let lon = p.longitude + 10 / (111_320 * cos(p.latitude * .pi / 180))
                out.places += 1
                if let other = trip.line.project(latitude: p.latitude, longitude: lon, from: 0, to: trip.line.length),
                   abs(other.distance - d) > 200 { passesTwice = true }
                var named = VehiclePosition()
                named.currentStopSequence = UInt32(b.sequence)
                if let got = model.place(named, latitude: p.latitude, longitude: lon, on: trip, previous: nil, due: due, now: t) {
                    let off = abs(got.distance - d)
                    out.worstNamed = max(out.worstNamed, off)
                    if off > 60 { out.namedOff += 1 }
                } else { out.namedOff += 1 }
                if let got = model.place(VehiclePosition(), latitude: p.latitude, longitude: lon, on: trip, previous: nil, due: due, now: t) {
                    let off = abs(got.distance - d)
                    out.worstTimed = max(out.worstTimed, off)
                    if off > 60 {
                        out.timedOff += 1
                        out.failures.append("\(id) between stops \(i + 1) and \(i + 2): at \(Int(d)) m, put at \(Int(got.distance)) m "
                                            + "(stops at \(trip.stops.map { Int($0.distance) }), times \(trip.stops.map { $0.arrival ?? -1 }))")
                    }
                } else { out.timedOff += 1 }
            }
            if passesTwice { out.loops += 1 }
        }
        return out
    }

    /// The feed's trip ids, read from its trips.txt by Info-ZIP, not by the code under test (these
    /// feeds quote no field).
    func tripIDs(_ zip: String) throws -> [String] {
        let text = zip.hasSuffix(".zip") ? try runProgram("/usr/bin/unzip", ["-p", zip, "trips.txt"]).stdout
            : try String(contentsOfFile: zip + "/trips.txt", encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard !lines.isEmpty, let column = lines.removeFirst().firstIndex(where: { $0.trimmingCharacters(in: .init(charactersIn: "\u{FEFF}")) == "trip_id" })
        else { throw TestFailure("\(zip): trips.txt has no trip_id") }
        return lines.compactMap { column < $0.count ? $0[column] : nil }.sorted()
    }

    func testEveryMarkerOfEveryTripIsOnItsTrueLap() throws {
        var reports: [Report] = []
        reports.append(try check("Fortaleza", feed: "/work/shared/testdata/gtfs/fortaleza.zip"))
        let demo = try TestEnvironment.temporaryDirectory("every-marker-demo")
        defer { try? FileManager.default.removeItem(at: demo) }
        try DemoFeed().write(to: demo.path + "/town-gtfs")
        reports.append(try check("demo town", feed: demo.path + "/town-gtfs"))
        reports.append(try check("Cairns", feed: Self.feeds + "/cairns_gtfs.zip"))
        reports.append(try check("New York subway", feed: Self.feeds + "/nyc_subway_gtfs.zip"))
        print(reports.map(\.description).joined(separator: "\n"))
        for r in reports {
            XCTAssertEqual(r.namedOff, 0, r.description)
            XCTAssertEqual(r.timedOff, 0, r.description)
            XCTAssertGreaterThan(r.places, r.feed == "demo town" ? 5 : 100, r.description)
        }
        XCTAssertGreaterThan(reports.map(\.loops).reduce(0, +), 0, "no feed has a line passing a place twice: the test would prove nothing")
    }
}
