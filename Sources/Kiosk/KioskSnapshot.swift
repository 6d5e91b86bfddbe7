import Transit

/// Whether the board may call its times live, and if not, why: said on the screen, in the
/// metrics and in frames.jsonl. Predictions are never shown as live once any of these holds.
public enum LiveData: Equatable, Sendable {
    case live
    /// No TripUpdates feed is configured: the board is the timetable.
    case noFeed
    /// Nothing usable fetched yet.
    case waiting
    /// The last fetch failed and the last good feed is older than `staleAfter`.
    case unreachable(String)
    /// The feed answers, but its header timestamp is older than `staleAfter` (seconds old).
    case stale(seconds: Int64)
    /// The kernel says the clock is not synchronised: "in 3 min" would be a guess.
    case clockNotSynchronised

    public var isLive: Bool { self == .live }

    /// A word for the metrics and frames.jsonl.
    public var key: String {
        switch self {
        case .live: "live"
        case .noFeed: "no_feed"
        case .waiting: "waiting"
        case .unreachable: "unreachable"
        case .stale: "stale"
        case .clockNotSynchronised: "clock_not_synchronised"
        }
    }

    /// The sentence on the screen and in the log.
    public var sentence: String {
        switch self {
        case .live: "live"
        case .noFeed: "no live data: timetable only"
        case .waiting: "no live data yet: timetable times"
        case .unreachable: "no live data (feed unreachable): timetable times"
        case .stale(let s): "no live data (feed " + (s < 120 ? "\(s) s" : "\(s / 60) min") + " old): timetable times"
        case .clockNotSynchronised: "no live data (clock not synchronised): timetable times"
        }
    }
}

/// One row of the board as shown.
public struct BoardRow: Equatable, Sendable {
    public let tripID: String
    public let route: Trip.Route
    public let headsign: String
    public let stopID: String
    public let platformCode: String?
    /// UTC seconds of the departure shown (predicted when live, else scheduled).
    public let time: Int64
    /// Whole minutes to it; 0 reads "now".
    public let minutes: Int
    public let live: Bool
    public let cancelled: Bool
    public let skipped: Bool

    /// What the minutes column says.
    public var when: String {
        if cancelled { return "cancelled" }
        if skipped { return "no stop" }
        return minutes <= 0 ? "now" : "\(minutes) min"
    }
}

/// A vehicle coming to the stop, and where it is to be drawn: `along` metres along its trip's
/// line, never less than it was drawn before.
public struct VehicleMarker: Sendable {
    public let vehicleID: String
    public let tripID: String
    /// The route's short name (else its id), or the vehicle's label: the marker's text.
    public let label: String
    public let route: Trip.Route
    /// Degrees clockwise from north; nil: not given.
    public let bearing: Double?
    /// Metres along the trip's line where the vehicle is shown once it has moved there.
    public let along: Double
    /// Older than `staleAfter`: drawn faded.
    public let old: Bool
    /// The shape the marker moves along (lat/lon points with their metres), shared by the
    /// markers of one trip.
    public let line: ShapeLine
    /// Off its line by more than `divertedMeters`: drawn where the feed puts it (not on the
    /// line), as diverted; nil when on its line.
    public var diverted: (latitude: Double, longitude: Double)? = nil
}

/// What the kiosk shows now, made on the transit worker and handed to the loop.
public struct KioskSnapshot: Sendable {
    public var live: LiveData
    public var rows: [BoardRow]
    /// Alert texts in the configured language, for the alerts line.
    public var alerts: [String]
    public var markers: [VehicleMarker]
    /// The trips whose lines to draw: one per route and headsign leaving the stop within the window.
    public var lines: [Trip] = []
    /// Seconds since the TripUpdates feed's header time (the fetch time where it has none); nil: none yet.
    public var tripUpdatesAge: Double?
    public var vehiclePositionsAge: Double?
    public var alertsAge: Double?
}
