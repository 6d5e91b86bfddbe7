import Config
import FeedFetch
import Syscall
import Systemd

/// `[transit] trip = realtime`: the vehicle's trip as the agency's feeds name it
/// (RunRealtimeTrip.swift). Configured before transit, whose request it changes.
final class RealtimeTripComponent: RunComponent {
    let name = "realtimeTrip"
    private let owner: DaemonReference

    init(_ daemon: RunDaemon) { owner = DaemonReference(daemon) }

    func configure(old: Settings?, new: Settings, now: MonotonicInstant) { owner.daemon.realtimeTripConfigured() }

    func stop() {
        let transit = owner.daemon.transit
        transit.realtimeFetcher?.stop()
        transit.realtimeFetcher = nil
    }
}
