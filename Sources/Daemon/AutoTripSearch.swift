import Transit

/// What the search posts: a remark for the log (said once), the trip found, or why it stopped.
enum AutoTripOutcome: Sendable {
    case remark(String)
    case found(AutoTripFound)
    case failed(String)
}

/// The trip `trip = auto` chose, loaded, with the service day it runs on and where on its line
/// the vehicle was at the deciding fix (`fixTime`, on the loop's monotonic clock).
struct AutoTripFound: Sendable {
    var trip: Trip
    var day: TransitIndex.TripDay
    var decision: TripDetector.Decision
    var fixTime: Double
}

/// `trip = auto` on the transit worker: the fixes handed to a `TripDetector` over the loaded
/// index, one job each, so its queries (shapes near the fix, the trips on a shape) never run on
/// the frame loop. Once a trip is found, further fixes already queued are let go until the loop
/// asks for a new search (the trip ended, or the vehicle left its line).
///
/// Unchecked Sendable: made on the loop's thread, then touched only by jobs on the one transit
/// worker, which runs them one at a time in order.
final class AutoTripSearch: @unchecked Sendable {
    let indexPath: String
    let zone: TimeZoneRules
    let settings: TripDetector.Settings
    let generation: Int
    let language: String?
    private var detector: TripDetector?
    private var found = false
    private var failed = false

    init(indexPath: String, zone: TimeZoneRules, offRouteMeters: Double, language: String?, generation: Int) {
        self.language = language
        self.indexPath = indexPath
        self.zone = zone
        var s = TripDetector.Settings()
        s.nearMeters = offRouteMeters
        settings = s
        self.generation = generation
    }

    /// One fix: degrees; `clock`, the schedule's (UTC seconds); `fixTime`, the loop's monotonic one.
    func fix(latitude: Double, longitude: Double, clock: Double, fixTime: Double, to handover: TransitHandover) {
        guard !found, !failed else { return }
        do throws(TransitError) {
            if detector == nil { detector = TripDetector(index: try TransitIndex(path: indexPath), zone: zone, settings: settings) }
            let detector = detector!
            let step = try detector.update(latitude: latitude, longitude: longitude, time: clock)
            if let remark = step.remark { handover.post(.autoTrip(generation: generation, .remark(remark))) }
            guard let decision = step.decision else { return }
            found = true
            let trip = try detector.index.trip(decision.choice, language: language)
            let day = try detector.index.serviceDay(of: trip, at: Int64(clock.rounded(.down)), in: zone)
            handover.post(.autoTrip(generation: generation, .found(AutoTripFound(trip: trip, day: day, decision: decision, fixTime: fixTime))))
        } catch {
            failed = true
            handover.post(.autoTrip(generation: generation, .failed(error.description)))
        }
    }

    /// The next fixes look afresh.
    func restart() {
        found = false
        detector?.reset()
    }
}
