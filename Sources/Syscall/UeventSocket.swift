import CLinux
import Glibc

/// One kernel uevent: `ACTION@DEVPATH` and its `KEY=VALUE` lines, as the kernel broadcasts them
/// when a device is added, removed or changes (a DRM card whose connectors changed sends
/// `change` with `SUBSYSTEM=drm`).
public struct Uevent: Sendable, Equatable {
    public var action: String
    public var devpath: String
    public var properties: [String: String]

    public var subsystem: String? { properties["SUBSYSTEM"] }
    /// The device node under /dev, for devices that have one ("dri/card0").
    public var devname: String? { properties["DEVNAME"] }

    public init(action: String, devpath: String, properties: [String: String] = [:]) {
        self.action = action
        self.devpath = devpath
        self.properties = properties
    }

    /// The kernel's format: NUL-separated, the header first. nil for anything else (udev's own
    /// re-broadcasts start with "libudev" and are never asked for here).
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> Uevent? {
        var fields: [String] = []
        var start = 0
        for i in 0..<bytes.count where bytes[i] == 0 {
            if i > start { fields.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)) }
            start = i + 1
        }
        if start < bytes.count { fields.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start...]), as: UTF8.self)) }
        guard let header = fields.first, let at = header.firstIndex(of: "@") else { return nil }
        var event = Uevent(action: String(header[..<at]), devpath: String(header[header.index(after: at)...]))
        for field in fields.dropFirst() {
            guard let eq = field.firstIndex(of: "=") else { continue }
            event.properties[String(field[..<eq])] = String(field[field.index(after: eq)...])
        }
        guard !event.action.isEmpty, event.devpath.hasPrefix("/") else { return nil }
        return event
    }
}

/// A NETLINK_KOBJECT_UEVENT socket in the kernel's multicast group only (not udev's), polled by
/// the loop. Messages whose sender is not the kernel (port 0) are dropped: any local process may
/// send to the socket, and none may stand in for the kernel. An overflowing queue (ENOBUFS) is
/// reported as such: events were lost, so the caller looks at everything again.
public final class UeventSocket {
    public enum Received: Sendable, Equatable {
        case event(Uevent)
        case overflow
    }

    public let descriptor: FileDescriptor
    private let buffer: UnsafeMutableRawBufferPointer
    /// Messages dropped because another process sent them.
    public private(set) var forged = 0

    public init() throws(SyscallError) {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = try syscall("socket AF_NETLINK", "NETLINK_KOBJECT_UEVENT") { Glibc.socket(AF_NETLINK, type, NETLINK_KOBJECT_UEVENT) }
        descriptor = FileDescriptor(rawValue: fd, name: "kernel uevents")
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        // Group 1: the kernel's broadcasts. udev re-broadcasts on group 2, which is not ours.
        address.nl_groups = 1
        do throws(SyscallError) {
            _ = try withUnsafePointer(to: &address) { (p) throws(SyscallError) -> Int32 in
                try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { (sa) throws(SyscallError) -> Int32 in
                    try syscall("bind", "NETLINK_KOBJECT_UEVENT group 1") { Glibc.bind(fd, sa, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
                }
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
        buffer = .allocate(byteCount: 16 << 10, alignment: 8)
    }

    deinit {
        buffer.deallocate()
        descriptor.close()
    }

    /// This socket's netlink port (for tests that send to it).
    public func port() throws(SyscallError) -> UInt32 {
        var address = sockaddr_nl()
        var length = socklen_t(MemoryLayout<sockaddr_nl>.size)
        _ = try withUnsafeMutablePointer(to: &address) { (p) throws(SyscallError) -> Int32 in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { (sa) throws(SyscallError) -> Int32 in
                try syscall("getsockname", descriptor.name) { getsockname(descriptor.rawValue, sa, &length) }
            }
        }
        return address.nl_pid
    }

    /// Everything waiting, oldest first; never blocks.
    public func receive() throws(SyscallError) -> [Received] {
        var out: [Received] = []
        while true {
            var sender = sockaddr_nl()
            var length = socklen_t(MemoryLayout<sockaddr_nl>.size)
            let n = withUnsafeMutablePointer(to: &sender) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                    Glibc.recvfrom(descriptor.rawValue, buffer.baseAddress, buffer.count, 0, sa, &length)
                }
            }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { return out }
                if code == ENOBUFS {
                    out.append(.overflow)
                    continue
                }
                throw SyscallError(call: "recvfrom", object: descriptor.name, errno: code)
            }
            guard sender.nl_pid == 0 else {
                forged += 1
                continue
            }
            if let event = Uevent.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { out.append(.event(event)) }
        }
    }
}
