import Foundation

/// The transit tests' street: a straight street north from Łódź's Plac Wolności with three stops,
/// and a GTFS feed of one trip along it (T1 of route 7, shape L from 100 m before the first stop
/// to 100 m past the last, a stop every five minutes from 08:00), written where a test needs it.
public enum BusStreet {
    public static let origin = (lat: 51.77, lon: 19.47)
    public static let stops: [(id: String, name: String, y: Double)] = [("A", "Plac Wolności", 0), ("B", "Piotrkowska, róg", 700), ("C", "Dworzec", 1400)]

    /// A point `x` metres east and `y` north of the origin.
    public static func at(x: Double = 0, _ y: Double) -> (lat: Double, lon: Double) {
        (origin.lat + y / 111_320.0, origin.lon + x / (111_320.0 * cos(origin.lat * .pi / 180)))
    }

    /// The feed's files in `folder` (made if missing), its calendar from `firstDay` through
    /// `lastDay` (YYYYMMDD); `colours`: route 7 in red with white text.
    public static func writeFeed(to folder: URL, firstDay: String = "20200101", lastDay: String, colours: Bool = false) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var shape = "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\n"
        for (i, y) in stride(from: -100.0, through: 1500, by: 50).enumerated() { shape += "L,\(at(y).lat),\(at(y).lon),\(i + 1)\n" }
        var stopRows = "stop_id,stop_name,stop_lat,stop_lon\n", times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for (i, s) in stops.enumerated() {
            stopRows += "\(s.id),\"\(s.name)\",\(at(s.y).lat),\(at(s.y).lon)\n"
            times += String(format: "T1,08:%02d:00,08:%02d:30,", i * 5, i * 5) + "\(s.id),\((i + 1) * 10)\n"
        }
        let routes = colours
            ? "route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color\nR7,M,7,Dworzec,3,E2001A,FFFFFF\n"
            : "route_id,agency_id,route_short_name,route_long_name,route_type\nR7,M,7,Dworzec,3\n"
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nM,Metro,https://example.org,Europe/Warsaw\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nALL,1,1,1,1,1,1,1,\(firstDay),\(lastDay)\n",
            "routes.txt": routes,
            "trips.txt": "route_id,service_id,trip_id,trip_headsign,shape_id\nR7,ALL,T1,Dworzec,L\n",
            "stops.txt": stopRows, "stop_times.txt": times, "shapes.txt": shape,
        ]
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
    }
}
