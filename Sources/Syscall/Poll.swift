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

extension FileDescriptor {
    /// Waits at most `timeoutMilliseconds` (-1: no limit) for the descriptor to become readable.
    /// True when it is, or when it has an error or hang-up pending, which the next read reports
    /// with its own errno; false when the time ran out or a signal cut the wait short (the caller
    /// works out what is left of its deadline). A descriptor that is not open is an error naming it.
    /// Allocates nothing (one pollfd on the stack): a worker thread waits here between jobs.
    public func waitUntilReadable(timeoutMilliseconds: Int32) throws(SyscallError) -> Bool {
        var one = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&one, 1, timeoutMilliseconds)
        if ready < 0 {
            let code = errno
            if code == EINTR { return false }
            throw SyscallError(call: "poll", object: name, errno: code)
        }
        if ready == 0 { return false }
        if one.revents & Int16(POLLNVAL) != 0 { throw SyscallError(call: "poll", object: name, errno: EBADF) }
        return true
    }
}
