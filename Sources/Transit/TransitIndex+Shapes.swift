import GTFS

/// A shape and the trips that run along it, as `trip = auto` asks for them: the line once, then
/// every trip on it with its stops placed on that line, in one pass over stop_times by trip.
extension TransitIndex {
    /// The shape's line; nil when the feed has no such shape or it has fewer than two points.
    public func shapeLine(_ shapeID: String) throws(TransitError) -> ShapeLine? {
        let query = try database.prepare("""
            SELECT p.lat, p.lon, p.dist FROM shape_points p JOIN shapes s ON s.id = p.shape WHERE s.shape_id = ?1 ORDER BY p.sequence
            """)
        query.bind(1, shapeID)
        var points: [ShapeLine.Point] = []
        while try query.step() {
            points.append(ShapeLine.Point(latitude: query.double(0)!, longitude: query.double(1)!, feedDistance: query.double(2)))
        }
        return points.count >= 2 ? ShapeLine(points: points) : nil
    }

    /// Every trip on the shape with its timetable along `line` (the shape's own). Trips with one
    /// stop pattern are placed once: most trips of a shape share it.
    public func scheduledTrips(onShape shapeID: String, line: ShapeLine) throws(TransitError) -> [ScheduledTrip] {
        let rows = try database.prepare("""
            SELECT t.id, t.trip_id, t.service, st.stop, coalesce(s.lat, p.lat), coalesce(s.lon, p.lon), st.arrival, st.departure, st.shape_dist
            FROM shapes h JOIN trips t ON t.shape = h.id JOIN stop_times st ON st.trip = t.id
            JOIN stops s ON s.id = st.stop LEFT JOIN stops p ON p.id = s.parent
            WHERE h.shape_id = ?1 ORDER BY t.id, st.stop_sequence
            """)
        rows.bind(1, shapeID)
        struct Pending {
            var row: Int64
            var tripID: String
            var service: Int64
            var stops: [Int64] = []
            var rows: [StopRow] = []
        }
        var pending: [Pending] = []
        while try rows.step() {
            let tripRow = rows.integer(0)!
            if pending.last?.row != tripRow {
                pending.append(Pending(row: tripRow, tripID: rows.text(1) ?? "", service: rows.integer(2)!))
            }
            pending[pending.count - 1].stops.append(rows.integer(3)!)
            pending[pending.count - 1].rows.append(StopRow(
                sequence: 0, stopID: "", name: "", latitude: rows.double(4) ?? 0, longitude: rows.double(5) ?? 0,
                arrival: rows.integer(6).map { Int($0) }, departure: rows.integer(7).map { Int($0) }, pickup: 0, dropOff: 0,
                headsign: nil, feedDistance: rows.double(8)))
        }
        var periods: [Int64: [Trip.Frequency]] = [:]
        let frequencies = try database.prepare("""
            SELECT f.trip, f.start_time, f.end_time, f.headway_secs, f.exact_times FROM frequencies f
            JOIN trips t ON t.id = f.trip JOIN shapes h ON h.id = t.shape WHERE h.shape_id = ?1 ORDER BY f.trip, f.start_time
            """)
        frequencies.bind(1, shapeID)
        while try frequencies.step() {
            periods[frequencies.integer(0)!, default: []].append(Trip.Frequency(
                start: Int(frequencies.integer(1)!), end: Int(frequencies.integer(2)!),
                headway: Int(frequencies.integer(3)!), exactTimes: frequencies.integer(4) == 1))
        }
        var placements: [[Int64]: [Double]] = [:]
        var trips: [ScheduledTrip] = []
        trips.reserveCapacity(pending.count)
        for trip in pending {
            let distances: [Double]
            if let known = placements[trip.stops], trip.rows.allSatisfy({ $0.feedDistance == nil }) {
                distances = known
            } else {
                distances = StopPlacement.place(trip.rows.map { StopPlacement.Stop(latitude: $0.latitude, longitude: $0.longitude,
                                                                                   feedDistance: $0.feedDistance) }, on: line).distances
                if trip.rows.allSatisfy({ $0.feedDistance == nil }) { placements[trip.stops] = distances }
            }
            let times = Self.interpolate(trip.rows, distances: distances)
            trips.append(ScheduledTrip(tripID: trip.tripID, stopDistances: distances, arrivals: times.map { $0.arrival },
                                       departures: times.map { $0.departure }, frequencies: periods[trip.row] ?? [],
                                       serviceRow: trip.service))
        }
        return trips
    }
}
