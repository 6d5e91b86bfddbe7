import Transit

/// One line of a stop's departures board: the timetable's row, and what realtime says of it.
public struct Departure: Equatable, Sendable {
    /// Trip, route, headsign, stop and platform, the scheduled time. A NEW trip has no timetable:
    /// its own predicted time stands as the scheduled one.
    public let timetable: TransitIndex.StopDeparture
    /// UTC seconds; nil when realtime says nothing of this stop (or it is cancelled or skipped).
    public let predicted: Int64?
    /// The time comes from realtime, not only the timetable.
    public let live: Bool
    public let cancelled: Bool
    public let skipped: Bool
    /// Whole minutes from `now` to `time`, rounded down; 0 is for the caller to word ("now").
    public let minutes: Int

    /// UTC seconds.
    public var scheduled: Int64 { timetable.departure }
    /// What the board sorts and counts by.
    public var time: Int64 { predicted ?? scheduled }

    public init(timetable: TransitIndex.StopDeparture, predicted: Int64?, live: Bool, cancelled: Bool, skipped: Bool, minutes: Int) {
        self.timetable = timetable
        self.predicted = predicted
        self.live = live
        self.cancelled = cancelled
        self.skipped = skipped
        self.minutes = minutes
    }
}

/// What of a realtime feed the board could not use: the caller says "static feed outdated" once
/// when trips or stops are unknown, rather than dropping them silently.
public struct RealtimeTally: Equatable, Sendable {
    /// TripUpdates naming a trip the timetable does not have (NEW trips aside).
    public var unknownTrips = 0
    /// StopTimeUpdates naming a stop or stop_sequence the trip does not have.
    public var unknownStops = 0
    /// TripUpdates with a schedule_relationship this board does not apply (UNSCHEDULED, newer ones).
    public var unsupported = 0
    /// TripUpdates applied to the board's rows.
    public var applied = 0

    public init() {}
}

/// The board: the next departures, and the tally of what realtime left unused.
public struct DepartureBoard: Equatable, Sendable {
    public let departures: [Departure]
    public let tally: RealtimeTally

    public init(departures: [Departure], tally: RealtimeTally) {
        self.departures = departures
        self.tally = tally
    }
}
