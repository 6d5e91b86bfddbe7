/// Loading one trip by its id: the rows of trips, routes, agency, stop_times, stops, shapes and
/// frequencies it needs, each by its key, then the stops placed on the line and the feed's
/// missing times interpolated.
extension TransitIndex {
    /// The trip, its names in `language` where translations.txt has them (nil: the feed's own).
    public func trip(_ choice: TripChoice, language: String?) throws(TransitError) -> Trip {
        let trip = try trip(choice)
        guard let language else { return trip }
        return try translated(trip, into: language)
    }

    /// The choice as this feed reads it: `ID@HH:MM:SS` is the trip whose id is that whole text
    /// when the feed has one, else trip `ID`'s run starting then.
    public func resolve(_ choice: TripChoice) throws(TransitError) -> TripChoice {
        guard let verbatim = choice.verbatim else { return choice }
        let row = try database.prepare("SELECT 1 FROM trips WHERE trip_id = ?1")
        row.bind(1, verbatim.tripID)
        defer { row.reset() }
        return try row.step() ? verbatim : choice
    }

    public func trip(_ asked: TripChoice) throws(TransitError) -> Trip {
        let choice = try resolve(asked)
        let row = try database.prepare("""
            SELECT t.id, t.headsign, t.shape, t.service, v.service_id, r.route_id, r.short_name, r.long_name, r.type,
                r.color, r.text_color, coalesce(a.timezone, (SELECT timezone FROM agency ORDER BY id LIMIT 1)), h.shape_id
            FROM trips t JOIN routes r ON r.id = t.route JOIN services v ON v.id = t.service
            LEFT JOIN agency a ON a.id = r.agency LEFT JOIN shapes h ON h.id = t.shape
            WHERE t.trip_id = ?1
            """)
        row.bind(1, choice.tripID)
        guard try row.step() else { throw .noSuchTrip(path: path, tripID: choice.tripID) }
        let tripRow = row.integer(0)!
        let headsign = row.text(1), shapeRow = row.integer(2), serviceRow = row.integer(3)!, serviceID = row.text(4) ?? ""
        let route = Trip.Route(routeID: row.text(5) ?? "", shortName: row.text(6), longName: row.text(7), type: Int(row.integer(8) ?? 3),
                               color: row.integer(9).map { Int($0) }, textColor: row.integer(10).map { Int($0) })
        let timeZone = row.text(11) ?? "", shapeID = row.text(12)
        row.reset()

        var rows: [StopRow] = []
        let stops = try database.prepare("""
            SELECT st.stop_sequence, s.stop_id, coalesce(s.name, p.name, s.stop_id), coalesce(s.lat, p.lat), coalesce(s.lon, p.lon),
                st.arrival, st.departure, st.pickup_type, st.drop_off_type, st.stop_headsign, st.shape_dist
            FROM stop_times st JOIN stops s ON s.id = st.stop LEFT JOIN stops p ON p.id = s.parent
            WHERE st.trip = ?1 ORDER BY st.stop_sequence
            """)
        stops.bind(1, tripRow)
        while try stops.step() {
            rows.append(StopRow(sequence: Int(stops.integer(0)!), stopID: stops.text(1) ?? "", name: stops.text(2) ?? "",
                                latitude: stops.double(3) ?? 0, longitude: stops.double(4) ?? 0,
                                arrival: stops.integer(5).map { Int($0) }, departure: stops.integer(6).map { Int($0) },
                                pickup: Int(stops.integer(7) ?? 0), dropOff: Int(stops.integer(8) ?? 0),
                                headsign: stops.text(9), feedDistance: stops.double(10)))
        }
        guard !rows.isEmpty else { throw .tripChoice(text: choice.description, message: "the trip has no rows in stop_times.txt") }

        var points: [ShapeLine.Point] = []
        if let shapeRow {
            let shape = try database.prepare("SELECT lat, lon, dist FROM shape_points WHERE shape = ?1 ORDER BY sequence")
            shape.bind(1, shapeRow)
            while try shape.step() {
                points.append(ShapeLine.Point(latitude: shape.double(0)!, longitude: shape.double(1)!, feedDistance: shape.double(2)))
            }
        }
        // Without a usable shape the line runs from stop to stop, and the stops lie on it.
        let fromShape = points.count >= 2
        if !fromShape {
            points = rows.map { ShapeLine.Point(latitude: $0.latitude, longitude: $0.longitude, feedDistance: $0.feedDistance) }
        }
        let line = ShapeLine(points: points)
        let placed = StopPlacement.place(rows.map { StopPlacement.Stop(latitude: $0.latitude, longitude: $0.longitude, feedDistance: $0.feedDistance) },
                                         on: line)

        var frequencies: [Trip.Frequency] = []
        let periods = try database.prepare("SELECT start_time, end_time, headway_secs, exact_times FROM frequencies WHERE trip = ?1 ORDER BY start_time")
        periods.bind(1, tripRow)
        while try periods.step() {
            frequencies.append(Trip.Frequency(start: Int(periods.integer(0)!), end: Int(periods.integer(1)!),
                                              headway: Int(periods.integer(2)!), exactTimes: periods.integer(3) == 1))
        }

        let times = Self.interpolate(rows, distances: placed.distances)
        let shift = try Self.runShift(choice, frequencies: frequencies, firstDeparture: times.first(where: { $0.departure != nil })?.departure)
        var result: [Trip.Stop] = []
        for (i, r) in rows.enumerated() {
            let t = times[i]
            result.append(Trip.Stop(sequence: r.sequence, stopID: r.stopID, name: r.name, latitude: r.latitude, longitude: r.longitude,
                                    arrival: t.arrival.map { $0 + shift }, departure: t.departure.map { $0 + shift },
                                    interpolated: t.interpolated, pickupType: r.pickup, dropOffType: r.dropOff,
                                    headsign: r.headsign, distance: placed.distances[i]))
        }
        return Trip(tripID: choice.tripID, route: route, headsign: headsign, serviceID: serviceID, timeZone: timeZone,
                    stops: result, line: line, shapeID: fromShape ? shapeID : nil, placement: placed.method,
                    frequencies: frequencies, runStart: choice.start, serviceRow: serviceRow)
    }

    struct StopRow {
        let sequence: Int
        let stopID: String
        let name: String
        let latitude: Double
        let longitude: Double
        let arrival: Int?
        let departure: Int?
        let pickup: Int
        let dropOff: Int
        let headsign: String?
        let feedDistance: Double?
    }

    /// Each untimed stop between two timed ones gets the time its distance says, on a straight
    /// line between their departure and arrival (GTFS's own rule); by the stops' count when the
    /// two lie at one distance. Stops before the first or after the last timed one stay unknown.
    static func interpolate(_ rows: [StopRow], distances: [Double]) -> [(arrival: Int?, departure: Int?, interpolated: Bool)] {
        var out: [(arrival: Int?, departure: Int?, interpolated: Bool)] = rows.map { ($0.arrival, $0.departure, false) }
        var previous: Int?
        for (i, r) in rows.enumerated() where r.arrival != nil {
            defer { previous = i }
            guard let a = previous, i - a > 1, let leave = rows[a].departure, let reach = r.arrival else { continue }
            let span = distances[i] - distances[a]
            for k in (a + 1)..<i {
                let fraction = span > 0 ? (distances[k] - distances[a]) / span : Double(k - a) / Double(i - a)
                let t = leave + Int((Double(reach - leave) * fraction).rounded())
                out[k] = (t, t, true)
            }
        }
        return out
    }

    /// How far the chosen run's times lie after the ones stop_times gives: for a frequencies trip
    /// the run's start minus the template's first departure; a time that names no run is refused
    /// with the runs there are.
    static func runShift(_ choice: TripChoice, frequencies: [Trip.Frequency], firstDeparture: Int?) throws(TransitError) -> Int {
        guard let start = choice.start else { return 0 }
        guard let first = firstDeparture else {
            throw .tripChoice(text: choice.description, message: "the trip's first stop has no time to count the run from")
        }
        if frequencies.isEmpty {
            guard start == first else {
                throw .tripChoice(text: choice.description, message: "not in frequencies.txt: its one run starts at \(TripChoice.clock(first))")
            }
            return 0
        }
        for f in frequencies where start >= f.start && start <= f.end {
            if !f.exactTimes || (start - f.start) % f.headway == 0 { return start - first }
        }
        var runs: [String] = []
        for f in frequencies {
            runs.append("\(TripChoice.clock(f.start))-\(TripChoice.clock(f.end)) every \(f.headway) s\(f.exactTimes ? " exactly" : "")")
        }
        throw .tripChoice(text: choice.description, message: "no run starts then (frequencies.txt: \(runs.joined(separator: ", ")))")
    }
}
