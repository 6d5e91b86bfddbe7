import CLinux
import Glibc

/// Termination signals as a file descriptor (signalfd): the signals are blocked for the process
/// and read in the poll loop, so the exit path (restore the console, free buffers) runs in normal
/// code, never in a signal handler.
public struct SignalDescriptor: Sendable {
    public let descriptor: FileDescriptor

    /// Blocks `signals` for the calling thread (call it before any thread starts, so every thread
    /// inherits the mask) and returns a non-blocking descriptor that becomes readable when one is
    /// pending.
    public init(_ signals: [Int32]) throws(SyscallError) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        _ = try syscall("sigprocmask", "SIG_BLOCK") { sigprocmask(SIG_BLOCK, &set, nil) }
        let fd = try syscall("signalfd", "") { signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
        descriptor = FileDescriptor(rawValue: fd, name: "signalfd")
    }

    /// The next pending signal's number, or nil when none is pending.
    public func next() throws(SyscallError) -> Int32? {
        var info = signalfd_siginfo()
        let n = try withUnsafeMutableBytes(of: &info) { (bytes) throws(SyscallError) -> Int? in
            try descriptor.read(into: bytes)
        }
        guard let n, n == MemoryLayout<signalfd_siginfo>.size else { return nil }
        return Int32(bitPattern: info.ssi_signo)
    }

    public func close() { descriptor.close() }
}
