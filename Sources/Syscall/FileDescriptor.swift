import Glibc

/// An open file descriptor with the calls the daemon makes on it. A thin value: it does not close
/// itself; whoever opened it closes it.
public struct FileDescriptor: Hashable, Sendable {
    public let rawValue: Int32
    /// What the descriptor refers to, for error messages ("/dev/dri/card0", "gpsd 127.0.0.1:2947").
    public let name: String

    public init(rawValue: Int32, name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(SyscallError) -> FileDescriptor {
        let fd = try syscall("open", path) { Glibc.open(path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(rawValue: fd, name: path)
    }

    /// Reads at most `buffer.count` bytes; 0 means end of file. EAGAIN is returned as `nil`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SyscallError) -> Int? {
        while true {
            let n = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SyscallError(call: "read", object: name, errno: code)
        }
    }

    /// Writes all of `bytes` (a blocking descriptor) or as much as it takes (non-blocking: the count
    /// written, possibly 0 on EAGAIN).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SyscallError) -> Int {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(rawValue, bytes.baseAddress! + done, bytes.count - done)
            if n >= 0 { done += n; continue }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return done }
            throw SyscallError(call: "write", object: name, errno: code)
        }
        return done
    }

    public func close() {
        // Linux closes the descriptor even when close fails with EINTR: never retry.
        _ = Glibc.close(rawValue)
    }
}
