import Config
import Location
import Positioning
import Systemd
import Transit

/// `trip = auto` in the loop: once the feed is loaded without a trip, each fix goes to the search
/// on the transit worker until it names one; that trip is then followed like a configured one
/// from where the vehicle was found, and let go at its terminus or after a while off its line,
/// when the search starts again.
extension RunDaemon {
    func autoTripLoaded(_ loaded: TransitLoaded) {
        guard let request = transit.request, request.auto else { return }
        transit.autoSearch = AutoTripSearch(indexPath: loaded.indexPath, zone: loaded.zone,
                                            offRouteMeters: settings.transit.offRouteMeters, language: request.language,
                                            generation: request.generation)
        log.info("transit: trip auto: the trip is told from the fixes: the shape they follow, then the run due there nearest to the clock")
    }

    /// A fix while no trip is known, to the search. The schedule's clock is the fix's own UTC
    /// time, else the system's.
    func autoTripFix(_ fix: Fix, time fixTime: Double) {
        guard let search = transit.autoSearch, transit.loaded?.trip == nil else { return }
        let clock = scheduleClock
        let latitude = fix.latitude, longitude = fix.longitude, handover = transit.handover
        let submitted = environment.runTransitJob {
            search.fix(latitude: latitude, longitude: longitude, clock: clock, fixTime: fixTime, to: handover)
        }
        if !submitted {
            log.error("transit: trip auto: no worker thread to look for the trip on: no trip is followed until a reload")
            transit.autoSearch = nil
        }
    }

    func autoTripPosted(_ outcome: AutoTripOutcome) {
        switch outcome {
        case .remark(let text):
            log.info("transit: trip auto: " + text)
        case .failed(let text):
            log.error("transit: trip auto: \(text); no trip is followed until a reload")
            transit.autoSearch = nil
        case .found(let found):
            guard transit.autoSearch != nil, transit.loaded?.trip == nil else { return }
            transit.take(found, settings: settings.transit)
            let trip = found.trip
            log.notice("transit: trip auto: \(found.decision.choice) (route \(TransitSummary.routeName(trip.route))) to \(trip.destination), "
                       + "\(trip.stops.count) stops; \(found.decision.reason)")
            if let lastFix { transitFix(lastFix) } else { transitRouteShown() }
            sendStatus()
        }
    }

    /// After a fix on the trip the search chose: at its terminus, or after a while off its line,
    /// the trip is let go (the banner goes neutral) and the search starts again. True when it was.
    func autoTripReleased(_ update: RouteProgress.Update, before: Int?, fixTime: Double, trip: Trip) -> Bool {
        guard let search = transit.autoSearch else { return false }
        var why: String?
        if before != nil, update.nextStop == nil {
            why = "trip \(trip.tripID) reached its terminus"
        } else if update.offRoute {
            let since = transit.autoOffRouteSince ?? fixTime
            transit.autoOffRouteSince = since
            let limit = search.settings.releaseOffRouteSeconds
            if fixTime - since >= limit { why = "\(Int(limit / 60)) min off the line of trip \(trip.tripID)" }
        } else {
            transit.autoOffRouteSince = nil
        }
        guard let why else { return false }
        log.notice("transit: trip auto: \(why); looking for the trip from the fixes again")
        transit.dropTrip()
        let submitted = environment.runTransitJob { search.restart() }
        if !submitted { transit.autoSearch = nil }
        transitRouteShown()
        sendStatus()
        return true
    }
}
