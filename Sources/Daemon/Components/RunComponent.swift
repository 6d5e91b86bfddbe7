import Config
import Syscall
import Systemd

/// One feature of the running daemon — the trip file, the realtime trip, transit following with
/// its line and banner, the kiosk board, metrics, night blanking, brightness — with one lifecycle:
/// `configure` is called the same way at start (`old` nil) and at every reload the daemon takes
/// (with the settings that ran before), so a reload behaves as a start and nothing is wired by
/// hand into one path and forgotten in the other. The daemon holds them in one list, in the order
/// they depend on each other, and stops them in reverse order.
protocol RunComponent: AnyObject {
    /// Its name in the log.
    var name: String { get }
    /// Takes `new`. `old` is what ran before (nil at start): what did not change is kept (an
    /// index, a connection, a marker's place).
    func configure(old: Settings?, new: Settings, now: MonotonicInstant)
    /// The next instant the loop must wake for it; nil: none.
    var deadline: MonotonicInstant? { get }
    /// Each turn, after the source's events and before the frame: results handed over.
    func woke(now: MonotonicInstant)
    /// Each turn, last: what is due on a clock.
    func turnEnded(now: MonotonicInstant)
    /// At shutdown: threads and children let go.
    func stop()
}

extension RunComponent {
    var deadline: MonotonicInstant? { nil }
    func woke(now: MonotonicInstant) {}
    func turnEnded(now: MonotonicInstant) {}
    func stop() {}
}

/// The daemon as its components see it. Not retained: the daemon owns its components, which never
/// outlive it, and Embedded Swift has neither weak nor unowned references.
struct DaemonReference {
    private let unmanaged: Unmanaged<RunDaemon>

    init(_ daemon: RunDaemon) { unmanaged = Unmanaged.passUnretained(daemon) }

    var daemon: RunDaemon { unmanaged.takeUnretainedValue() }
}
