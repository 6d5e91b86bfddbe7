import Glibc
import Syscall
import XCTest

/// A TCP listener on 127.0.0.1 that a test drives by hand, on the test's own thread: accept,
/// read what the client sent, write what a gpsd (or a broken peer) would. Real sockets, real kernel.
final class LoopbackServer {
    let listener: FileDescriptor
    let port: UInt16
    private(set) var peers: [FileDescriptor] = []

    init(port: UInt16 = 0) throws {
        let address = try SocketAddress.resolve(host: "127.0.0.1", port: port)[0]
        listener = try FileDescriptor.listenTCP(address)
        self.port = try listener.localAddress().port
    }

    deinit {
        for p in peers { p.close() }
        listener.close()
    }

    /// Waits up to `timeout` seconds for the next connection.
    func accept(timeout: Double = 5, file: StaticString = #filePath, line: UInt = #line) throws -> FileDescriptor {
        var fds = [pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0)]
        _ = try Poll.wait(&fds, timeoutMilliseconds: Int32(timeout * 1000))
        guard let peer = try listener.accept() else {
            XCTFail("no connection within \(timeout) s", file: file, line: line)
            throw SyscallError(call: "accept", object: "test listener", errno: ETIMEDOUT)
        }
        peers.append(peer)
        return peer
    }

    /// Whether a connection is waiting to be accepted right now.
    func hasPendingConnection() throws -> Bool {
        var fds = [pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0)]
        return try Poll.wait(&fds, timeoutMilliseconds: 0) > 0
    }

    static func send(_ text: String, to peer: FileDescriptor) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = try bytes[offset...].withUnsafeBytes { try peer.send($0) }
            if let n { offset += n } else { try waitWritable(peer) }
        }
    }

    static func waitWritable(_ peer: FileDescriptor) throws {
        var fds = [pollfd(fd: peer.rawValue, events: Int16(POLLOUT), revents: 0)]
        _ = try Poll.wait(&fds, timeoutMilliseconds: 1000)
    }

    /// Reads what has arrived within `timeout` seconds (stops at the first pause after some data).
    static func receive(from peer: FileDescriptor, timeout: Double = 2) throws -> String {
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var wait = Int32(timeout * 1000)
        while true {
            var fds = [pollfd(fd: peer.rawValue, events: Int16(POLLIN), revents: 0)]
            guard try Poll.wait(&fds, timeoutMilliseconds: wait) > 0 else { break }
            guard let n = try buffer.withUnsafeMutableBytes({ try peer.read(into: $0) }), n > 0 else { break }
            collected += buffer[..<n]
            wait = 50
        }
        return String(decoding: collected, as: UTF8.self)
    }

    /// Whether the client has closed its end of `peer`: reads (and drops) what it sent until EOF,
    /// for at most a second.
    static func isClosedByClient(_ peer: FileDescriptor) throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = MonotonicInstant.now().advanced(by: .seconds(1))
        while MonotonicInstant.now() < end {
            var fds = [pollfd(fd: peer.rawValue, events: Int16(POLLIN), revents: 0)]
            guard try Poll.wait(&fds, timeoutMilliseconds: 100) > 0 else { continue }
            let n = try buffer.withUnsafeMutableBytes { try peer.read(into: $0) }
            if n == 0 { return true }
        }
        return false
    }
}

/// A port on 127.0.0.1 where nothing listens: bound, then released.
func closedPort() throws -> UInt16 {
    let server = try LoopbackServer()
    return server.port
}
