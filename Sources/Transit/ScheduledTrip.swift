/// A trip's timetable laid along its shape, for telling from the clock which of the trips that
/// share one shape a vehicle on it runs: when each run is due at each metre.
public struct ScheduledTrip: Sendable {
    public let tripID: String
    /// Metres along the shape of each stop, in stop_sequence order, and the stop's times in
    /// seconds of the service day (the feed's gaps interpolated; nil where nothing bounds them).
    public let stopDistances: [Double]
    public let arrivals: [Int?]
    public let departures: [Int?]
    /// frequencies.txt's periods; empty for a trip run once at its own times.
    public let frequencies: [Trip.Frequency]
    let serviceRow: Int64

    public init(tripID: String, stopDistances: [Double], arrivals: [Int?], departures: [Int?], frequencies: [Trip.Frequency],
                serviceRow: Int64) {
        self.tripID = tripID
        self.stopDistances = stopDistances
        self.arrivals = arrivals
        self.departures = departures
        self.frequencies = frequencies
        self.serviceRow = serviceRow
    }

    public var firstDeparture: Int? { departures.lazy.compactMap { $0 }.first }
    public var lastArrival: Int? { arrivals.reversed().lazy.compactMap { $0 }.first }

    /// When the timetable has the vehicle `distance` metres along: between two timed stops on a
    /// straight line from the one's departure to the other's arrival; before the first stop its
    /// departure, after the last its arrival. nil when no stop has a time.
    public func time(at distance: Double) -> Int? {
        var previous: (distance: Double, departure: Int)?
        for i in stopDistances.indices {
            guard let arrival = arrivals[i] ?? departures[i] else { continue }
            let departure = departures[i] ?? arrival
            if stopDistances[i] >= distance {
                guard let p = previous, stopDistances[i] > p.distance else { return previous?.departure ?? arrival }
                let fraction = (distance - p.distance) / (stopDistances[i] - p.distance)
                return p.departure + Int((Double(arrival - p.departure) * fraction).rounded())
            }
            previous = (stopDistances[i], departure)
        }
        return previous?.departure
    }
}
