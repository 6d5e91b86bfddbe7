import GTFS

/// A stop's board from the timetable: the trips leaving some stops in a window of time. Times in
/// stop_times count from a service day's origin and may pass 24:00:00, so a window is asked of
/// every service day whose times can still reach it; frequencies.txt trips are templates, their
/// runs laid out here. stop_times_by_stop keeps each ask to the stop's own rows.
extension TransitIndex {
    /// One trip leaving one stop on one service day.
    public struct StopDeparture: Equatable, Sendable {
        public let tripID: String
        public let route: Trip.Route
        /// stop_headsign, else trip_headsign, else the name of the trip's last stop.
        public let headsign: String
        public let stopID: String
        public let platformCode: String?
        public let stopSequence: Int
        /// UTC seconds.
        public let departure: Int64
        /// The service day (YYYYMMDD) and the run's start in its seconds: what a realtime
        /// TripDescriptor names as start_date and start_time.
        public let startDate: Int
        public let startTime: Int
        /// A run of a frequencies.txt trip (realtime matches it by start_time, and gives `time` only).
        public let frequencyBased: Bool

        public init(tripID: String, route: Trip.Route, headsign: String, stopID: String, platformCode: String?, stopSequence: Int,
                    departure: Int64, startDate: Int, startTime: Int, frequencyBased: Bool) {
            self.tripID = tripID
            self.route = route
            self.headsign = headsign
            self.stopID = stopID
            self.platformCode = platformCode
            self.stopSequence = stopSequence
            self.departure = departure
            self.startDate = startDate
            self.startTime = startTime
            self.frequencyBased = frequencyBased
        }
    }

    /// A trip's stops in order with their times in its service day's seconds (a frequencies trip's
    /// template times; untimed stops interpolated as `trip(_:)` does): what realtime's delays are
    /// counted along.
    public struct TripTimetable: Sendable {
        public struct Stop: Equatable, Sendable {
            public let sequence: Int
            public let stopID: String
            public let arrival: Int?
            public let departure: Int?
            /// 1: nobody boards here, so it is no departure.
            public let pickupType: Int
        }
        public let tripID: String
        public let route: Trip.Route
        public let headsign: String?
        public let stops: [Stop]
        public let frequencies: [Trip.Frequency]
    }

    /// The departures from `stopIDs` (a station: its platforms) between `from` and `to` (UTC
    /// seconds, both included), in departure order. A trip's last stop, and a stop with
    /// pickup_type 1, are no departures.
    public func departures(at stopIDs: [String], from: Int64, to: Int64, in zone: TimeZoneRules) throws(TransitError) -> [StopDeparture] {
        let stops = try boardStops(stopIDs).map { $0.row }
        guard !stops.isEmpty, from <= to else { return [] }
        // Times past 24:00 reach into the next days: as many days back as the feed's latest time.
        let latest = Int(try database.integer("SELECT max(departure) FROM stop_times") ?? 0)
        let firstDay = CivilDay.day(fromDate: zone.date(at: from)) - max(1, latest / 86400)
        let lastDay = CivilDay.day(fromDate: zone.date(at: to))
        let query = try database.prepare("""
            SELECT t.trip_id, t.service, st.stop_sequence, st.departure, s.stop_id, s.platform_code,
                coalesce(st.stop_headsign, t.headsign, (SELECT coalesce(ls.name, ls.stop_id) FROM stop_times l JOIN stops ls ON ls.id = l.stop
                    WHERE l.trip = t.id ORDER BY l.stop_sequence DESC LIMIT 1)),
                r.route_id, r.short_name, r.long_name, r.type, r.color, r.text_color,
                (SELECT departure FROM stop_times f WHERE f.trip = t.id AND f.departure IS NOT NULL ORDER BY f.stop_sequence LIMIT 1),
                EXISTS (SELECT 1 FROM frequencies q WHERE q.trip = t.id)
            FROM stop_times st JOIN trips t ON t.id = st.trip JOIN routes r ON r.id = t.route JOIN stops s ON s.id = st.stop
            WHERE st.stop = ?1 AND coalesce(st.pickup_type, 0) != 1
                AND st.stop_sequence < (SELECT max(stop_sequence) FROM stop_times m WHERE m.trip = st.trip)
                AND ((st.departure BETWEEN ?2 AND ?3) OR st.departure IS NULL
                    OR EXISTS (SELECT 1 FROM frequencies q WHERE q.trip = t.id))
            """)
        var runsOn: [Int64: [Int: Bool]] = [:]
        var timetables: [String: TripTimetable] = [:]
        var out: [StopDeparture] = []
        for stop in stops {
            for day in firstDay...lastDay {
                let date = CivilDay.date(fromDay: day), origin = zone.serviceDayOrigin(date)
                let low = from - origin, high = to - origin
                // A frequencies run may start long before the window: its periods are asked whole.
                query.bind(1, stop)
                query.bind(2, low)
                query.bind(3, high)
                while try query.step() {
                    let service = query.integer(1)!
                    let runs: Bool
                    if let known = runsOn[service]?[date] { runs = known } else {
                        runs = try self.runs(serviceRow: service, on: date)
                        runsOn[service, default: [:]][date] = runs
                    }
                    guard runs else { continue }
                    let tripID = query.text(0) ?? "", sequence = Int(query.integer(2)!)
                    var seconds = query.integer(3).map { Int($0) }
                    if seconds == nil {
                        // An untimed stop: the time its trip interpolates.
                        if timetables[tripID] == nil { timetables[tripID] = try timetable(ofTrip: tripID) }
                        seconds = timetables[tripID]?.stops.first(where: { $0.sequence == sequence })?.departure
                    }
                    guard let at = seconds else { continue }
                    let route = Trip.Route(routeID: query.text(7) ?? "", shortName: query.text(8), longName: query.text(9),
                                           type: Int(query.integer(10) ?? 3), color: query.integer(11).map { Int($0) },
                                           textColor: query.integer(12).map { Int($0) })
                    let first = Int(query.integer(13) ?? Int64(at))
                    func add(_ start: Int, _ departure: Int, frequency: Bool) {
                        let instant = origin + Int64(departure)
                        guard instant >= from && instant <= to else { return }
                        out.append(StopDeparture(tripID: tripID, route: route, headsign: query.text(6) ?? "", stopID: query.text(4) ?? "",
                                                 platformCode: query.text(5), stopSequence: sequence, departure: instant,
                                                 startDate: date, startTime: start, frequencyBased: frequency))
                    }
                    if query.integer(14) == 1 {
                        if timetables[tripID] == nil { timetables[tripID] = try timetable(ofTrip: tripID) }
                        for f in timetables[tripID]?.frequencies ?? [] where f.headway > 0 {
                            // Runs leave at start, start + headway, … before end_time.
                            var start = f.start
                            while start < f.end {
                                add(start, start + at - first, frequency: true)
                                start += f.headway
                            }
                        }
                    } else {
                        add(first, at, frequency: false)
                    }
                }
                query.reset()
            }
        }
        out.sort { ($0.departure, $0.tripID, $0.stopSequence) < ($1.departure, $1.tripID, $1.stopSequence) }
        return out
    }

    /// A stop a board shows, a station's platform with its platform_code.
    public struct BoardStop: Equatable, Sendable {
        let row: Int64
        public let stopID: String
        public let platformCode: String?
    }

    /// Each stop itself, and a station's platforms (location_type 1's children); ids the feed
    /// does not have are left out.
    public func boardStops(_ stopIDs: [String]) throws(TransitError) -> [BoardStop] {
        let query = try database.prepare("""
            SELECT id, stop_id, platform_code FROM stops WHERE stop_id = ?1
            UNION SELECT c.id, c.stop_id, c.platform_code FROM stops c JOIN stops p ON p.id = c.parent
                WHERE p.stop_id = ?1 AND p.location_type = 1
            """)
        var stops: [BoardStop] = []
        for id in stopIDs {
            query.bind(1, id)
            while try query.step() {
                let stop = BoardStop(row: query.integer(0)!, stopID: query.text(1) ?? "", platformCode: query.text(2))
                if !stops.contains(where: { $0.row == stop.row }) { stops.append(stop) }
            }
            query.reset()
        }
        return stops
    }

    /// The trip's stops and times, nil for a trip the feed does not have.
    public func timetable(ofTrip tripID: String) throws(TransitError) -> TripTimetable? {
        let known = try database.prepare("SELECT 1 FROM trips WHERE trip_id = ?1")
        known.bind(1, tripID)
        guard try known.step() else { return nil }
        known.reset()
        // The template's own times (no run chosen): the caller shifts a run.
        let trip = try trip(TripChoice(tripID: tripID))
        return TripTimetable(tripID: tripID, route: trip.route, headsign: trip.headsign,
                             stops: trip.stops.map { TripTimetable.Stop(sequence: $0.sequence, stopID: $0.stopID, arrival: $0.arrival, departure: $0.departure,
                                                                    pickupType: $0.pickupType) },
                             frequencies: trip.frequencies)
    }

    /// A route by its route_id, nil when the feed has none.
    public func route(_ routeID: String) throws(TransitError) -> Trip.Route? {
        let query = try database.prepare("SELECT route_id, short_name, long_name, type, color, text_color FROM routes WHERE route_id = ?1")
        query.bind(1, routeID)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return Trip.Route(routeID: query.text(0) ?? "", shortName: query.text(1), longName: query.text(2), type: Int(query.integer(3) ?? 3),
                          color: query.integer(4).map { Int($0) }, textColor: query.integer(5).map { Int($0) })
    }

    /// Whether the feed has a stop of this id (realtime naming others means an outdated feed).
    public func hasStop(_ stopID: String) throws(TransitError) -> Bool {
        let query = try database.prepare("SELECT 1 FROM stops WHERE stop_id = ?1")
        query.bind(1, stopID)
        defer { query.reset() }
        return try query.step()
    }
}
