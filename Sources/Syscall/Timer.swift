import CLinux
import Glibc

/// A periodic timer as a file descriptor (timerfd on CLOCK_MONOTONIC), so a frame loop waits for
/// its tick in the same `poll` as everything else. Non-blocking; close it with `close()`.
public struct FrameTimer: Sendable {
    public let descriptor: FileDescriptor

    /// Ticks `rate` times a second, the first tick one period from now.
    public init(rate: Double, name: String = "frame timer") throws(SyscallError) {
        precondition(rate > 0 && rate.isFinite, "timer rate \(rate) must be positive")
        let fd = try syscall("timerfd_create", name) {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        }
        descriptor = FileDescriptor(rawValue: fd, name: name)
        let periodNs = Int((1_000_000_000 / rate).rounded())
        let period = timespec(tv_sec: time_t(periodNs / 1_000_000_000), tv_nsec: periodNs % 1_000_000_000)
        var spec = itimerspec(it_interval: period, it_value: period)
        do {
            _ = try syscall("timerfd_settime", name) { timerfd_settime(fd, 0, &spec, nil) }
        } catch {
            descriptor.close()
            throw error
        }
    }

    /// How many periods elapsed since the last call (0 if none: the descriptor was not readable).
    /// More than 1 means frames were missed; a frame loop draws once and moves on.
    public func expirations() throws(SyscallError) -> UInt64 {
        var count: UInt64 = 0
        let n = try withUnsafeMutableBytes(of: &count) { (bytes) throws(SyscallError) -> Int? in
            try descriptor.read(into: bytes)
        }
        return n == 8 ? count : 0
    }

    public func close() { descriptor.close() }
}
