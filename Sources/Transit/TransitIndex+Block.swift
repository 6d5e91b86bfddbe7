import GTFS

/// A block: the trips one vehicle runs in a service day, one after another (trips.txt's
/// `block_id`), found by the index on it.
extension TransitIndex {
    /// One trip of a block: its id, and its first departure and last arrival in seconds of the
    /// service day.
    public struct BlockTrip: Sendable, Equatable {
        public let tripID: String
        public let start: Int
        public let end: Int

        public init(tripID: String, start: Int, end: Int) {
            self.tripID = tripID
            self.start = start
            self.end = end
        }
    }

    /// The trips of `blockID` that run on service day `date` (YYYYMMDD), in departure order.
    public func blockTrips(_ blockID: String, onServiceDay date: Int) throws(TransitError) -> [BlockTrip] {
        let query = try database.prepare("""
            SELECT t.trip_id, t.service, min(coalesce(st.departure, st.arrival)), max(coalesce(st.arrival, st.departure))
            FROM trips t JOIN stop_times st ON st.trip = t.id
            WHERE t.block_id = ?1 GROUP BY t.id ORDER BY 3, t.trip_id
            """)
        query.bind(1, blockID)
        var rows: [(trip: BlockTrip, service: Int64)] = []
        while try query.step() {
            guard let id = query.text(0), let service = query.integer(1), let start = query.integer(2) else { continue }
            rows.append((BlockTrip(tripID: id, start: Int(start), end: Int(query.integer(3) ?? start)), service))
        }
        query.reset()
        var trips: [BlockTrip] = []
        for row in rows where try runs(serviceRow: row.service, on: date) { trips.append(row.trip) }
        return trips
    }

    /// A service day (YYYYMMDD) as the log writes it: 2027-01-15.
    public static func dateText(_ date: Int) -> String { CivilDay.text(date) }

    /// Which of a block's `trips` the vehicle runs at `seconds` of the service day: the first that
    /// has not ended yet, else the last; nil for none.
    public static func current(of trips: [BlockTrip], at seconds: Int) -> Int? {
        guard !trips.isEmpty else { return nil }
        return trips.firstIndex { $0.end >= seconds } ?? trips.count - 1
    }
}
