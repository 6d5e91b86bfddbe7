import Compositor
import Config
import Location
import Loop
import Outputs
import Positioning
import Scene
import Syscall
import Systemd
import Transit

/// Transit in the loop: the feed and the trip loaded on a worker at start and when a reload
/// changes them, each fix placed on the trip, what happens said once in the log.
extension RunDaemon {
    /// Asks for the configured feed and trip when they differ from those asked before.
    func transitConfigured() {
        let wanted = effectiveTransit, block = effectiveBlock
        guard transit.needsLoad(wanted, block: block) else { return }
        defer { transitRouteShown() }
        guard let request = transit.begin(wanted, block: block) else {
            if let trip = wanted.trip { log.warning("transit: trip \(trip) is set but no feed ([transit] gtfs): no trip followed") }
            return
        }
        log.info("transit: loading \(request.gtfs) (index in \(request.cacheDirectory))" + (request.trip.map { ", trip \($0)" } ?? ""))
        let handover = transit.handover
        let now = scheduleClock
        let submitted = environment.runTransitJob { TransitLoader.run(request, now: now, to: handover) }
        if !submitted { log.error("transit: no worker thread to import the feed on: transit is off until a reload") }
    }

    /// Takes what the worker posted; one atomic load when nothing was.
    func transitDue() {
        transitReapCommands()
        tripFileDue()
        realtimeTripDue()
        guard transit.handover.hasMessages else { return }
        transit.handover.take(into: &transit.messages)
        for message in transit.messages {
            switch message {
            case .progress(let g, let line):
                if transit.isCurrent(g) { log.info("transit: " + line) }
            case .failed(let g, let text):
                if transit.isCurrent(g) {
                    log.error("transit: \(text); the dot is drawn without it, and the feed is taken up when it can be read")
                    transit.failure = text
                    sendStatus()
                }
            case .loaded(let g, let loaded):
                if transit.isCurrent(g) { transitLoaded(loaded) }
            case .banner(let outcome):
                transitBannerMade(outcome)
            case .kiosk(let outcome):
                kioskMade(outcome)
            case .realtimeTrip(let feed, let result):
                realtimeTripRead(feed: feed, result)
            case .tripFile(let result):
                tripFileRead(result)
            case .autoTrip(let g, let outcome):
                if transit.isCurrent(g) { autoTripPosted(outcome) }
            }
        }
        transit.messages.removeAll(keepingCapacity: true)
    }

    private func transitLoaded(_ loaded: TransitLoaded) {
        if transit.failure != nil { log.notice("transit: \(settings.transit.gtfs ?? "the feed") taken up") }
        transit.take(loaded, settings: settings.transit)
        transit.announced = nil
        let wall = scheduleClock
        let agency = loaded.info.agencies.first.map { "\($0.name), " } ?? ""
        let service = loaded.info.service.map { $0.summary(at: Int64(wall.rounded(.down)), in: loaded.zone) } ?? "no service days in the feed"
        log.info("transit: index \(loaded.indexPath) \(loaded.reused ? "reused" : "built"): \(agency)\(loaded.info.routes) routes, \(loaded.info.trips) trips; \(service)")
        if let note = loaded.languageNote { log.info("transit: " + note) }
        if let plan = loaded.block {
            log.notice("transit: block \(plan.blockID): \(plan.trips.count) trips on service day \(plan.dateText); trip \(plan.index + 1) of \(plan.trips.count) is followed")
        }
        if let trip = loaded.trip {
            log.notice("transit: trip \(trip.tripID) (route \(TransitSummary.routeName(trip.route))) to \(trip.destination), \(trip.stops.count) stops")
            if let day = loaded.day, !day.runs {
                log.warning("transit: trip \(trip.tripID) does not run on service day \(day.dateText) by its calendar; it is followed all the same")
            }
        } else if transit.request?.auto == true {
            autoTripLoaded(loaded)
        } else if effectiveTransit.trip == nil {
            log.info("transit: no trip set ([transit] trip or tripFile): the feed is loaded, no trip followed")
        }
        transitPeriodCheck(wall: wall)
        kioskLoaded(loaded)
        // A fix that came while the trip loaded places the vehicle now, not at the next fix.
        if let lastFix { transitFix(lastFix) } else { transitRouteShown() }
        sendStatus()
    }

    /// Warns once when the feed's service period is over (looked at once a minute at most).
    func transitPeriodCheck(wall: Double) {
        guard let loaded = transit.loaded, !transit.warnedEnded, wall >= transit.nextPeriodCheck else { return }
        transit.nextPeriodCheck = wall + 60
        let instant = Int64(wall.rounded(.down))
        if let period = loaded.info.service {
            guard period.ended(at: instant, in: loaded.zone) else { return }
            log.warning("transit: the feed's service period ended on \(period.lastText): the trip is still followed; a current feed is needed")
        } else {
            log.warning("transit: the feed names no day of service: the trip is followed all the same")
        }
        transit.warnedEnded = true
    }

    /// One fix on the trip: its events said, one line each.
    func transitFix(_ fix: Fix) {
        // The receiver's time: fixes buffered and delivered in a burst, or replayed fast, are
        // followed as they were driven.
        let time = transit.fixClock.seconds(of: fix)
        autoTripFix(fix, time: time)
        let before = transit.nextStop?.sequence, beforeIndex = transit.nextStopIndex
        guard let update = transit.update(RouteProgress.Fix(latitude: fix.latitude, longitude: fix.longitude, speed: fix.speed, time: time)),
              let trip = transit.loaded?.trip else { return }
        for event in update.events { log.notice("transit: " + describe(event, trip: trip, update: update)) }
        if autoTripReleased(update, before: beforeIndex, fixTime: time, trip: trip) { return }
        if let plan = transit.loaded?.block, let next = plan.next,
           update.events.contains(where: { if case .arrived(let i) = $0 { return i == trip.stops.count - 1 } else { return false } }) {
            // The block's next trip starts where this one ended.
            log.notice("transit: block \(plan.blockID): trip \(trip.tripID) ended; trip \(next) (\(plan.index + 2) of \(plan.trips.count)) is next")
            transit.blockCursor = TripChoice(tripID: next)
            transitConfigured()
            return
        }
        transitRouteShown()
        transitPeriodCheck(wall: scheduleClock)
        if transit.nextStop?.sequence != before { sendStatus() }
    }

    /// The trip's line on the drawn view's map: projected for it when it does not show it yet (a
    /// new trip, a new view), else moved to the last fix's progress — the map repainted only
    /// where that changed; the banner asked for what it shows now. Without a trip, no line and no
    /// banner. Not called per frame.
    func transitRouteShown() {
        transitBannerShown()
        transitNextStopCommand()
        guard let d = display.driven else { return }
        guard let trip = transit.loaded?.trip else {
            if d.view.route != nil { d.view.showRoute(nil) }
            return
        }
        let distance = transit.lastUpdate?.distance, next = transit.nextStopIndex
        let style = TransitRoute.style(for: trip.route, settings: settings.transit, scale: d.view.scale)
        if let route = transit.route, d.view.route === route.layer, route.layer.style == style {
            if route.move(distance: distance, nextStop: next) { d.view.routeMoved() }
            return
        }
        guard let route = TransitRoute(trip: trip, view: d.view, settings: settings.transit) else { return }
        route.move(distance: distance, nextStop: next)
        transit.route = route
        d.view.showRoute(route.layer)
        let kept = d.view.routeBytes
        log.info("transit: line \(TransitSummary.routeName(trip.route)) on the map, " +
                 (kept > 0 ? "drawn into it (\((kept + 1023) >> 10) KiB of the map kept under it)" : "drawn over each frame (the map cannot carry it)"))
    }

    private func describe(_ event: RouteProgress.Event, trip: Trip, update: RouteProgress.Update) -> String {
        func stop(_ i: Int) -> String { "\(trip.stops[i].name) (stop \(i + 1) of \(trip.stops.count))" }
        switch event {
        case .arrived(let i): return "arrived at \(stop(i))"
        case .departed(let i): return "departed from \(stop(i))"
        case .passed(let i): return "passed \(stop(i)) without stopping"
        case .offRoute:
            let away = update.offset.map { "\(Int($0.rounded())) m" } ?? "far"
            return "off route (\(away) from line \(trip.route.shortName ?? trip.route.routeID))"
        case .backOnRoute:
            let along = update.distance.map { ", \(Int($0.rounded())) m along line \(trip.route.shortName ?? trip.route.routeID)" } ?? ""
            let next = update.nextStop.map { "; next stop \(stop($0))" } ?? ""
            return "back on route\(along)\(next)"
        }
    }

    /// The schedule's clock (UTC seconds): the last fix's own time, moved on by the monotonic time
    /// since it came, so a board whose clock is not set yet still finds today's service; the
    /// system clock before the first fix with a time.
    var scheduleClock: Double {
        guard let fix = lastFix, let time = fix.time else { return environment.wallClock() }
        let since = max(waiting.now().seconds - fix.receivedAt.seconds, 0)
        return Double(time.secondsSinceEpoch) + Double(time.nanoseconds) / 1e9 + since
    }

    /// For the STATUS line: the next stop's name, when a trip is followed and one is ahead; with
    /// `trip = auto`, that the trip is being looked for.
    var transitStatus: String? {
        if let next = transit.nextStop { return "next stop " + next.name }
        // `trip = auto` before it has told the trip: said, so a neutral screen is not a mystery.
        if transit.autoSearch != nil, transit.loaded?.trip == nil { return "trip auto: looking for the trip" }
        return nil
    }
}
