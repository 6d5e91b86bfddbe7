import Location

/// The clock a vehicle's progress is timed by: the receiver's own time of fix when the fix has
/// one, so a burst of buffered fixes (gpsd after a stall, a slow board catching up) or a replay at
/// any speed is timed as it was driven, not as it arrived. A fix without a time is placed after the
/// last one that had one by the monotonic time between their arrivals; before any fix with a time,
/// the monotonic arrival itself.
public struct FixClock: Sendable {
    private var anchor: (fixTime: Double, received: Double)?

    public init() {}

    /// Seconds on this clock for `fix` (the same fix always gives the same seconds).
    public mutating func seconds(of fix: Fix) -> Double {
        let received = fix.receivedAt.seconds
        if let time = fix.time {
            let s = Double(time.secondsSinceEpoch) + Double(time.nanoseconds) / 1e9
            anchor = (s, received)
            return s
        }
        guard let anchor else { return received }
        return anchor.fixTime + (received - anchor.received)
    }
}
