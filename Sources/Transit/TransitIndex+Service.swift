import GTFS

/// Service days as GTFS counts them: a day's times run from "noon minus 12 h" in the agency's
/// zone, and a time past 24:00:00 still belongs to the day the trip started, so an instant after
/// midnight may be yesterday's service.
extension TransitIndex {
    /// The service day a trip's run at an instant belongs to.
    public struct TripDay: Equatable, Sendable {
        /// YYYYMMDD.
        public let date: Int
        /// The instant (UTC seconds) the day's times count from.
        public let origin: Int64
        /// The trip's calendar has it on this day.
        public let runs: Bool
        /// The instant asked about, in the day's seconds (as stop_times writes them).
        public let seconds: Int

        /// `2019-06-16`.
        public var dateText: String { CivilDay.text(date) }
    }

    /// Whether `serviceRow`'s calendar (calendar.txt's weekdays and range, calendar_dates.txt's
    /// exceptions, either file possibly absent) has service on `date` (YYYYMMDD).
    func runs(serviceRow: Int64, on date: Int) throws(TransitError) -> Bool {
        let exception = try database.prepare("SELECT exception_type FROM calendar_dates WHERE service = ?1 AND date = ?2")
        exception.bind(1, serviceRow)
        exception.bind(2, date)
        if try exception.step() {
            let type = exception.integer(0)
            exception.reset()
            return type == 1
        }
        let calendar = try database.prepare("SELECT days, start_date, end_date FROM calendar WHERE service = ?1")
        calendar.bind(1, serviceRow)
        guard try calendar.step() else { return false }
        let days = Int(calendar.integer(0)!), first = Int(calendar.integer(1)!), last = Int(calendar.integer(2)!)
        calendar.reset()
        guard date >= first && date <= last else { return false }
        // Bit 0 is Monday; 1970-01-01 was a Thursday.
        let weekday = ((CivilDay.day(fromDate: date) + 3) % 7 + 7) % 7
        return days >> weekday & 1 == 1
    }

    /// Whether the trip runs on the service day `date` (YYYYMMDD).
    public func runs(_ trip: Trip, onServiceDay date: Int) throws(TransitError) -> Bool {
        try runs(serviceRow: trip.serviceRow, on: date)
    }

    /// The service day the trip's run at `instant` belongs to. Today's day and the days before
    /// whose times still reach the instant (yesterday at least: a trip at 25:10:00) are asked;
    /// of those the trip runs on, the one whose run the instant is in or nearest to wins, the
    /// later day on a tie. When it runs on none of them: today, with `runs` false (the trip is
    /// shown all the same; the caller says so).
    public func serviceDay(of trip: Trip, at instant: Int64, in zone: TimeZoneRules) throws(TransitError) -> TripDay {
        let today = zone.date(at: instant)
        let first = trip.firstDeparture ?? 0, last = trip.lastArrival ?? first
        let daysBack = max(1, last / 86400)
        var best: TripDay?
        var bestGap = Int.max
        var day = CivilDay.day(fromDate: today)
        for _ in 0...daysBack {
            let date = CivilDay.date(fromDay: day)
            let origin = zone.serviceDayOrigin(date)
            let seconds = Int(instant - origin)
            // Today's seconds may be negative: on the autumn change its origin is 01:00 local.
            if try runs(trip, onServiceDay: date) {
                let gap = seconds < first ? first - seconds : (seconds > last ? seconds - last : 0)
                if gap < bestGap {
                    bestGap = gap
                    best = TripDay(date: date, origin: origin, runs: true, seconds: seconds)
                }
            }
            day -= 1
        }
        if let best { return best }
        let origin = zone.serviceDayOrigin(today)
        return TripDay(date: today, origin: origin, runs: false, seconds: Int(instant - origin))
    }

    /// The first and last days the feed has any service, nil when its calendars name none.
    public func servicePeriod() throws(TransitError) -> ServicePeriod? {
        // Added dates count as service; removed ones never extend it.
        let first = try database.integer("""
            SELECT min(d) FROM (SELECT min(start_date) AS d FROM calendar UNION ALL SELECT min(date) FROM calendar_dates WHERE exception_type = 1)
            """)
        let last = try database.integer("""
            SELECT max(d) FROM (SELECT max(end_date) AS d FROM calendar UNION ALL SELECT max(date) FROM calendar_dates WHERE exception_type = 1)
            """)
        guard let first, let last else { return nil }
        return ServicePeriod(first: Int(first), last: Int(last))
    }

    /// Whether the feed's service period is over at `instant`: the agency's local date is after
    /// its last day of service, or it names no day at all. A trip past midnight of the last day
    /// is still that day's; the period only warns, it never hides the trip.
    public func serviceEnded(at instant: Int64, in zone: TimeZoneRules) throws(TransitError) -> Bool {
        guard let period = try servicePeriod() else { return true }
        return zone.date(at: instant) > period.last
    }
}
