import Foundation
import TestSupport
import Transit

/// A feed the tests write themselves: a folder of `.txt` files (given or left out one by one),
/// imported into an index beside it.
struct SmallFeed {
    static let base: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Metro,https://example.org,Europe/Warsaw\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20250101,20251231\n",
        "calendar_dates.txt": "service_id,date,exception_type\nWK,20260105,1\nWK,20250501,2\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color\nR1,A,7,Dworzec – Łódź Fabryczna,3,E2001A,FFFFFF\n",
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code
            S1,Łódź Fabryczna,51.7700,19.4700,0,ST,2
            S2,"Piotrkowska, róg",51.7600,19.4580,0,,
            S3,Dworzec,51.7500,19.4400,0,,
            ST,Fabryczna station,51.7701,19.4701,1,,

            """,
        "trips.txt": "route_id,service_id,trip_id,trip_headsign,direction_id,block_id,shape_id\nR1,WK,T1,Dworzec,0,B7,SH1\nR1,WK,T2,Dworzec,1,B7,SH1\n",
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type,shape_dist_traveled
            T1,23:50:00,23:51:00,S1,1,,0,1,0
            T1,,,S2,2,"Dworzec, peron 1",0,0,1500.5
            T1,24:10:30,24:10:30,S3,3,,1,0,3100
            T2,08:00:00,08:00:00,S1,1,,,,
            T2,08:20:00,08:20:00,S3,2,,,,

            """,
        "shapes.txt": """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
            SH1,51.7500,19.4400,30,3100
            SH1,51.7700,19.4700,10,0
            SH1,51.7600,19.4580,20,1500.5

            """,
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nT2,06:00:00,09:00:00,600,1\n",
    ]

    let directory: URL
    var feed: String { directory.appendingPathComponent("feed").path }
    var index: String { directory.appendingPathComponent("index.sqlite").path }

    /// `files` replaces or (with nil) removes files of the base feed.
    init(_ changes: [String: String?] = [:]) throws {
        directory = try TestEnvironment.temporaryDirectory("smallfeed")
        let folder = directory.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var files = Self.base
        for (name, text) in changes { files[name] = text }
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
    }

    func importFeed() throws -> TransitImporter.Report {
        try TransitImporter.importFeed(at: feed, output: index, cacheDirectory: directory.path) { _ in }
    }

    /// Everything left in the directory besides the feed: what a failed import must not leave.
    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "feed" }.sorted()
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
