import CLinux
import Glibc
import Syscall
import XCTest

/// Kernel uevents read for real: a `change` written to a device's sysfs `uevent` file makes the
/// kernel broadcast one, which the socket must receive; a message another process sends it must
/// not pass for the kernel's.
final class UeventSocketTests: XCTestCase {
    private func drain(_ socket: UeventSocket, until condition: ([UeventSocket.Received]) -> Bool) throws -> [UeventSocket.Received] {
        var got: [UeventSocket.Received] = []
        for _ in 0..<50 {
            var fds = [pollfd(fd: socket.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
            _ = try Poll.wait(&fds, timeoutMilliseconds: 100)
            got += try socket.receive()
            if condition(got) { return got }
        }
        return got
    }

    func testAChangeWrittenToSysfsArrivesFromTheKernel() throws {
        let socket = try UeventSocket()
        let trigger = "/sys/class/mem/null/uevent"
        let fd = try FileDescriptor.open(trigger, O_WRONLY)
        defer { fd.close() }
        _ = try Array("change".utf8).withUnsafeBytes { (b) throws(SyscallError) in try fd.write(b) }
        let got = try drain(socket) { $0.contains { if case .event(let e) = $0 { e.devpath == "/devices/virtual/mem/null" } else { false } } }
        let event = try XCTUnwrap(got.lazy.compactMap { r -> Uevent? in if case .event(let e) = r, e.devpath == "/devices/virtual/mem/null" { e } else { nil } }.first, "\(got)")
        XCTAssertEqual(event.action, "change")
        XCTAssertEqual(event.subsystem, "mem")
        XCTAssertEqual(event.devname, "null")
    }

    func testAMessageFromAnotherProcessIsDropped() throws {
        let socket = try UeventSocket()
        let port = try socket.port()
        let sender = Glibc.socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue), NETLINK_KOBJECT_UEVENT)
        XCTAssertGreaterThanOrEqual(sender, 0)
        defer { Glibc.close(sender) }
        var to = sockaddr_nl()
        to.nl_family = sa_family_t(AF_NETLINK)
        to.nl_pid = port
        let message = Array("change@/devices/pci0000:00/drm/card0\0ACTION=change\0SUBSYSTEM=drm\0DEVNAME=dri/card0\0HOTPLUG=1\0".utf8)
        let sent = message.withUnsafeBytes { b in
            withUnsafePointer(to: &to) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.sendto(sender, b.baseAddress, b.count, 0, $0, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
            }
        }
        XCTAssertEqual(sent, message.count, "sendto: \(String(cString: strerror(errno)))")
        _ = try drain(socket) { _ in socket.forged > 0 }
        XCTAssertEqual(socket.forged, 1)
        XCTAssertEqual(try socket.receive(), [])
    }

    func testTheKernelsFormatIsParsed() {
        let bytes = Array("remove@/devices/pci0000:00/0000:00:02.0/drm/card0/card0-HDMI-A-1\0ACTION=remove\0SUBSYSTEM=drm\0SEQNUM=42\0".utf8)
        let event = bytes.withUnsafeBytes { Uevent.parse($0) }
        XCTAssertEqual(event, Uevent(action: "remove", devpath: "/devices/pci0000:00/0000:00:02.0/drm/card0/card0-HDMI-A-1",
                                     properties: ["ACTION": "remove", "SUBSYSTEM": "drm", "SEQNUM": "42"]))
        XCTAssertNil(Array("libudev\0\u{1}".utf8).withUnsafeBytes { Uevent.parse($0) })
        XCTAssertNil(Array("no header".utf8).withUnsafeBytes { Uevent.parse($0) })
    }
}
