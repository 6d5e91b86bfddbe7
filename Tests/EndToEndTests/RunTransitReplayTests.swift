import Foundation
import TestSupport
import XCTest

/// A real trip of the Fortaleza feed driven by NMEA through `[source] replay` at 40× real time: 12 m/s
/// along the trip's shape with up to 8 m of noise on each fix, a dwell at every stop, the index
/// built beforehand (`pulsedot transit import`, as at a depot). The daemon
/// says each arrival once, in `stop_times` order, none skipped or repeated, and runs
/// `nextStopCommand` once for each next stop and once past the last.
final class RunTransitReplayTests: XCTestCase {
    static let trip = RunTransitRouteTests.trip

    /// One CSV record's fields (quoted fields with commas; no line breaks inside fields here).
    private static func fields(_ line: Substring) -> [String] {
        var out: [String] = [], field = "", quoted = false
        var chars = line.makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" { quoted = false } else { field.append(c) }
            } else if c == "\"" {
                if !field.isEmpty { field.append(c) }
                quoted = true
            } else if c == "," {
                out.append(field)
                field = ""
            } else if c != "\r" {
                field.append(c)
            }
        }
        out.append(field)
        return out
    }

    /// The rows of one file of the feed, by column name.
    private func table(_ file: String) throws -> [[String: String]] {
        let lines = try runProgram("/usr/bin/unzip", ["-p", RunTransitRouteTests.feed, file]).stdout
            .split(whereSeparator: \.isNewline).map { Self.fields($0) }
        guard let header = lines.first?.map({ $0.trimmingCharacters(in: CharacterSet(charactersIn: "\u{FEFF}")) }) else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// Metres between two points (equirectangular: the trip spans a few kilometres).
    private static func metres(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
        let dy = (b.lat - a.lat) * 111_320, dx = (b.lon - a.lon) * 111_320 * cos(a.lat * .pi / 180)
        return (dx * dx + dy * dy).squareRoot()
    }

    func testATripReplayedArrivesAtEveryStopInOrderAndAnnouncesEach() throws {
        let trip = try XCTUnwrap(try table("trips.txt").first { $0["trip_id"] == Self.trip })
        let shape = try table("shapes.txt").filter { $0["shape_id"] == trip["shape_id"] }
            .sorted { Int($0["shape_pt_sequence"]!)! < Int($1["shape_pt_sequence"]!)! }
            .map { (lat: Double($0["shape_pt_lat"]!)!, lon: Double($0["shape_pt_lon"]!)!) }
        let stopRows = try table("stops.txt")
        let stops = try table("stop_times.txt").filter { $0["trip_id"] == Self.trip }
            .sorted { Int($0["stop_sequence"]!)! < Int($1["stop_sequence"]!)! }
            .map { row -> (id: String, name: String, lat: Double, lon: Double) in
                let s = stopRows.first { $0["stop_id"] == row["stop_id"] }!
                return (row["stop_id"]!, s["stop_name"]!, Double(s["stop_lat"]!)!, Double(s["stop_lon"]!)!)
            }
        XCTAssertEqual(stops.count, 13)

        // Metres along the shape at each point, and each stop's place along it (its nearest point,
        // searched forward from the previous stop's).
        var along = [0.0]
        for (a, b) in zip(shape, shape.dropFirst()) { along.append(along.last! + Self.metres(a, b)) }
        var stopAlong: [Double] = [], from = 0
        for s in stops {
            let i = (from..<shape.count).min { Self.metres(shape[$0], (s.lat, s.lon)) < Self.metres(shape[$1], (s.lat, s.lon)) }!
            stopAlong.append(along[i])
            from = i
        }

        var nmea = DriveNMEA(), seed: UInt32 = 12345
        func noise() -> Double {
            seed = seed &* 1_103_515_245 &+ 12345
            return (Double(seed >> 16 & 0x7FFF) / 32767 - 0.5) * 16 / 111_320
        }
        // The bus waits a minute at its first stop (the index, built beforehand as at a depot,
        // loads in that time), then drives.
        for _ in 0..<60 { nmea.fix(lat: stops[0].lat, lon: stops[0].lon, knots: 0) }
        var d = 0.0, next = 1
        while d <= along.last! {
            while next < stops.count, stopAlong[next] <= d {
                for _ in 0..<6 { nmea.fix(lat: stops[next].lat, lon: stops[next].lon, knots: 0) }
                next += 1
            }
            let i = max(1, along.firstIndex { $0 >= d } ?? along.count - 1)
            let t = along[i] == along[i - 1] ? 0 : (d - along[i - 1]) / (along[i] - along[i - 1])
            let lat = shape[i - 1].lat + (shape[i].lat - shape[i - 1].lat) * t
            let lon = shape[i - 1].lon + (shape[i].lon - shape[i - 1].lon) * t
            nmea.fix(lat: lat + noise(), lon: lon + noise(), knots: 23.3)
            d += 12
        }
        for s in stops[next...] { for _ in 0..<6 { nmea.fix(lat: s.lat, lon: s.lon, knots: 0) } }

        let dir = try TestEnvironment.temporaryDirectory("transit-replay")
        defer { try? FileManager.default.removeItem(at: dir) }
        let replay = dir.appendingPathComponent("drive.nmea")
        try nmea.write(to: replay)
        let announced = dir.appendingPathComponent("announced.txt").path
        let config = """
            [source]
            replay = \(replay.path)
            replaySpeed = 40
            [display]
            output = none
            fps = 10
            [transit]
            gtfs = \(RunTransitRouteTests.feed)
            trip = \(Self.trip)
            cache = \(dir.path)/cache
            nextStopCommand = echo "$PULSEDOT_NEXT_STOP_SEQUENCE $PULSEDOT_NEXT_STOP_ID" >> \(announced)

            """
        let imported = try runProgram(try TestEnvironment.pulsedotBinary(),
                                      ["transit", "import", RunTransitRouteTests.feed, "--cache", dir.path + "/cache"], timeout: 300)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let daemon = try RunningDaemon(config: config, in: dir)
        try daemon.waitForLog("(stop 13 of 13)", timeout: 180)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
        let log = daemon.log

        let arrivals = log.split(separator: "\n").compactMap { line -> String? in
            guard let r = line.range(of: "transit: arrived at ") else { return nil }
            return String(line[r.upperBound...])
        }
        XCTAssertEqual(arrivals, stops.enumerated().map { "\($0.element.name) (stop \($0.offset + 1) of 13)" }, log)
        XCTAssertFalse(log.contains("transit: passed"), log)
        XCTAssertFalse(log.contains("off route"), log)
        XCTAssertFalse(log.contains("banner"), "the banner was made without a word: \(log)")
        // The commands run on their own: their lines come in any order.
        var lines: [String] = []
        _ = ChildProcess.waitUntil(timeout: 10) {
            lines = ((try? String(contentsOfFile: announced, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            return lines.count >= 13
        }
        // The trip is taken up with the bus already at its first stop, so the first next stop
        // announced is the second.
        XCTAssertEqual(lines.sorted(), (stops.enumerated().dropFirst().map { "\($0.offset + 1) \($0.element.id)" } + [" "]).sorted(), log)
    }
}
