import Syscall

/// Reconnect delays: 0.25 s doubling to 30 s, each spread by jitter so a fleet of kiosks that lost
/// the same gpsd host does not reconnect in lockstep.
public struct Backoff: Sendable {
    public var initial: Duration
    public var maximum: Duration
    /// Each delay is scaled by a factor in [1 - jitter, 1 + jitter], then capped at `maximum`.
    public var jitter: Double
    /// Failed attempts since the last reset.
    public private(set) var failures = 0

    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(30), jitter: Double = 0.2) {
        precondition(initial > .zero && maximum >= initial && (0...1).contains(jitter), "invalid backoff")
        self.initial = initial
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The delay before the next attempt, given `random` in [0, 1); counts one more failure.
    public mutating func nextDelay(random: Double) -> Duration {
        let doublings = min(failures, 30)
        let nominal = min(initial.seconds * Double(1 << doublings), maximum.seconds)
        failures += 1
        let scaled = nominal * (1 - jitter + 2 * jitter * min(max(random, 0), 1))
        return .nanoseconds(Int64(min(scaled, maximum.seconds) * 1e9))
    }

    /// A connection that worked: the next failure starts from `initial` again.
    public mutating func reset() { failures = 0 }
}
