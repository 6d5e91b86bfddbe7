import CLinux
import Glibc

/// CLOCK_REALTIME, for what people and Prometheus read as a time of day (`_timestamp_seconds`):
/// never for measuring, which the monotonic clock does.
public enum WallClock {
    /// Seconds since the Unix epoch.
    public static func now() -> Double {
        var ts = timespec()
        // CLOCK_REALTIME cannot fail on Linux.
        guard clock_gettime(CLOCK_REALTIME, &ts) == 0 else { fatalError("clock_gettime CLOCK_REALTIME: errno \(errno)") }
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

extension WallClock {
    /// Whether the kernel counts the clock as synchronised (an NTP client, chrony or
    /// systemd-timesyncd disciplines it): adjtimex(2) answers TIME_ERROR while it is not. A screen
    /// that compares a feed's times with its own must not call a prediction live on a clock
    /// nobody set.
    public static func isSynchronised() -> Bool {
        var t = timex()
        return adjtimex(&t) != TIME_ERROR
    }
}
