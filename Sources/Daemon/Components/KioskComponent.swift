import Config
import Syscall
import Systemd

/// A stop kiosk's board, lines and markers, and the fetcher of its feeds (RunKiosk.swift). Made
/// when the feed's index is loaded; made again at a reload that changes what it reads — its
/// stops, its feeds, the feed's language — and left alone by one that does not.
final class KioskComponent: RunComponent {
    let name = "kiosk"
    private let owner: DaemonReference
    /// The sections the board is made from.
    static let sections = ["kiosk", "realtime", "transit"]

    init(_ daemon: RunDaemon) { owner = DaemonReference(daemon) }

    func configure(old: Settings?, new: Settings, now: MonotonicInstant) {
        // At start the board waits for the index (TransitComponent's load).
        guard let old, SettingsTable.differ(old, new, in: Self.sections) else { return }
        owner.daemon.kioskReconfigured()
    }

    func woke(now: MonotonicInstant) { owner.daemon.kioskDue() }

    func stop() { owner.daemon.kiosk.close() }
}
