/// What a stop kiosk's frame shows, for `frames.jsonl`: the live-data state, the board's rows,
/// the alerts, and the markers with the motion that places them at any instant. Immutable, made
/// when the kiosk's picture changes (a fetch, a minute), so a frame only retains it.
public final class KioskStamp: Sendable {
    public struct Row: Sendable {
        public let tripID: String
        public let route: String
        public let headsign: String
        public let stopID: String
        public let minutes: Int
        /// UTC seconds of the time shown.
        public let time: Int64
        public let live: Bool
        public let cancelled: Bool
        public let skipped: Bool

        public init(tripID: String, route: String, headsign: String, stopID: String, minutes: Int, time: Int64, live: Bool, cancelled: Bool, skipped: Bool) {
            self.tripID = tripID
            self.route = route
            self.headsign = headsign
            self.stopID = stopID
            self.minutes = minutes
            self.time = time
            self.live = live
            self.cancelled = cancelled
            self.skipped = skipped
        }
    }

    /// A marker moving from `from` to `to` metres along its trip's line over `duration` seconds
    /// from `start` (monotonic), through the line's points in `track`.
    public struct Marker: Sendable {
        public let vehicleID: String
        public let tripID: String
        public let from: Double
        public let to: Double
        public let start: Double
        public let duration: Double
        public let old: Bool
        /// Off its trip's line: at the one place given, not on the line.
        public let diverted: Bool
        /// The line's points between `from` and `to`: metres along, latitude, longitude.
        public let metres: [Double]
        public let latitudes: [Double]
        public let longitudes: [Double]

        public init(vehicleID: String, tripID: String, from: Double, to: Double, start: Double, duration: Double, old: Bool,
                    metres: [Double], latitudes: [Double], longitudes: [Double], diverted: Bool = false) {
            self.diverted = diverted
            self.vehicleID = vehicleID
            self.tripID = tripID
            self.from = from
            self.to = to
            self.start = start
            self.duration = duration
            self.old = old
            self.metres = metres
            self.latitudes = latitudes
            self.longitudes = longitudes
        }

        /// How far along the motion is at `t`, 0 to 1.
        public func fraction(at t: Double) -> Double {
            guard duration > 0 else { return 1 }
            return min(max((t - start) / duration, 0), 1)
        }

        /// Metres along the line, and the place there, at monotonic time `t`.
        public func place(at t: Double) -> (along: Double, latitude: Double, longitude: Double) {
            let along = from + (to - from) * fraction(at: t)
            guard let first = metres.first, let lat0 = latitudes.first, let lon0 = longitudes.first else { return (along, 0, 0) }
            if along <= first { return (along, lat0, lon0) }
            for i in 1..<metres.count where along <= metres[i] {
                let span = metres[i] - metres[i - 1]
                let k = span > 0 ? (along - metres[i - 1]) / span : 0
                return (along, latitudes[i - 1] + (latitudes[i] - latitudes[i - 1]) * k, longitudes[i - 1] + (longitudes[i] - longitudes[i - 1]) * k)
            }
            return (along, latitudes[latitudes.count - 1], longitudes[longitudes.count - 1])
        }
    }

    /// "live", "stale", "unreachable", … (`LiveData.key`).
    public let live: String
    /// What the board says of it.
    public let status: String
    public let rows: [Row]
    public let markers: [Marker]
    public let alerts: [String]

    public init(live: String, status: String, rows: [Row], markers: [Marker], alerts: [String]) {
        self.live = live
        self.status = status
        self.rows = rows
        self.markers = markers
        self.alerts = alerts
    }
}
