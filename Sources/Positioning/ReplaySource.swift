import GPSD
import Location
import Syscall

/// Plays a `ReplayLog` at real speed × `speed`, paced by the log's own times: record k is due at
/// start + offset(k) / speed on the monotonic clock. Pure scheduling — no clock is read inside —
/// so the run loop asks `nextDue` for its poll timeout and `next(now:)` for what is due.
public struct ReplaySource: Sendable {
    public let log: ReplayLog
    public let speed: Double
    public let start: MonotonicInstant
    /// Index of the next record to play.
    public private(set) var position = 0

    /// One played instant.
    public enum Event: Equatable, Sendable {
        /// A fix whose `receivedAt` is its due time (not the moment the loop woke up, so loop
        /// latency does not jitter the motion).
        case fix(Fix)
        /// The receiver had no fix at this instant.
        case noFix(at: MonotonicInstant)
    }

    public init(log: ReplayLog, speed: Double, start: MonotonicInstant) {
        precondition(speed > 0 && speed.isFinite, "replaySpeed \(speed) must be a positive number")
        self.log = log
        self.speed = speed
        self.start = start
    }

    /// When record `index` is due.
    public func due(_ index: Int) -> MonotonicInstant {
        let ns = (log.records[index].offset / speed * 1e9).rounded()
        return start.advanced(by: .nanoseconds(Int64(min(ns, 9e18))))
    }

    /// When the next record is due; nil once the log has been played to its end.
    public var nextDue: MonotonicInstant? { position < log.records.count ? due(position) : nil }

    public var isFinished: Bool { position >= log.records.count }

    /// The next record if it is due at `now` (call again until nil: several may be due at once).
    public mutating func next(now: MonotonicInstant) -> Event? {
        guard position < log.records.count else { return nil }
        let at = due(position)
        guard at <= now else { return nil }
        let record = log.records[position]
        position += 1
        guard var fix = record.fix else { return .noFix(at: at) }
        fix.receivedAt = at
        return .fix(fix)
    }
}
