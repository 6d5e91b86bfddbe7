import Glibc

/// An IPv4 or IPv6 socket address, stored by value so it can be kept and retried.
public struct SocketAddress: Sendable, CustomStringConvertible {
    public let family: Int32
    private let storage: sockaddr_storage
    private let length: socklen_t

    public init?(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        guard length <= socklen_t(MemoryLayout<sockaddr_storage>.size) else { return nil }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { dst in
            dst.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(length)))
        }
        self.storage = storage
        self.length = length
        self.family = Int32(address.pointee.sa_family)
    }

    /// Resolves `host` (a name, a dotted IPv4 address or an IPv6 address without brackets) for TCP.
    /// Names go through getaddrinfo, which may block on DNS for as long as the resolver's timeouts
    /// allow: call it off the poll loop. Numeric addresses never block (see `numeric`).
    public static func resolve(host: String, port: UInt16) throws(ResolveError) -> [SocketAddress] {
        try lookUp(host: host, port: port, flags: AI_NUMERICSERV)
    }

    /// `host` as an address when it is written as one (`127.0.0.1`, `::1`, `fe80::1%eth0`); nil
    /// for a name. Never asks DNS, so the loop may call it.
    public static func numeric(host: String, port: UInt16) -> [SocketAddress]? {
        try? lookUp(host: host, port: port, flags: AI_NUMERICSERV | AI_NUMERICHOST)
    }

    private static func lookUp(host: String, port: UInt16, flags: Int32) throws(ResolveError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = flags
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            let text = status == EAI_SYSTEM ? SyscallError.message(errno: errno) : String(cString: gai_strerror(status))
            throw ResolveError(host: host, message: text)
        }
        defer { freeaddrinfo(list) }
        var result: [SocketAddress] = []
        var cursor = list
        while let entry = cursor {
            if let sa = entry.pointee.ai_addr, let address = SocketAddress(sa, length: entry.pointee.ai_addrlen),
               address.family == AF_INET || address.family == AF_INET6 {
                result.append(address)
            }
            cursor = entry.pointee.ai_next
        }
        if result.isEmpty { throw ResolveError(host: host, message: "no IPv4 or IPv6 address") }
        return result
    }

    /// Runs `body` with the raw sockaddr pointer and length the socket calls take.
    public func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(SyscallError) -> T) throws(SyscallError) -> T {
        var copy = storage
        return try withUnsafePointer(to: &copy) { (p) throws(SyscallError) -> T in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { (sa) throws(SyscallError) -> T in
                try body(sa, length)
            }
        }
    }

    public var port: UInt16 {
        var copy = storage
        return withUnsafeBytes(of: &copy) { raw in
            family == AF_INET6
                ? UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
                : UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
        }
    }

    /// `127.0.0.1:2947` or `[::1]:2947`.
    public var description: String {
        var copy = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let ok = withUnsafeBytes(of: &copy) { raw -> Bool in
            if family == AF_INET6 {
                var a = raw.load(as: sockaddr_in6.self).sin6_addr
                return inet_ntop(AF_INET6, &a, &text, socklen_t(text.count)) != nil
            }
            var a = raw.load(as: sockaddr_in.self).sin_addr
            return inet_ntop(AF_INET, &a, &text, socklen_t(text.count)) != nil
        }
        let host = ok ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        return family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// A host name that did not resolve: getaddrinfo's error text, with the host.
public struct ResolveError: Error, Equatable, CustomStringConvertible, Sendable {
    public let host: String
    public let message: String

    public init(host: String, message: String) {
        self.host = host
        self.message = message
    }

    public var description: String { "resolve \(host): \(message)" }
}

extension FileDescriptor {
    /// A non-blocking, close-on-exec TCP socket for `family` (AF_INET or AF_INET6).
    public static func tcpSocket(family: Int32, name: String) throws(SyscallError) -> FileDescriptor {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = try syscall("socket", name) { Glibc.socket(family, type, 0) }
        return FileDescriptor(rawValue: fd, name: name)
    }

    /// Starts a connect on a non-blocking socket: true when it completed at once, false when it is in
    /// progress (wait for POLLOUT, then read `pendingSocketError()`).
    public func connect(to address: SocketAddress) throws(SyscallError) -> Bool {
        let result = try address.withSockaddr { (sa, len) throws(SyscallError) -> Int32 in Glibc.connect(rawValue, sa, len) }
        if result == 0 { return true }
        let code = errno
        // EINTR on a non-blocking connect leaves it running in the background, like EINPROGRESS.
        if code == EINPROGRESS || code == EINTR || code == EALREADY { return false }
        throw SyscallError(call: "connect", object: name, errno: code)
    }

    /// The error a background connect ended with (SO_ERROR), 0 when it succeeded.
    public func pendingSocketError() throws(SyscallError) -> Int32 {
        var value: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        _ = try syscall("getsockopt SO_ERROR", name) { getsockopt(rawValue, SOL_SOCKET, SO_ERROR, &value, &len) }
        return value
    }

    /// Sends on a socket without ever raising SIGPIPE (a peer that went away is an error to handle,
    /// not a signal that kills the daemon). Returns the count sent, nil on EAGAIN.
    public func send(_ bytes: UnsafeRawBufferPointer) throws(SyscallError) -> Int? {
        while true {
            let n = Glibc.send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return n }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SyscallError(call: "send", object: name, errno: code)
        }
    }

    public func setSocketOption(level: Int32, option: Int32, value: Int32) throws(SyscallError) {
        var v = value
        _ = try syscall("setsockopt", name) { setsockopt(rawValue, level, option, &v, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// A non-blocking listening TCP socket bound to `address` (port 0 picks a free port; read it back
    /// with `localAddress()`). Used by servers and by tests that play a peer.
    public static func listenTCP(_ address: SocketAddress, backlog: Int32 = 16) throws(SyscallError) -> FileDescriptor {
        let fd = try tcpSocket(family: address.family, name: "listen \(address)")
        do {
            try fd.setSocketOption(level: SOL_SOCKET, option: SO_REUSEADDR, value: 1)
            _ = try address.withSockaddr { (sa, len) throws(SyscallError) -> Int32 in
                try syscall("bind", fd.name) { Glibc.bind(fd.rawValue, sa, len) }
            }
            _ = try syscall("listen", fd.name) { Glibc.listen(fd.rawValue, backlog) }
        } catch {
            fd.close()
            throw error
        }
        return fd
    }

    /// Accepts one pending connection as a non-blocking descriptor; nil when none is waiting.
    public func accept() throws(SyscallError) -> FileDescriptor? {
        while true {
            // Glibc's module map hides accept4 (a GNU extension), so flags are set after accept.
            let fd = Glibc.accept(rawValue, nil, nil)
            if fd >= 0 {
                let peer = FileDescriptor(rawValue: fd, name: "\(name) peer")
                do {
                    _ = try syscall("fcntl F_SETFD", peer.name) { fcntl(fd, F_SETFD, FD_CLOEXEC) }
                    let flags = try syscall("fcntl F_GETFL", peer.name) { fcntl(fd, F_GETFL) }
                    _ = try syscall("fcntl F_SETFL", peer.name) { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
                } catch {
                    peer.close()
                    throw error
                }
                return peer
            }
            let code = errno
            if code == EINTR || code == ECONNABORTED { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SyscallError(call: "accept", object: name, errno: code)
        }
    }

    /// The address a connected socket's peer has.
    public func peerAddress() throws(SyscallError) -> SocketAddress {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return try withUnsafeMutablePointer(to: &storage) { (p) throws(SyscallError) -> SocketAddress in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { (sa) throws(SyscallError) -> SocketAddress in
                _ = try syscall("getpeername", name) { getpeername(rawValue, sa, &len) }
                return SocketAddress(sa, length: len)!
            }
        }
    }

    /// Whether a TCP connect to a local port with nothing listening ended up connected to itself.
    /// When the port lies in the ephemeral range, the kernel may pick that very port as the source
    /// and the simultaneous open "succeeds": the socket then talks to itself and holds the port, so
    /// the server cannot bind it when it starts. Such a connection must be treated as refused.
    public func isConnectedToItself() throws(SyscallError) -> Bool {
        let local = try localAddress(), peer = try peerAddress()
        return local.family == peer.family && local.description == peer.description
    }

    /// The address a socket is bound to.
    public func localAddress() throws(SyscallError) -> SocketAddress {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return try withUnsafeMutablePointer(to: &storage) { (p) throws(SyscallError) -> SocketAddress in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { (sa) throws(SyscallError) -> SocketAddress in
                _ = try syscall("getsockname", name) { getsockname(rawValue, sa, &len) }
                return SocketAddress(sa, length: len)!
            }
        }
    }
}
