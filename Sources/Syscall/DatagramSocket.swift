import Glibc

/// An AF_UNIX socket address: a file system path, or `@name` for the abstract namespace (the form
/// systemd writes into NOTIFY_SOCKET). Encoded once, kept by value.
public struct UnixSocketAddress: Sendable, CustomStringConvertible {
    /// As given: `/run/systemd/notify` or `@/org/freedesktop/systemd1/notify`.
    public let description: String
    private let storage: sockaddr_un
    private let length: socklen_t

    public init(_ address: String) throws(SyscallError) {
        var bytes = Array(address.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        guard abstract || bytes.first == UInt8(ascii: "/") else {
            throw SyscallError(call: "socket address", object: address, errno: EINVAL)
        }
        // Abstract names start with a NUL and are not terminated; paths are NUL-terminated.
        if abstract { bytes[0] = 0 } else { bytes.append(0) }
        var storage = sockaddr_un()
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard bytes.count <= capacity, bytes.count > 1 else {
            throw SyscallError(call: "socket address", object: address, errno: ENAMETOOLONG)
        }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: bytes) }
        // The path is the structure's tail (no padding after it on Linux).
        let pathOffset = MemoryLayout.size(ofValue: storage) - capacity
        self.storage = storage
        // Abstract addresses are exactly as long as their name: trailing NULs would be part of it.
        length = socklen_t(pathOffset + bytes.count - (abstract ? 0 : 1))
        description = address
    }

    public func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(SyscallError) -> T) throws(SyscallError) -> T {
        var copy = storage
        return try withUnsafePointer(to: &copy) { (p) throws(SyscallError) -> T in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { (sa) throws(SyscallError) -> T in
                try body(sa, length)
            }
        }
    }
}

extension FileDescriptor {
    /// A non-blocking, close-on-exec AF_UNIX datagram socket (systemd's notification protocol).
    public static func unixDatagramSocket(name: String) throws(SyscallError) -> FileDescriptor {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = try syscall("socket", name) { Glibc.socket(AF_UNIX, type, 0) }
        return FileDescriptor(rawValue: fd, name: name)
    }

    /// Binds a datagram socket to receive at `address` (tests stand in for systemd with this).
    public func bind(to address: UnixSocketAddress) throws(SyscallError) {
        _ = try address.withSockaddr { (sa, len) throws(SyscallError) -> Int32 in
            try syscall("bind", address.description) { Glibc.bind(rawValue, sa, len) }
        }
    }

    /// Sends one datagram to `address`, never raising SIGPIPE. Returns the bytes sent, nil when the
    /// receiver's queue is full (EAGAIN).
    public func send(_ bytes: UnsafeRawBufferPointer, to address: UnixSocketAddress) throws(SyscallError) -> Int? {
        while true {
            let n = try address.withSockaddr { (sa, len) throws(SyscallError) -> Int in
                Glibc.sendto(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), sa, len)
            }
            if n >= 0 { return n }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SyscallError(call: "sendto", object: address.description, errno: code)
        }
    }

    /// Receives one datagram into `buffer` (truncated if larger); nil when none is waiting.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SyscallError) -> Int? {
        while true {
            let n = Glibc.recv(rawValue, buffer.baseAddress, buffer.count, 0)
            if n >= 0 { return n }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SyscallError(call: "recv", object: name, errno: code)
        }
    }
}
