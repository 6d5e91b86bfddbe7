import Config
import Syscall
import Systemd
import Transit

/// `[transit] tripFile` in the loop: its folder watched through inotify, the file read on the
/// transit worker when it changes, the trip it names loaded in place of `trip`.
extension RunDaemon {
    /// The transit settings in force: `trip` replaced by what the trip file names, if it does
    /// (for a block: the block's trip to follow next, nil while the clock decides).
    var effectiveTransit: TransitSettings {
        var t = settings.transit
        if t.realtimeTrip {
            t.realtimeTrip = false
            t.trip = transit.realtimeChoice
            return t
        }
        guard t.tripFile != nil, let named = transit.fileTrip else { return t }
        t.autoTrip = false
        switch named {
        case .trip(let choice): t.trip = choice
        case .block: t.trip = transit.blockCursor
        }
        return t
    }

    /// The block the trip file names; nil for none (or a trip).
    var effectiveBlock: String? {
        guard settings.transit.tripFile != nil, case .block(let id)? = transit.fileTrip else { return nil }
        return id
    }

    /// Watches the configured trip file (a new one after a reload) and reads it now.
    func tripFileConfigured() {
        guard let path = settings.transit.tripFile else {
            transit.tripWatch = nil
            transit.fileTrip = nil
            transit.tripFileProblem = nil
            return
        }
        if transit.tripWatch?.path != path {
            transit.fileTrip = nil
            transit.tripFileProblem = nil
            do {
                transit.tripWatch = try FileWatch(path: path)
            } catch {
                transit.tripWatch = nil
                log.error("transit: tripFile \(path) cannot be watched (\(error)); it is read at start and on reload only")
            }
        }
        readTripFile(path)
    }

    /// Each turn: one non-blocking read of the watch's queue.
    func tripFileDue() {
        guard let watch = transit.tripWatch else { return }
        let changed: Bool
        do { changed = try watch.changed() } catch {
            log.error("transit: tripFile \(watch.path): \(error); it is no longer followed")
            transit.tripWatch = nil
            return
        }
        if changed { readTripFile(watch.path) }
    }

    private func readTripFile(_ path: String) {
        let handover = transit.handover
        if !environment.runTransitJob({ handover.post(.tripFile(TripFile.read(path))) }) {
            log.error("transit: no worker thread to read tripFile \(path) on")
        }
    }

    /// What the file named: a new trip is loaded; a problem is said once and the trip kept.
    func tripFileRead(_ result: Result<TripFileChoice, TripFileProblem>) {
        switch result {
        case .success(let choice):
            transit.tripFileProblem = nil
            guard choice != transit.fileTrip else { return }
            transit.fileTrip = choice
            transit.blockCursor = nil
            log.notice("transit: tripFile \(settings.transit.tripFile ?? "") names \(choice)")
            transitConfigured()
        case .failure(let problem):
            guard problem != transit.tripFileProblem else { return }
            transit.tripFileProblem = problem
            let kept = effectiveTransit.trip.map { "trip \($0) is still followed" } ?? "no trip is followed"
            log.warning("transit: tripFile \(problem); \(kept)")
        }
    }
}
