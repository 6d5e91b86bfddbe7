import Config
import Syscall

/// The feed and the trip: loaded on the worker when what is asked differs from what was loaded
/// (a reload that changes neither keeps the index, the trip and the vehicle's progress), each
/// fix placed on the trip, the line and the banner shown (RunTransit.swift).
final class TransitComponent: RunComponent {
    let name = "transit"
    private let owner: DaemonReference

    init(_ daemon: RunDaemon) { owner = DaemonReference(daemon) }

    func configure(old: Settings?, new: Settings, now: MonotonicInstant) {
        let daemon = owner.daemon
        daemon.transitConfigured()
        // The line's style, the banner and the hook read [transit] too: shown again as it says.
        if old != nil { daemon.transitRouteShown() }
    }

    func woke(now: MonotonicInstant) { owner.daemon.transitDue() }
}
