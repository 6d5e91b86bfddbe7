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

    /// A block's trips on the service day an instant falls in, and the one the clock is in.
    public struct BlockDay: Sendable, Equatable {
        /// YYYYMMDD.
        public let date: Int
        public let trips: [BlockTrip]
        /// The trip the clock is in, or the next (the last once all ended).
        public let current: Int

        public init(date: Int, trips: [BlockTrip], current: Int) {
            self.date = date
            self.trips = trips
            self.current = current
        }
    }

    /// The block's service day at `instant`: yesterday's while its trips still run past midnight
    /// (times past 24:00:00 belong to the day before), else today's in the agency's zone. nil
    /// when neither day has a trip of the block.
    public func blockDay(_ blockID: String, at instant: Int64, in zone: TimeZoneRules) throws(TransitError) -> BlockDay? {
        let today = zone.date(at: instant)
        let yesterday = CivilDay.date(fromDay: CivilDay.day(fromDate: today) - 1)
        let late = try blockTrips(blockID, onServiceDay: yesterday)
        let lateSeconds = Int(instant - zone.serviceDayOrigin(yesterday))
        if let last = late.last, last.end >= lateSeconds, let current = Self.current(of: late, at: lateSeconds) {
            return BlockDay(date: yesterday, trips: late, current: current)
        }
        let trips = try blockTrips(blockID, onServiceDay: today)
        guard let current = Self.current(of: trips, at: Int(instant - zone.serviceDayOrigin(today))) else { return nil }
        return BlockDay(date: today, trips: trips, current: current)
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
