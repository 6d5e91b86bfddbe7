import CLinux
import Glibc

/// A wake-up another thread can send to a poll loop (eventfd): `signal` from any thread, the loop
/// polls `descriptor` for POLLIN and calls `drain` before looking at what it was woken for.
/// Non-blocking and close-on-exec; whoever made it closes it.
public struct EventFD: Sendable {
    public let descriptor: FileDescriptor

    public init(name: String = "eventfd") throws(SyscallError) {
        let fd = try syscall("eventfd", name) { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
        descriptor = FileDescriptor(rawValue: fd, name: name)
    }

    /// Makes the descriptor readable until the next `drain`. Safe from any thread.
    public func signal() throws(SyscallError) {
        var one: UInt64 = 1
        while true {
            let n = withUnsafeBytes(of: &one) { Glibc.write(descriptor.rawValue, $0.baseAddress, $0.count) }
            if n == 8 { return }
            let code = Glibc.errno
            if code == EINTR { continue }
            // The counter is at its maximum: the descriptor is readable already, which is all a
            // signal promises.
            if code == EAGAIN { return }
            throw SyscallError(call: "write", object: descriptor.name, errno: code)
        }
    }

    /// Resets the descriptor to not readable; returns how many signals it had collected (0 when none).
    @discardableResult
    public func drain() throws(SyscallError) -> UInt64 {
        var count: UInt64 = 0
        let n = try withUnsafeMutableBytes(of: &count) { (bytes) throws(SyscallError) -> Int? in
            try descriptor.read(into: bytes)
        }
        return n == 8 ? count : 0
    }

    public func close() { descriptor.close() }
}
