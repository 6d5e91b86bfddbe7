import Outputs
import Syscall

/// The display's life in the daemon: driven, or waited for (not there yet, unplugged, taken by
/// another master, refused the configuration) with the time to try again. A reason is said once
/// while it repeats.
struct DisplayLifecycle {
    enum Phase {
        case driving(DrivenDisplay)
        case waiting(reason: String, retryAt: MonotonicInstant)
    }

    private(set) var phase: Phase

    init(now: MonotonicInstant) { phase = .waiting(reason: "", retryAt: now) }

    var driven: DrivenDisplay? {
        if case .driving(let d) = phase { return d }
        return nil
    }

    /// When to try opening again, while waiting.
    var retryAt: MonotonicInstant? {
        if case .waiting(_, let at) = phase { return at }
        return nil
    }

    var waitingReason: String? {
        if case .waiting(let reason, _) = phase { return reason }
        return nil
    }

    mutating func drive(_ d: DrivenDisplay) { phase = .driving(d) }

    /// Waits for the display; returns whether `reason` is news (not the reason already waited on).
    @discardableResult
    mutating func wait(_ reason: String, retryAt: MonotonicInstant) -> Bool {
        let news = waitingReason != reason
        phase = .waiting(reason: reason, retryAt: retryAt)
        return news
    }

    /// Lets go of a driven display (closing it) and waits, retrying at `retryAt`.
    mutating func lose(_ reason: String, retryAt: MonotonicInstant) {
        driven?.close()
        phase = .waiting(reason: reason, retryAt: retryAt)
    }
}
