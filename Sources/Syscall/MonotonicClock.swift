import Glibc

/// A point on CLOCK_MONOTONIC, in nanoseconds. Animation, timeouts and backoff are measured on this
/// clock because wall time jumps (NTP, a receiver setting the clock, a spliced log's times going
/// backwards) must never stall a deadline or replay an animation.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static func now() -> MonotonicInstant {
        var ts = timespec()
        // CLOCK_MONOTONIC cannot fail on Linux; if it ever does, nothing time-based can work.
        guard clock_gettime(CLOCK_MONOTONIC, &ts) == 0 else {
            fatalError("clock_gettime CLOCK_MONOTONIC: errno \(errno)")
        }
        return MonotonicInstant(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
    }

    public func advanced(by duration: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: nanoseconds &+ duration.nanoseconds)
    }

    /// How long from `self` until `later` (negative when `later` is earlier).
    public func duration(to later: MonotonicInstant) -> Duration {
        .nanoseconds(later.nanoseconds &- nanoseconds)
    }

    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }

    public var description: String { "monotonic \(Double(nanoseconds) / 1e9) s" }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at Int64's range.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled &+ attoseconds / 1_000_000_000
    }

    /// The duration in seconds as a Double, for messages and arithmetic on jitter.
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
