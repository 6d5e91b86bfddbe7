import Config
import Geo
import Location
import Raster
import Syscall
import Transit

/// The demo town's bus line as its agency would publish it: a GTFS feed of one agency, one route
/// and one trip round the loop, made from the town and the drive, so the trip's line is the route
/// the bus drives, its stops stand where the bus stops or passes, and its times are the drive's
/// own. The daemon follows the trip as it would a real feed's: the line on the map, the banner
/// with the next stops.
public struct DemoFeed: Sendable {
    /// A place the line serves, in the town's map pixels.
    public struct Place: Sendable {
        public let id: String
        public let name: String
        public let point: MapPoint
    }

    /// The trip at one of its stops: how far along the route (map pixels) and when (seconds of
    /// the drive, whole, as stop_times has them; arrival and departure differ where it dwells).
    public struct Call: Sendable {
        public let place: Place
        public let along: Double
        public let arrival: Int
        public let departure: Int
    }

    public static let agencyName = "Transports de Val-Joli"
    /// The drive's fixes are stamped in UTC, so counting the service day in UTC puts the trip on
    /// the day and at the hours the drive happens.
    public static let timeZone = "Etc/UTC"
    public static let routeID = "12"
    public static let routeShortName = "12"
    public static let routeLongName = "Boucle du Parc"
    /// Purple with white text: the line drawn over the map must not be mistaken for the map's own
    /// orange bus line underneath it, nor for the dot's blue.
    public static let routeColor = Color(r: 0xAF, g: 0x52, b: 0xDE)
    public static let routeTextColor = Color.white
    public static let tripID = "12-0800"
    static let serviceID = "tous-les-jours"
    static let shapeID = "12-boucle"
    /// Every day for years: the display demo follows the trip by the machine's own date.
    static let serviceStart = "20250101", serviceEnd = "20351231"

    /// Where each lap begins and ends: the trip's first and last stop.
    public static let terminal = Place(id: "belvedere", name: "Terminus Belvédère", point: DemoTown.terminal)
    /// The places between, in the order the bus reaches them: its two stops (A and B), and
    /// three it passes without stopping, one of them after the tunnel.
    public static let places = [
        Place(id: "erables", name: "Parc des Érables", point: DemoTown.stopA),
        Place(id: "saint-eloi", name: "Rue Saint-Éloi", point: MapPoint(x: 2860, y: 1100)),
        Place(id: "tilleuls", name: "Rue des Tilleuls", point: MapPoint(x: 2500, y: 1950)),
        Place(id: "place-armes", name: "Place d'Armes", point: DemoTown.stopB),
        Place(id: "marche", name: "Marché aux Fleurs", point: MapPoint(x: 1250, y: 900)),
    ]

    public let drive: DemoDrive

    public init(drive: DemoDrive = DemoDrive()) { self.drive = drive }

    /// Each lap of the drive is a run of the trip: frequencies.txt repeats it every lap (the
    /// lap's length in whole seconds), as many times as the demo writes laps, so the display demo
    /// tells each lap's run from the fixes (`trip = auto`).
    public var headway: Int { Int(drive.timeline.duration.rounded()) }

    /// The first lap's run, which the headless demo draws.
    public static var firstRun: TripChoice {
        TripChoice(tripID: tripID, start: Int(DemoDrive.startTime.secondsSinceEpoch % 86_400))
    }

    /// The trip's stops in order, the terminal first and last: dwelling where the drive dwells,
    /// passing the others the second the drive does.
    public var calls: [Call] {
        let route = drive.town.route, tl = drive.timeline
        var calls = [Call(place: Self.terminal, along: 0, arrival: 0, departure: Int(tl.departs.rounded()))]
        for place in Self.places {
            let along = route.distance(toNearest: place.point).along
            let dwell: ClosedRange<Double>? = place.point == DemoTown.stopA ? tl.stopA : place.point == DemoTown.stopB ? tl.stopB : nil
            if let dwell {
                calls.append(Call(place: place, along: along, arrival: Int(dwell.lowerBound.rounded()), departure: Int(dwell.upperBound.rounded())))
            } else {
                let passing = Int(drive.samples.first { $0.along >= along }?.time ?? tl.arrives)
                calls.append(Call(place: place, along: along, arrival: passing, departure: passing))
            }
        }
        let end = Int(tl.arrives.rounded(.up))
        calls.append(Call(place: Self.terminal, along: route.length, arrival: end, departure: end))
        return calls
    }

    /// The feed's files, name and text.
    public var files: [(name: String, text: String)] { files(headway: headway, from: 0, to: headway * DemoFiles.maxLaps) }

    /// The same trip leaving every `headway` seconds from `from` until before `to` (seconds of
    /// the service day): the kiosk demo's busier loop.
    public func files(headway: Int, from: Int, to: Int) -> [(name: String, text: String)] {
        let town = drive.town, calls = self.calls
        let metres = town.metresPerPixel
        var stops = "stop_id,stop_name,stop_lat,stop_lon\n"
        for place in [Self.terminal] + Self.places {
            let p = town.geoPoint(place.point)
            stops += row([place.id, place.name, degrees(p.latitude), degrees(p.longitude)])
        }
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\n"
        for (i, call) in calls.enumerated() {
            stopTimes += row([Self.tripID, clock(call.arrival), clock(call.departure), call.place.id, String(i + 1),
                              centimetres(call.along * metres)])
        }
        var shapes = "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\n"
        for (i, point) in town.route.points.enumerated() {
            let p = town.geoPoint(point)
            shapes += row([Self.shapeID, degrees(p.latitude), degrees(p.longitude), String(i + 1),
                           centimetres(town.route.cumulative[i] * metres)])
        }
        return [
            ("agency.txt", "agency_id,agency_name,agency_url,agency_timezone,agency_lang\n"
                + row(["vj", Self.agencyName, "https://transports.val-joli.invalid/", Self.timeZone, "fr"])),
            ("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color\n"
                + row([Self.routeID, "vj", Self.routeShortName, Self.routeLongName, "3", hex(Self.routeColor), hex(Self.routeTextColor)])),
            ("trips.txt", "route_id,service_id,trip_id,trip_headsign,shape_id\n"
                + row([Self.routeID, Self.serviceID, Self.tripID, Self.terminal.name, Self.shapeID])),
            ("calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                + row([Self.serviceID, "1", "1", "1", "1", "1", "1", "1", Self.serviceStart, Self.serviceEnd])),
            ("stops.txt", stops),
            ("stop_times.txt", stopTimes),
            ("shapes.txt", shapes),
            ("frequencies.txt", "trip_id,start_time,end_time,headway_secs,exact_times\n"
                + row([Self.tripID, clock(from), clock(to), String(headway), "1"])),
        ]
    }

    /// Writes the feed's files into `directory` (a GTFS folder), creating it.
    public func write(to directory: String) throws(DemoError) { try write(files, to: directory) }

    func write(_ files: [(name: String, text: String)], to directory: String) throws(DemoError) {
        do {
            try Directory.create(directory)
            for file in files { try DemoFiles.writeText(file.text, to: directory + "/" + file.name) }
        } catch { throw DemoError(error) }
    }

    /// `seconds` of the drive on the drive's clock (UTC, the agency's zone) as stop_times says it.
    func clock(_ seconds: Int) -> String {
        let t = Int(DemoDrive.startTime.secondsSinceEpoch % 86_400) + seconds
        func two(_ v: Int) -> String { v < 10 ? "0" + String(v) : String(v) }
        return two(t / 3600) + ":" + two(t / 60 % 60) + ":" + two(t % 60)
    }

    /// Seven decimals: a centimetre, finer than any receiver.
    func degrees(_ v: Double) -> String { String((v * 1e7).rounded() / 1e7) }

    func centimetres(_ v: Double) -> String { String((v * 100).rounded() / 100) }

    func hex(_ c: Color) -> String { String(formatColor(c).dropFirst()) }

    /// A CSV row; a field with a comma or a quote is quoted, as RFC 4180 has it.
    func row(_ fields: [String]) -> String {
        fields.map { f in
            f.contains(",") || f.contains("\"") ? "\"" + f.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"" : f
        }.joined(separator: ",") + "\n"
    }
}
