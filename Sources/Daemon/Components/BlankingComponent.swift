import Config
import Syscall
import Systemd

/// Night blanking (`[display] blank`): the screen off within its spans (RunBlanking.swift). At
/// start it is looked at before the display is opened, so a screen started at night never lights.
final class BlankingComponent: RunComponent {
    let name = "blanking"
    private let owner: DaemonReference

    init(_ daemon: RunDaemon) { owner = DaemonReference(daemon) }

    func configure(old: Settings?, new: Settings, now: MonotonicInstant) {
        let daemon = owner.daemon
        daemon.blankingAfterReload(now: now)
        daemon.blankingDue(now: now)
    }

    var deadline: MonotonicInstant? { owner.daemon.blanking.nextCheck }

    func turnEnded(now: MonotonicInstant) { owner.daemon.blankingDue(now: now) }
}
