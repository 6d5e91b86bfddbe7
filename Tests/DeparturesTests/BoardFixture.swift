import Departures
import Foundation
import GTFSRealtime
import TestSupport
import Transit

/// The tests' world: Fortaleza's real feed imported once, the TripUpdates make_updates.py builds
/// with Google's bindings (decoded by the project's reader), and a tiny frequencies.txt feed.
/// The day is Wednesday 2019-07-03; Fortaleza keeps UTC-3 all year, so its service day starts at
/// 03:00 UTC, 1,562,122,800 (counted by hand, not by the code under test).
enum BoardFixture {
    static let feed = "/work/shared/testdata/gtfs/fortaleza.zip"
    static let dayStart: Int64 = 1_562_122_800
    static let trip = "U810-T01V05B01-I"

    static func local(_ h: Int, _ m: Int) -> Int64 { dayStart + Int64(h * 3600 + m * 60) }

    nonisolated(unsafe) static var imported: (index: TransitIndex, directory: URL)?
    nonisolated(unsafe) static var feeds: [String: FeedMessage]?
    nonisolated(unsafe) static var frequencies: (index: TransitIndex, directory: URL)?

    static func zone() throws -> TimeZoneRules { try TimeZoneRules.load("America/Fortaleza") }

    static func fortaleza() throws -> TransitIndex {
        if let imported { return imported.index }
        let directory = try TestEnvironment.temporaryDirectory("departures")
        let report = try TransitImporter.importFeed(at: feed, cacheDirectory: directory.path) { _ in }
        let index = try TransitIndex(path: report.path)
        imported = (index, directory)
        return index
    }

    static var python: String {
        let cache = ProcessInfo.processInfo.environment["PULSEDOT_CACHE"] ?? "/var/cache/pulsedot-test"
        return cache + "/venv-gtfsrt/bin/python3"
    }

    static func update(_ name: String) throws -> FeedMessage {
        if feeds == nil {
            guard FileManager.default.isExecutableFile(atPath: python) else {
                throw TestFailure("no \(python): run deploy/install-deps --test (it makes the venv with gtfs-realtime-bindings)")
            }
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("make_updates.py").path
            let folder = try TestEnvironment.temporaryDirectory("tripupdates")
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try runProgram(python, [script, folder.path], timeout: 120)
            guard run.status == 0 else { throw TestFailure("make_updates.py failed (\(run.status)):\n\(run.stderr)") }
            var decoded: [String: FeedMessage] = [:]
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".pb") {
                let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
                decoded[String(file.dropLast(3))] = try FeedMessage(decoding: bytes)
            }
            feeds = decoded
        }
        guard let found = feeds?[name] else { throw TestFailure("make_updates.py made no \(name)") }
        return found
    }

    /// F1 leaves platform P1 (platform_code 3) of station STA every 10 minutes from 08:00 to
    /// 09:00, reaching P2 ten minutes later; in Fortaleza's zone so one clock serves both feeds.
    static let frequencyFeed: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Test,https://example.org,America/Fortaleza\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nW,1,1,1,1,1,1,1,20190601,20191231\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nRF,A,F,Loop,3\n",
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code
            STA,Central,-3.7300,-38.5200,1,,
            P1,Central platform 3,-3.7301,-38.5201,0,STA,3
            P2,Beach,-3.7400,-38.5000,0,,

            """,
        "trips.txt": "route_id,service_id,trip_id,trip_headsign\nRF,W,F1,Beach\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nF1,08:00:00,08:00:00,P1,1\nF1,08:10:00,08:10:00,P2,2\n",
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nF1,08:00:00,09:00:00,600,1\n",
    ]

    static func frequencyIndex() throws -> TransitIndex {
        if let frequencies { return frequencies.index }
        let directory = try TestEnvironment.temporaryDirectory("departures-frequencies")
        let folder = directory.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in frequencyFeed { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let report = try TransitImporter.importFeed(at: folder.path, output: directory.appendingPathComponent("index.sqlite").path,
                                                    cacheDirectory: directory.path) { _ in }
        let index = try TransitIndex(path: report.path)
        frequencies = (index, directory)
        return index
    }

    static func removeAll() {
        for directory in [imported?.directory, frequencies?.directory].compactMap({ $0 }) { try? FileManager.default.removeItem(at: directory) }
        imported = nil
        frequencies = nil
    }

    /// The board at `stops` at `now` (08:20 by default) over a window from an hour before to two
    /// after, with the named feed applied (none: the timetable alone).
    static func board(_ feed: String?, stops: [String], index: TransitIndex? = nil, now: Int64 = local(8, 20),
                      from: Int64? = nil) throws -> DepartureBoard {
        let index = try index ?? fortaleza()
        let zone = try zone()
        let scheduled = try index.departures(at: stops, from: from ?? now - 3600, to: now + 7200, in: zone)
        let message = try feed.map(update) ?? FeedMessage(header: FeedHeader())
        return try BoardBuilder(index: index, zone: zone, stops: index.boardStops(stops))
            .board(scheduled: scheduled, feed: message, now: now, limit: 1000)
    }
}

extension DepartureBoard {
    func row(_ trip: String, _ stop: String) -> Departure? {
        departures.first { $0.timetable.tripID == trip && $0.timetable.stopID == stop }
    }
}
