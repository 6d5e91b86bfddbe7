import Glibc

/// poll(2) for the daemon's single event loop: every descriptor (gpsd socket, DRM, signals) and
/// every deadline (animation frame, gpsd backoff and timeouts) meet here.
public enum Poll {
    /// Waits for events on `descriptors` for at most `timeoutMilliseconds` (-1: no limit).
    /// Returns how many descriptors have events. EINTR returns 0 instead of retrying, so a loop that
    /// sets a flag in a signal handler sees the flag at once instead of after the full timeout.
    public static func wait(_ descriptors: inout [pollfd], timeoutMilliseconds: Int32) throws(SyscallError) -> Int {
        let n = descriptors.withUnsafeMutableBufferPointer { buf in
            Glibc.poll(buf.baseAddress, nfds_t(buf.count), timeoutMilliseconds)
        }
        if n >= 0 { return Int(n) }
        let code = errno
        if code == EINTR { return 0 }
        throw SyscallError(call: "poll", object: "", errno: code)
    }

    /// The poll timeout that wakes the loop at `deadline`: rounded up to whole milliseconds (waking a
    /// millisecond early would spin), 0 when already due, -1 when there is no deadline.
    public static func timeoutMilliseconds(until deadline: MonotonicInstant?, now: MonotonicInstant) -> Int32 {
        guard let deadline else { return -1 }
        let remaining = deadline.nanoseconds &- now.nanoseconds
        if remaining <= 0 { return 0 }
        let ms = (remaining + 999_999) / 1_000_000
        return ms >= Int64(Int32.max) ? Int32.max : Int32(ms)
    }

    /// The earlier of two optional deadlines, for folding several timers into one poll timeout.
    public static func earliest(_ a: MonotonicInstant?, _ b: MonotonicInstant?) -> MonotonicInstant? {
        switch (a, b) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b): return b
        }
    }
}
