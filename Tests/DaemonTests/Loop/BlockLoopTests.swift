import Daemon
import Foundation
import Glibc
import TestSupport
import XCTest

/// `block BLOCK_ID` in `[transit] tripFile`: the block's trips of today's service day in departure
/// order, the one the clock is in followed first, the next taken up at the terminus. The feed: the
/// street of `TransitLoopTests` run north (T1, 09:00–09:10) then south (T2, 09:20–09:30) by block
/// B1; the harness's clock starts at 09:00 in Warsaw.
final class BlockLoopTests: XCTestCase {
    static func writeFeed(in dir: String) throws -> String {
        let feed = dir + "/feed"
        try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        var shape = "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\n"
        let ys = Array(stride(from: -100.0, through: 1500, by: 50))
        for (i, y) in ys.enumerated() { let p = TransitLoopTests.at(y); shape += "N,\(p.lat),\(p.lon),\(i + 1)\n" }
        for (i, y) in ys.reversed().enumerated() { let p = TransitLoopTests.at(y); shape += "S,\(p.lat),\(p.lon),\(i + 1)\n" }
        var stopRows = "stop_id,stop_name,stop_lat,stop_lon\n", times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        let stops = TransitLoopTests.stops
        for s in stops { let p = TransitLoopTests.at(s.y); stopRows += "\(s.id),\"\(s.name)\",\(p.lat),\(p.lon)\n" }
        for (i, s) in stops.enumerated() { times += String(format: "T1,09:%02d:00,09:%02d:30,", i * 5, i * 5) + "\(s.id),\((i + 1) * 10)\n" }
        for (i, s) in stops.reversed().enumerated() { times += String(format: "T2,09:%02d:00,09:%02d:30,", 20 + i * 5, 20 + i * 5) + "\(s.id),\((i + 1) * 10)\n" }
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nM,Metro,https://example.org,Europe/Warsaw\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nALL,1,1,1,1,1,1,1,20260101,20271231\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR7,M,7,Dworzec,3\n",
            "trips.txt": "route_id,service_id,trip_id,trip_headsign,shape_id,block_id\nR7,ALL,T2,Plac Wolności,S,B1\nR7,ALL,T1,Dworzec,N,B1\n",
            "stops.txt": stopRows, "stop_times.txt": times, "shapes.txt": shape,
        ]
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: feed + "/" + name)) }
        return feed
    }

    /// Fixes every half second from 1 s: the street north from A to C and back, standing a
    /// moment at each stop. Returns the time after the last.
    static func driveThereAndBack(_ h: LoopHarness) -> Double {
        var t = 1.0
        func fix(_ y: Double) {
            let p = TransitLoopTests.at(y)
            h.waiting.at(t) { h.source.deliver(latitude: p.lat, longitude: p.lon, at: h.waiting.now()) }
            t += 0.5
        }
        for _ in 0..<3 { fix(0) }
        for y in stride(from: 20.0, through: 1400, by: 20) {
            fix(y)
            if y == 700 { for _ in 0..<4 { fix(700) } }
        }
        for _ in 0..<4 { fix(1400) }
        for y in stride(from: 1380.0, through: 0, by: -20) {
            fix(y)
            if y == 700 { for _ in 0..<4 { fix(700) } }
        }
        for _ in 0..<4 { fix(0) }
        return t
    }

    func testTheBlocksTripsFollowOneAnotherAtTheTerminus() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-block").path
        let feed = try Self.writeFeed(in: dir)
        try "block B1\n".write(toFile: dir + "/trip", atomically: true, encoding: .utf8)
        let h = try LoopHarness(config: TransitLoopTests.config(feed: feed, dir: dir, trip: "none") + "tripFile = \(dir)/trip\nbanner = none\n")
        let t = Self.driveThereAndBack(h)
        h.waiting.signal(SIGTERM, at: t + 0.5)
        XCTAssertEqual(try h.run(), 0)

        XCTAssertEqual(h.logged("transit: block B1: 2 trips on service day 2027-01-15; trip 1 of 2 is followed").count, 1, h.log)
        XCTAssertEqual(h.logged("transit: block B1: trip T1 ended; trip T2 (2 of 2) is next").count, 1, h.log)
        XCTAssertEqual(h.logged("transit: block B1: 2 trips on service day 2027-01-15; trip 2 of 2 is followed").count, 1, h.log)
        let arrivals = h.lines.map { $0.text }.filter { $0.contains("transit: arrived") }.map { String($0[$0.range(of: "transit: ")!.lowerBound...]) }
        XCTAssertEqual(arrivals, [
            "transit: arrived at Plac Wolności (stop 1 of 3)",
            "transit: arrived at Piotrkowska, róg (stop 2 of 3)",
            "transit: arrived at Dworzec (stop 3 of 3)",
            "transit: arrived at Dworzec (stop 1 of 3)",
            "transit: arrived at Piotrkowska, róg (stop 2 of 3)",
            "transit: arrived at Plac Wolności (stop 3 of 3)",
        ], h.log)
    }

    /// The schedule's clock is the fixes' own time: the system clock says 09:00 (T1's time), the
    /// receiver 09:21 (T2's), and the block's trip is the receiver's.
    func testTheFixesTimeChoosesTheBlocksTrip() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-block-clock").path
        let feed = try Self.writeFeed(in: dir)
        let h = try LoopHarness(config: TransitLoopTests.config(feed: feed, dir: dir, trip: "none") + "tripFile = \(dir)/trip\nbanner = none\n")
        let receiver = Int64(LoopHarness.wallStart) + 21 * 60
        for (i, s) in stride(from: 1.0, through: 4, by: 0.5).enumerated() {
            let p = TransitLoopTests.at(1400)
            h.waiting.at(s) { h.source.deliver(latitude: p.lat, longitude: p.lon, utc: receiver + Int64(i), at: h.waiting.now()) }
        }
        h.waiting.at(2.2) { try? "block B1\n".write(toFile: dir + "/trip", atomically: true, encoding: .utf8) }
        h.waiting.signal(SIGTERM, at: 4.5)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.logged("transit: block B1: 2 trips on service day 2027-01-15; trip 2 of 2 is followed").count, 1, h.log)
        XCTAssertEqual(h.logged("transit: trip T2 ").count, 1, h.log)
    }
}
