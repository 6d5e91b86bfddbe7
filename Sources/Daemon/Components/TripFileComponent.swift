import Config
import Syscall
import Systemd

/// `[transit] tripFile`: its folder watched, the trip it names taking the place of `trip`
/// (RunTripFile.swift). Configured before transit, whose request it changes.
final class TripFileComponent: RunComponent {
    let name = "tripFile"
    private let owner: DaemonReference

    init(_ daemon: RunDaemon) { owner = DaemonReference(daemon) }

    func configure(old: Settings?, new: Settings, now: MonotonicInstant) { owner.daemon.tripFileConfigured() }
}
