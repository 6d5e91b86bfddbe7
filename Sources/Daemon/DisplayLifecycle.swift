import Outputs
import Syscall

/// The display's life in the daemon: driven, or waited for (not there yet, unplugged, taken by
/// another master, refused the configuration) with the time to try again. A reason is said once
/// while it repeats. Unplugged while driven (hot-plug) is `disconnected`: the uevent of its return
/// is what tries again, and a slow retry only guards against a lost one.
struct DisplayLifecycle {
    enum Phase {
        case driving(DrivenDisplay)
        case waiting(reason: String, retryAt: MonotonicInstant)
        case disconnected(reason: String, retryAt: MonotonicInstant)
    }

    private(set) var phase: Phase

    init(now: MonotonicInstant) { phase = .waiting(reason: "", retryAt: now) }

    var driven: DrivenDisplay? {
        if case .driving(let d) = phase { return d }
        return nil
    }

    /// When to try opening again, while waiting.
    var retryAt: MonotonicInstant? {
        switch phase {
        case .waiting(_, let at), .disconnected(_, let at): return at
        case .driving: return nil
        }
    }

    var waitingReason: String? {
        switch phase {
        case .waiting(let reason, _), .disconnected(let reason, _): return reason
        case .driving: return nil
        }
    }

    var isDisconnected: Bool {
        if case .disconnected = phase { return true }
        return false
    }

    /// Lets go of the driven display, whose connector was unplugged, and waits for its return.
    mutating func disconnect(_ reason: String, retryAt: MonotonicInstant) {
        driven?.close()
        phase = .disconnected(reason: reason, retryAt: retryAt)
    }

    mutating func drive(_ d: DrivenDisplay) { phase = .driving(d) }

    /// Waits for the display; returns whether `reason` is news (not the reason already waited on).
    @discardableResult
    mutating func wait(_ reason: String, retryAt: MonotonicInstant) -> Bool {
        // Still unplugged: the connector's absence stays the news, however the retry fails.
        if case .disconnected(let said, _) = phase {
            phase = .disconnected(reason: said, retryAt: retryAt)
            return false
        }
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
