import Config
import Syscall
import Systemd

/// The feed and the trip: loaded on the worker when what is asked differs from what was loaded
/// (a reload that changes neither keeps the index, the trip and the vehicle's progress), each
/// fix placed on the trip, the line and the banner shown (RunTransit.swift). A feed that could not
/// be loaded (not there yet, unreadable, broken) is tried again when its folder says it changed
/// and every `retryEvery` seconds: the screen runs without transit meanwhile.
final class TransitComponent: RunComponent {
    let name = "transit"
    private let owner: DaemonReference
    private var watch: FileWatch?
    private var nextTry: MonotonicInstant?
    static let retryEvery = Duration.seconds(30)

    init(_ daemon: RunDaemon) { owner = DaemonReference(daemon) }

    func configure(old: Settings?, new: Settings, now: MonotonicInstant) {
        let daemon = owner.daemon
        daemon.transitConfigured()
        // The line's style, the banner and the hook read [transit] too: shown again as it says.
        if old != nil { daemon.transitRouteShown() }
        watch = nil
    }

    var deadline: MonotonicInstant? { nextTry }

    func woke(now: MonotonicInstant) {
        let daemon = owner.daemon
        daemon.transitDue()
        guard daemon.transit.failure != nil, let path = daemon.settings.transit.gtfs else {
            watch = nil
            nextTry = nil
            return
        }
        if watch?.path != path {
            watch = try? FileWatch(path: path)
            nextTry = now.advanced(by: Self.retryEvery)
            return
        }
        var due = nextTry.map { now >= $0 } ?? true
        if let watch, (try? watch.changed()) == true { due = true }
        guard due else { return }
        nextTry = now.advanced(by: Self.retryEvery)
        // A load is asked again only when the feed on disk differs from the one that failed.
        daemon.transitConfigured()
    }
}
