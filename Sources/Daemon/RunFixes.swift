import Config
import Geo
import Location
import Outputs
import Positioning
import Scene
import Syscall
import Systemd

/// What the source says, and what the daemon says about the truth it shows.
extension RunDaemon {
    func take(_ event: FeedEvent) {
        switch event {
        case .fix(let fix):
            lastFix = fix
            transitFix(fix)
            guard let d = display.driven, let note = d.view.add(fix) else { return }
            say(note)
        case .log(let level, let text, let topic):
            log.say(level, text, topic: topic)
        }
    }

    func say(_ note: SceneNote) {
        switch note {
        case .rejected(let error):
            log.warning("fix ignored: \(error)", topic: "rejected fix")
        case .centred(let point):
            log.info("map centred on the first fix, \(formatGeoPoint(point))")
        case .leftMap(let point, let mode):
            log.notice("fix \(formatGeoPoint(point)) is outside the map; " + (mode == .hide ? "the dot is hidden until it returns" : "the dot waits at the map's edge"))
        case .backOnMap(let point):
            log.notice("fix \(formatGeoPoint(point)) is on the map again")
        }
    }

    func phaseChanged(to phase: FixPhase, now: MonotonicInstant) {
        let before = shownPhase
        shownPhase = phase
        switch phase {
        case .live:
            let fix = lastFix.map { " at \(formatGeoPoint(GeoPoint(latitude: $0.latitude, longitude: $0.longitude)))" + ($0.horizontalError.map { " ±\(formatNumber(($0 * 10).rounded() / 10)) m" } ?? "") } ?? ""
            log.notice(before == .nofix ? "first fix\(fix)" : "fix again\(fix): live")
        case .stale:
            log.warning("no fix for \(formatNumber(source.staleAfter)) s: the dot shows the stale look")
        case .nofix:
            log.info("no fix")
        }
        sendStatus()
    }
}
