import Outputs
import Syscall

/// The display's life in the daemon: driven, or waited for (not there yet, taken by another
/// master, refused the configuration) with the time to try again, or — its connector unplugged
/// while driven — disconnected: still held (so nothing else, the console included, takes the
/// screen), presenting nothing, looked at again at each uevent and now and then in case one was
/// lost. A reason is said once while it repeats.
struct DisplayLifecycle {
    enum Phase {
        case driving(DrivenDisplay)
        case waiting(reason: String, retryAt: MonotonicInstant)
        case disconnected(DrivenDisplay, reason: String, retryAt: MonotonicInstant)
    }

    private(set) var phase: Phase

    init(now: MonotonicInstant) { phase = .waiting(reason: "", retryAt: now) }

    var driven: DrivenDisplay? {
        if case .driving(let d) = phase { return d }
        return nil
    }

    /// The display held while its connector is unplugged.
    var parked: DrivenDisplay? {
        if case .disconnected(let d, _, _) = phase { return d }
        return nil
    }

    /// When to try again (open, or look at the unplugged connector).
    var retryAt: MonotonicInstant? {
        switch phase {
        case .waiting(_, let at), .disconnected(_, _, let at): return at
        case .driving: return nil
        }
    }

    var waitingReason: String? {
        switch phase {
        case .waiting(let reason, _), .disconnected(_, let reason, _): return reason
        case .driving: return nil
        }
    }

    var isDisconnected: Bool { parked != nil }

    mutating func drive(_ d: DrivenDisplay) { phase = .driving(d) }

    /// Waits for the display; returns whether `reason` is news (not the reason already waited on).
    @discardableResult
    mutating func wait(_ reason: String, retryAt: MonotonicInstant) -> Bool {
        let news = waitingReason != reason
        phase = .waiting(reason: reason, retryAt: retryAt)
        return news
    }

    /// The driven display's connector was unplugged: it is held, not driven.
    mutating func disconnect(_ reason: String, retryAt: MonotonicInstant) {
        guard let d = driven ?? parked else { return }
        phase = .disconnected(d, reason: reason, retryAt: retryAt)
    }

    /// Lets go of the display, driven or held (closing it), and waits, retrying at `retryAt`.
    mutating func lose(_ reason: String, retryAt: MonotonicInstant) {
        (driven ?? parked)?.close()
        phase = .waiting(reason: reason, retryAt: retryAt)
    }
}
