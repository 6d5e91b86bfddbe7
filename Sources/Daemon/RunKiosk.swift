import Compositor
import Config
import DisplayCore
import FeedFetch
import Geo
import HTTPWire
import Kiosk
import Loop
import Outputs
import Positioning
import Raster
import Scene
import Shaping
import Syscall
import Systemd
import Transit

/// A stop kiosk in the loop: the feeds fetched on their own thread, each result handed to the
/// transit worker (which decodes it and works out the board), what comes back put on the view —
/// the board as a fixed picture, the routes as lines, the vehicles as markers gliding from where
/// they are drawn to where the feed puts them over one fetch period. Nothing here runs per frame
/// but `kioskFrame`, which only moves the markers.
extension RunDaemon {
    /// After the feed's index is loaded (or a reload): the worker's model opened on it and the
    /// fetcher started, when a kiosk is configured.
    func kioskLoaded(_ loaded: TransitLoaded) {
        guard settings.kiosk.isActive else { return }
        guard kiosk.openedIndex != loaded.indexPath else { return }
        kiosk.close()
        kiosk.openedIndex = loaded.indexPath
        kiosk.firstSerial = kiosk.serial + 1
        let model = KioskModel.Settings(settings)
        let worker = kiosk.worker, handover = transit.handover, path = loaded.indexPath, zone = loaded.zone, stops = settings.kiosk.stops
        _ = environment.runTransitJob {
            for note in worker.open(indexPath: path, zone: zone, stops: stops, settings: model) {
                handover.post(.kiosk(KioskOutcome(serial: -1, made: nil, notes: [note], failure: nil)))
            }
        }
        log.notice("kiosk: stop \(stops.joined(separator: ", ")): \(settings.kiosk.departures) departures within \(formatNumber(settings.kiosk.within)) min, up to \(settings.kiosk.vehicles) vehicles")
        kioskStartFetching()
        kiosk.wanted = true
    }

    private func kioskStartFetching() {
        let feeds = settings.realtime.feeds
        guard !feeds.isEmpty else {
            log.notice("kiosk: no [realtime] feeds: the board shows the timetable, marked as such")
            return
        }
        kiosk.feedOf = feeds.compactMap { RealtimeFeed(name: $0.name) }
        kiosk.fetcher = startFetcher(feeds.map { FeedSource(name: $0.name, url: $0.url) }, who: "kiosk")
        if kiosk.fetcher == nil { log.error("kiosk: the board shows the timetable") }
    }

    /// Each turn of the loop: results handed to the worker, a refresh asked when one is due.
    func kioskDue() {
        guard settings.kiosk.isActive, kiosk.openedIndex != nil else { return }
        // Taken whether or not a display is driven (blanked at night, unplugged): the worker
        // keeps the feeds current, and nothing piles up in the handover meanwhile.
        if let fetcher = kiosk.fetcher, fetcher.handover.hasResults {
            fetcher.handover.take(into: &kiosk.results)
            let worker = kiosk.worker, handover = transit.handover
            for result in kiosk.results where result.source < kiosk.feedOf.count {
                let feed = kiosk.feedOf[result.source]
                kiosk.fetchSeconds[feed.rawValue] = result.duration.seconds
                let body: FetchedBody
                switch result.outcome {
                case .success(let fetched):
                    switch fetched.body {
                    case .fresh(let bytes): body = .fresh(bytes)
                    case .notModified: body = .notModified
                    }
                case .failure(let error):
                    kiosk.fetchErrors[error.kind.name, default: 0] += 1
                    body = .failed(kind: error.kind.name, sentence: error.description)
                }
                let at = result.finishedAt
                _ = environment.runTransitJob {
                    if let note = worker.take(feed, body, at: at) {
                        handover.post(.kiosk(KioskOutcome(serial: -1, made: nil, notes: [note], failure: nil)))
                    }
                }
            }
            kiosk.wanted = true
        }
        guard let d = display.driven else { return }
        let now = waiting.now().seconds
        let newView = kiosk.viewID != ObjectIdentifier(d.view)
        if newView || now >= kiosk.nextRefresh { kiosk.wanted = true }
        guard kiosk.wanted, !kiosk.inFlight || newView else { return }
        kiosk.wanted = false
        kiosk.inFlight = true
        // On the wall clock's five-second grid: every kiosk (and a restarted or reloaded one)
        // turns a departed bus off its board at the same instant.
        let wall = environment.wallClock()
        kiosk.nextRefresh = now + 5 - (wall - (wall / 5).rounded(.down) * 5)
        kiosk.serial += 1
        if newView {
            kiosk.viewID = ObjectIdentifier(d.view)
            kiosk.routes = []
            kiosk.markers = MarkerLayer()
            kiosk.motions = [:]
            d.view.showKiosk(routes: [], markers: kiosk.markers)
        }
        let request = KioskRefresh(serial: kiosk.serial, settings: settings, view: d.view, wall: environment.wallClock(),
                                   clockSynchronised: !settings.realtime.clockChecked || WallClock.isSynchronised(), full: newView)
        let worker = kiosk.worker, handover = transit.handover
        if !environment.runTransitJob({ handover.post(.kiosk(worker.refresh(request))) }) {
            kiosk.inFlight = false
            log.error("kiosk: no worker thread to make the board on")
        }
    }

    /// What the worker made: the board, the lines and the markers on the view, the record.
    func kioskMade(_ outcome: KioskOutcome) {
        for note in outcome.notes { log.warning("kiosk: " + note) }
        if outcome.serial < 0 { return }
        if outcome.serial == kiosk.serial { kiosk.inFlight = false }
        guard outcome.serial >= kiosk.firstSerial else { return }
        if let failure = outcome.failure {
            if kiosk.failureSaid != failure { log.error("kiosk: " + failure) }
            kiosk.failureSaid = failure
            return
        }
        kiosk.failureSaid = nil
        guard let made = outcome.made, let d = display.driven, kiosk.viewID == ObjectIdentifier(d.view) else { return }
        let now = waiting.now().seconds
        let snapshot = made.snapshot
        if kiosk.live != snapshot.live {
            if snapshot.live.isLive { log.notice("kiosk: live data") } else { log.warning("kiosk: " + snapshot.live.sentence) }
            kiosk.live = snapshot.live
            sendStatus()
        }
        if let lines = kiosk.apply(made, to: d.view, now: now, settings: settings) {
            log.info("kiosk: \(lines) route line\(lines == 1 ? "" : "s") on the map")
        }
    }

    /// After a reload: the kiosk made again from the new settings (the fetcher restarted, the
    /// model reopened) when the feed is loaded; taken off the view when no kiosk is configured.
    func kioskReconfigured() {
        let wasShown = kiosk.openedIndex != nil
        kiosk.close()
        if let d = display.driven, wasShown || !settings.kiosk.isActive {
            d.view.showBoard(nil)
            d.view.showKiosk(routes: [], markers: nil)
        }
        if settings.kiosk.isActive, let loaded = transit.loaded { kioskLoaded(loaded) }
    }

    /// Per frame: the markers moved to their places now. Allocates nothing.
    func kioskFrame(now: Double) {
        if kiosk.viewID != nil { kiosk.markers.advance(to: now) }
    }

    /// For the STATUS line: the board's state.
    var kioskStatus: String? {
        guard settings.kiosk.isActive, let live = kiosk.live else { return nil }
        return "kiosk " + live.sentence
    }
}
