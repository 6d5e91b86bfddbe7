import Glibc
import HTTPWire
import Syscall

/// One TCP connection to a URL's host, through TLS for https: connected address by address
/// without blocking, read and written against the fetch's deadline. Every byte goes through the
/// socket calls of Syscall: TLS works on memory buffers (TLSSession), so send always carries
/// MSG_NOSIGNAL and a server that went away is an error, never SIGPIPE.
final class Connection {
    let url: String
    private let fd: FileDescriptor
    private var tls: TLSSession?
    private var socketEnded = false
    /// The deadline's own error when a connect ran out of time.
    private var timedOut: FetchError?
    private var scratch = [UInt8](repeating: 0, count: 16 << 10)

    private init(fd: FileDescriptor, url: String) {
        self.fd = fd
        self.url = url
    }

    deinit { fd.close() }

    /// Resolves the host (getaddrinfo: on the fetch's thread, bounded by the resolver's own
    /// timeouts, not by the fetch's), connects to its addresses in turn and, for https, shakes
    /// hands verifying the certificate against `context`'s CAs and the host.
    /// `proxy`: an HTTP proxy (`http://HOST:PORT`) asked with CONNECT for a tunnel to the target,
    /// TLS then shaken through it end to end: the proxy sees the host and port, never the request.
    static func open(_ target: HTTPURL, context: TLSContext?, proxy: HTTPURL? = nil, deadline: inout Deadline) throws(FetchError) -> Connection {
        let shown = target.description
        let hop = proxy ?? target
        let addresses: [SocketAddress]
        do { addresses = try SocketAddress.resolve(host: hop.host, port: hop.port) } catch {
            throw FetchError(.connect, url: shown, proxy == nil ? error.description : "proxy \(hop.host): \(error.description)")
        }
        var last: FetchError?
        for address in addresses {
            // Each address has the no-progress time to answer (an IPv6 route that drops packets
            // must not keep the IPv4 one from being tried); the whole timeout still bounds them all.
            deadline.progressed()
            let connection: Connection
            do throws(FetchError) { connection = try connect(address, url: shown, deadline: deadline) } catch {
                last = error
                continue
            }
            deadline.progressed()
            if proxy != nil { try connection.tunnel(to: target, deadline: &deadline) }
            // A refused TLS handshake is not tried on the next address: the same server would
            // answer the same.
            if let context, target.isTLS {
                connection.tls = try TLSSession(context: context, host: target.host, url: shown)
                try connection.handshake(deadline: &deadline)
            }
            return connection
        }
        throw last ?? FetchError(.connect, url: shown, "no address to connect to")
    }

    private static func connect(_ address: SocketAddress, url: String, deadline: Deadline) throws(FetchError) -> Connection {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.tcpSocket(family: address.family, name: "\(address)") } catch {
            throw FetchError(.connect, url: url, error.description)
        }
        let connection = Connection(fd: fd, url: url)
        do throws(SyscallError) {
            if try !fd.connect(to: address) {
                try connection.waitConnected(to: address, deadline: deadline)
            }
            // A connect to a free local port can meet itself (Socket.swift, isConnectedToItself).
            if try fd.isConnectedToItself() { throw SyscallError(call: "connect", object: "\(address)", errno: ECONNREFUSED) }
        } catch {
            throw connection.timedOut ?? FetchError(.connect, url: url, error.description)
        }
        return connection
    }

    /// The end of a connect left running: a timeout is the fetch's, a refusal the address's.
    private func waitConnected(to address: SocketAddress, deadline: Deadline) throws(SyscallError) {
        do { try deadline.wait(fd, for: Int16(POLLOUT), doing: "connecting to \(address)", url: url) } catch {
            timedOut = error
            throw SyscallError(call: "connect", object: "\(address)", errno: ETIMEDOUT)
        }
        let code = try fd.pendingSocketError()
        if code != 0 { throw SyscallError(call: "connect", object: "\(address)", errno: code) }
    }

    /// Asks the proxy for a tunnel (RFC 9110, CONNECT) and reads its answer's head, byte by byte
    /// so nothing of the tunnel is read with it; anything but 2xx is the proxy refusing.
    private func tunnel(to target: HTTPURL, deadline: inout Deadline) throws(FetchError) {
        let authority = (target.host.contains(":") ? "[\(target.host)]" : target.host) + ":\(target.port)"
        try send(Array("CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n\r\n".utf8), deadline: &deadline)
        var head: [UInt8] = []
        var byte: [UInt8] = [0]
        while !(head.count >= 4 && head[head.count - 4] == 13 && head[head.count - 3] == 10 && head[head.count - 2] == 13 && head[head.count - 1] == 10) {
            guard head.count < 8192 else { throw FetchError(.protocolViolation, url: url, "the proxy's answer to CONNECT has no end of head in 8 KiB") }
            let n = try byte.withMutableBytes { (b) throws(FetchError) -> Int in try receive(into: b, deadline: &deadline, doing: "waiting for the proxy's CONNECT answer") }
            if n == 0 { throw FetchError(.connect, url: url, "the proxy closed the connection before answering CONNECT") }
            head.append(byte[0])
        }
        // The same head parser as every response (and the same fuzz target's).
        var reader = HeadReader()
        let parsed: ResponseHead?
        do throws(HTTPWireError) { parsed = try head.withBytes { (b) throws(HTTPWireError) -> ResponseHead? in try reader.take(b)?.head } } catch {
            throw FetchError(.protocolViolation, url: url, "the proxy's answer to CONNECT: \(error.message)")
        }
        guard let answer = parsed else { throw FetchError(.protocolViolation, url: url, "the proxy's answer to CONNECT has no end of head") }
        guard (200..<300).contains(answer.status) else {
            let reason = answer.reason.isEmpty ? "" : " " + answer.reason
            throw FetchError(.connect, url: url, "the proxy refused the tunnel to \(authority): HTTP \(answer.status)\(reason)")
        }
    }

    private func handshake(deadline: inout Deadline) throws(FetchError) {
        guard let tls else { return }
        while true {
            let step = tls.handshake()
            try flush(deadline: &deadline)
            switch step {
            case .done: return
            case .wantRead:
                if try !fill(deadline: &deadline, doing: "TLS handshake") {
                    throw FetchError(.tls, url: url, "the server closed the connection during the TLS handshake")
                }
            case .failed(let message): throw FetchError(.tls, url: url, message)
            }
        }
    }

    func write(_ bytes: [UInt8], deadline: inout Deadline) throws(FetchError) {
        if let tls {
            tls.write(bytes)
            try flush(deadline: &deadline)
        } else {
            try send(bytes, deadline: &deadline)
        }
    }

    /// Reads what is there into `buffer`: the count, 0 at the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: inout Deadline, doing: String) throws(FetchError) -> Int {
        guard let tls else {
            return try receive(into: buffer, deadline: &deadline, doing: doing)
        }
        while true {
            switch tls.read(into: buffer) {
            case .data(let n): return n
            case .closed: return 0
            case .failed(let message): throw FetchError(.tls, url: url, message)
            case .wantRead:
                try flush(deadline: &deadline)
                // The server closing without TLS's close_notify: the body's framing decides
                // whether anything was lost.
                if try !fill(deadline: &deadline, doing: doing) { return 0 }
            }
        }
    }

    /// Moves one read of the socket into the TLS session; false at the end of the stream.
    private func fill(deadline: inout Deadline, doing: String) throws(FetchError) -> Bool {
        if socketEnded { return false }
        let n = try scratch.withMutableBytes { (b) throws(FetchError) -> Int in
            try receive(into: b, deadline: &deadline, doing: doing)
        }
        if n == 0 { socketEnded = true; return false }
        scratch.withUnsafeBytes { tls?.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        return true
    }

    /// Sends whatever the TLS session has written.
    private func flush(deadline: inout Deadline) throws(FetchError) {
        guard let tls else { return }
        while true {
            let out = tls.drain()
            if out.isEmpty { return }
            try send(out, deadline: &deadline)
        }
    }

    private func receive(into buffer: UnsafeMutableRawBufferPointer, deadline: inout Deadline, doing: String) throws(FetchError) -> Int {
        while true {
            let got: Int?
            do { got = try fd.read(into: buffer) } catch {
                throw FetchError(.connect, url: url, "\(error.description) (\(doing))")
            }
            if let got {
                if got > 0 { deadline.progressed() }
                return got
            }
            try deadline.wait(fd, for: Int16(POLLIN), doing: doing, url: url)
        }
    }

    private func send(_ bytes: [UInt8], deadline: inout Deadline) throws(FetchError) {
        var done = 0
        while done < bytes.count {
            let sent: Int?
            do {
                sent = try bytes.withBytes { (b) throws(SyscallError) -> Int? in
                    try fd.send(UnsafeRawBufferPointer(rebasing: b[done...]))
                }
            } catch {
                throw FetchError(.connect, url: url, "\(error.description) (sending the request)")
            }
            if let sent { done += sent; continue }
            try deadline.wait(fd, for: Int16(POLLOUT), doing: "sending the request", url: url)
        }
    }
}
