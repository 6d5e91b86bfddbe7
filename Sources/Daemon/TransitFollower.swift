import Config
import DisplayCore
import FeedFetch
import Positioning
import Raster
import Syscall
import Transit

/// The loop's side of transit: what was asked of the worker, what came back, and where the
/// vehicle is on its trip, fix by fix. Lives on the loop's thread only.
final class TransitFollower {
    let handover = TransitHandover()
    /// The load asked last; nil: `[transit] gtfs` is none.
    private(set) var request: TransitRequest?
    private var generation = 0
    private(set) var loaded: TransitLoaded?
    private(set) var progress: RouteProgress?
    private(set) var lastUpdate: RouteProgress.Update?
    /// Said once per load: the service period is over.
    var warnedEnded = false
    /// The next wall-clock second the service period is looked at again.
    var nextPeriodCheck = 0.0
    /// Why the last load failed (the feed missing, unreadable, broken); nil once one succeeds.
    var failure: String?
    /// The fixes' own clock, which the trip is followed by (not their arrival).
    var fixClock = FixClock()
    /// Reused between takes, so looking costs no allocation.
    var messages: [TransitMessage] = []
    /// The frames' record of the trip, made when a fix or a load changes it, never per frame.
    private(set) var stamp: TransitStamp?
    /// Off-route distance to report with the event (the fix's offset when the state changed).
    private(set) var offsetAtChange: Double?
    /// The trip's line and stops on the drawn view's map, projected for it.
    var route: TransitRoute?
    /// The banner asked of the worker last (nil: none shown), its painter, and the next serial.
    var bannerAsked: BannerRequest?
    /// The banner made for `bannerAsked`; nil while it is on its way or could not be made.
    var bannerMade: Overlay?
    let bannerPainter = BannerPainter()
    var bannerSerial = 0
    /// A banner that could not be made is said once until one is made again.
    var bannerFailed = false
    /// `nextStopCommand`s started and not reaped yet; a failure is said once until one succeeds.
    var commands: [ShellCommand] = []
    var commandFailed = false
    /// The next stop the command was last run for (its index; -1: past the last stop).
    var announced: Int?
    /// `tripFile`'s watch, the trip it named last (nil: none yet), and the problem said last.
    var tripWatch: FileWatch?
    var fileTrip: TripFileChoice?
    /// Following a block: the block's trip to load next (nil: the one the clock says).
    var blockCursor: TripChoice?
    var tripFileProblem: TripFileProblem?
    /// `trip = auto`: the search on the transit worker, made when the feed is loaded.
    var autoSearch: AutoTripSearch?
    /// The fix time (monotonic seconds) the auto trip's vehicle left its line; nil while on it.
    var autoOffRouteSince: Double?
    /// `trip = realtime`: the feeds fetched, which feed each source is, the trip they named last
    /// and the problem said last.
    var realtimeFetcher: FeedFetcher?
    var realtimeFeeds: [String] = []
    var realtimeResults: [FeedResult] = []
    var realtimeChoice: TripChoice?
    var realtimeSaid: String?

    /// The request `settings` make; nil when there is no feed.
    static func request(for settings: TransitSettings, block: String? = nil) -> TransitRequest? {
        guard let gtfs = settings.gtfs else { return nil }
        return TransitRequest(gtfs: gtfs, trip: settings.trip, block: block, auto: settings.autoTrip && settings.trip == nil && block == nil,
                              language: settings.language, cacheDirectory: settings.cacheDirectory, feedStamp: FeedStamp.read(gtfs))
    }

    /// Whether `settings` ask for another load than the one under way or done.
    func needsLoad(_ settings: TransitSettings, block: String? = nil) -> Bool {
        let wanted = Self.request(for: settings, block: block)
        switch (wanted, request) {
        case (nil, nil): return false
        case (let w?, let r?): return !w.sameLoad(r)
        default: return true
        }
    }

    /// Forgets the trip and starts counting a new load; returns the request with its generation.
    func begin(_ settings: TransitSettings, block: String? = nil) -> TransitRequest? {
        generation += 1
        if settings.gtfs == nil { failure = nil }
        loaded = nil
        progress = nil
        lastUpdate = nil
        stamp = nil
        route = nil
        autoSearch = nil
        autoOffRouteSince = nil
        warnedEnded = false
        nextPeriodCheck = 0
        request = Self.request(for: settings, block: block).map { r in
            var r = r
            r.generation = generation
            return r
        }
        return request
    }

    func isCurrent(_ messageGeneration: Int) -> Bool { request != nil && messageGeneration == generation }

    func take(_ new: TransitLoaded, settings: TransitSettings) {
        failure = nil
        loaded = new
        if let trip = new.trip { progress = Self.progress(on: trip, settings) }
        restamp()
    }

    /// Where a vehicle is on `trip`, before its first fix there, as `settings` judge it.
    private static func progress(on trip: Trip, _ settings: TransitSettings) -> RouteProgress {
        var s = RouteProgress.Settings()
        s.offRouteMeters = settings.offRouteMeters
        return RouteProgress(trip: trip, settings: s)
    }

    /// The trip `trip = auto`'s search chose, taken up where it found the vehicle.
    func take(_ found: AutoTripFound, settings: TransitSettings) {
        guard var l = loaded else { return }
        l.trip = found.trip
        l.day = found.day
        loaded = l
        var p = Self.progress(on: found.trip, settings)
        p.resume(at: found.decision.distance, time: found.fixTime)
        progress = p
        lastUpdate = nil
        route = nil
        autoOffRouteSince = nil
        restamp()
    }

    /// Lets the trip go (`trip = auto` looks for the next): the feed stays loaded.
    func dropTrip() {
        guard var l = loaded else { return }
        l.trip = nil
        l.day = nil
        loaded = l
        progress = nil
        lastUpdate = nil
        route = nil
        autoOffRouteSince = nil
        restamp()
    }

    /// A fix for the trip; nil while no trip is loaded.
    func update(_ fix: RouteProgress.Fix) -> RouteProgress.Update? {
        guard var p = progress else { return nil }
        let update = p.update(fix)
        progress = p
        if update.offRoute != (lastUpdate?.offRoute ?? false) || offsetAtChange == nil { offsetAtChange = update.offset }
        lastUpdate = update
        restamp()
        return update
    }

    private func restamp() {
        guard let trip = loaded?.trip else {
            stamp = nil
            return
        }
        let next = nextStop
        stamp = TransitStamp(trip: trip.tripID, nextStopID: next?.stopID, nextStopName: next?.name, distanceAlong: lastUpdate?.distance,
                             atStop: lastUpdate?.atStop != nil, offRoute: lastUpdate?.offRoute ?? false)
    }

    /// The next stop, when a trip is followed and one is ahead.
    var nextStop: Trip.Stop? {
        guard let trip = loaded?.trip, let index = nextStopIndex else { return nil }
        return trip.stops[index]
    }

    /// The next stop's index in the trip's stops.
    var nextStopIndex: Int? {
        guard loaded?.trip != nil else { return nil }
        return lastUpdate.map { $0.nextStop } ?? progress?.nextStop
    }

    /// What the metrics file says about transit.
    func metrics() -> MetricsReport.TransitNumbers? {
        guard let loaded else { return nil }
        let end = loaded.info.service.map { Double($0.endInstant(in: loaded.zone)) }
        guard let trip = loaded.trip else {
            return MetricsReport.TransitNumbers(serviceEnd: end, trip: nil, route: nil, distance: nil, nextStop: nil,
                                                offRoute: false, atStop: false)
        }
        let next = nextStop.map { (sequence: $0.sequence, id: $0.stopID, name: $0.name) }
        return MetricsReport.TransitNumbers(serviceEnd: end, trip: trip.tripID, route: trip.route.shortName ?? trip.route.routeID,
                                            distance: lastUpdate?.distance, nextStop: next,
                                            offRoute: lastUpdate?.offRoute ?? false, atStop: lastUpdate?.atStop != nil)
    }
}
