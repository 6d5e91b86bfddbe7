/// One run of a trip, as the vehicle shows it: its route, where it goes, its stops in
/// stop_sequence order with every time known (the feed's gaps interpolated by distance), and
/// the line it follows.
public struct Trip: Sendable {
    public struct Route: Equatable, Sendable {
        public let routeID: String
        public let shortName: String?
        public let longName: String?
        /// route_type (3: bus).
        public let type: Int
        /// 0xRRGGBB, when the feed gives one.
        public let color: Int?
        public let textColor: Int?

        public init(routeID: String, shortName: String?, longName: String?, type: Int, color: Int?, textColor: Int?) {
            self.routeID = routeID
            self.shortName = shortName
            self.longName = longName
            self.type = type
            self.color = color
            self.textColor = textColor
        }
    }

    public struct Stop: Equatable, Sendable {
        public let sequence: Int
        public let stopID: String
        public let name: String
        public let latitude: Double
        public let longitude: Double
        /// Seconds after the service day's origin (past 86,400 after midnight); nil only when the
        /// feed leaves the first or last stop without a time, so nothing bounds an interpolation.
        public let arrival: Int?
        public let departure: Int?
        /// The times were interpolated, not given by the feed.
        public let interpolated: Bool
        /// 0 regular, 1 none, 2 phone the agency, 3 ask the driver.
        public let pickupType: Int
        public let dropOffType: Int
        public let headsign: String?
        /// Metres along the trip's line.
        public let distance: Double

        /// Nobody boards or alights here: the vehicle passes without announcing it.
        public var announced: Bool { !(pickupType == 1 && dropOffType == 1) }
    }

    /// One period of frequencies.txt: a run leaves every `headway` seconds from `start` on.
    public struct Frequency: Equatable, Sendable {
        public let start: Int
        public let end: Int
        public let headway: Int
        /// exact_times = 1: runs leave exactly at start + k × headway.
        public let exactTimes: Bool

        public init(start: Int, end: Int, headway: Int, exactTimes: Bool) {
            self.start = start
            self.end = end
            self.headway = headway
            self.exactTimes = exactTimes
        }
    }

    public let tripID: String
    public let route: Route
    public let headsign: String?
    public let serviceID: String
    /// The agency's agency_timezone: the zone the service days are counted in.
    public let timeZone: String
    public let stops: [Stop]
    /// shapes.txt's line, or the stops joined when the trip has none.
    public let line: ShapeLine
    /// nil when the line was drawn from the stops.
    public let shapeID: String?
    public let placement: StopPlacement
    /// The trip's periods in frequencies.txt (empty for a trip run once).
    public let frequencies: [Frequency]
    /// The run's start, when one run of a frequencies trip was chosen.
    public let runStart: Int?

    /// The row id of the trip's service, for the calendar queries.
    let serviceRow: Int64

    /// What the banner shows as the destination: the trip's headsign, else the last stop.
    public var destination: String { headsign ?? stops.last?.name ?? "" }

    /// Seconds after the service day's origin of the first departure and the last arrival.
    public var firstDeparture: Int? { stops.lazy.compactMap { $0.departure }.first }
    public var lastArrival: Int? { stops.reversed().lazy.compactMap { $0.arrival }.first }
}
