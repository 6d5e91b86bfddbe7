import Config
import Syscall
import Systemd

/// The metrics textfile node_exporter reads (MetricsFile.swift, RunMetrics.swift).
final class MetricsComponent: RunComponent {
    let name = "metrics"
    private let owner: DaemonReference

    init(_ daemon: RunDaemon) { owner = DaemonReference(daemon) }

    func configure(old: Settings?, new: Settings, now: MonotonicInstant) {
        owner.daemon.metricsFile.configure(new.metrics, now: now)
    }

    var deadline: MonotonicInstant? { owner.daemon.metricsFile.nextWrite }
}
