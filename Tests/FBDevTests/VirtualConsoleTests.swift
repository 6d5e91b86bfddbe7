import FBDev
import Glibc
import Syscall
import XCTest

/// Graphics mode while running, text mode on the way out; without a usable VT, one line and on.
final class VirtualConsoleTests: XCTestCase {
    final class FakeTerminal: ConsoleTerminal {
        let path: String
        var modes: [String] = []
        var failures: [Int32] = []
        var armed = false
        var closed = false
        init(path: String) { self.path = path }
        func setGraphics(_ graphics: Bool) throws(SyscallError) {
            if !failures.isEmpty { throw SyscallError(call: "ioctl KDSETMODE", object: path, errno: failures.removeFirst()) }
            modes.append(graphics ? "graphics" : "text")
        }
        func guardAgainstCrash(_ armed: Bool) { self.armed = armed }
        func close() { closed = true }
    }

    func testGraphicsWhileRunningTextOnClose() {
        let tty = FakeTerminal(path: "/dev/tty1")
        var lines: [String] = []
        let console = VirtualConsole(log: { lines.append($0) }, opener: { _ in tty })
        XCTAssertTrue(console.enterGraphics())
        XCTAssertTrue(console.isGraphics)
        XCTAssertTrue(tty.armed, "a crash must put the console back too")
        XCTAssertTrue(console.enterGraphics(), "twice is once")
        console.close()
        console.close()
        XCTAssertEqual(tty.modes, ["graphics", "text"])
        XCTAssertFalse(tty.armed)
        XCTAssertTrue(tty.closed)
        XCTAssertEqual(lines, [])
    }

    func testLeavingAndEnteringAgainAcrossReopenedDisplays() {
        let tty = FakeTerminal(path: "/dev/tty1")
        var opened = 0
        let console = VirtualConsole(log: { _ in }, opener: { _ in opened += 1; return tty })
        console.enterGraphics()
        console.leaveGraphics()
        console.enterGraphics()
        console.close()
        XCTAssertEqual(tty.modes, ["graphics", "text", "graphics", "text"])
        XCTAssertEqual(opened, 1, "the terminal stays open (it is the controlling terminal)")
    }

    func testNoConsoleIsSaidOnceAndTheCallerCarriesOn() {
        var lines: [String] = []
        var attempts = 0
        let console = VirtualConsole(path: "/dev/tty1", log: { lines.append($0) }, opener: { (p) throws(SyscallError) in
            attempts += 1
            throw SyscallError(call: "open", object: p, errno: ENOENT)
        })
        XCTAssertFalse(console.enterGraphics())
        XCTAssertFalse(console.enterGraphics())
        console.close()
        XCTAssertEqual(attempts, 2)
        XCTAssertEqual(lines, ["no virtual console at /dev/tty1 (No such file or directory); carrying on, but the console may draw over the dot"])
    }

    func testNotAVirtualConsoleAndNoPermissionAreSaid() {
        let tty = FakeTerminal(path: "/dev/ttyS0")
        tty.failures = [ENOTTY]
        var lines: [String] = []
        let console = VirtualConsole(path: "/dev/ttyS0", log: { lines.append($0) }, opener: { _ in tty })
        XCTAssertFalse(console.enterGraphics())
        XCTAssertFalse(tty.armed)
        XCTAssertEqual(lines, ["/dev/ttyS0 is not a virtual console (ioctl KDSETMODE /dev/ttyS0: Inappropriate ioctl for device (errno 25)); carrying on, but the console may draw over the dot"])

        let other = FakeTerminal(path: "/dev/tty1")
        other.failures = [EPERM]
        lines = []
        let second = VirtualConsole(log: { lines.append($0) }, opener: { _ in other })
        XCTAssertFalse(second.enterGraphics())
        XCTAssertTrue(lines.first?.hasPrefix("cannot put /dev/tty1 into graphics mode (ioctl KDSETMODE /dev/tty1: Operation not permitted (errno 1)): it must be this process's controlling terminal") ?? false, "\(lines)")
    }

    func testAFailedReturnToTextModeNamesTheRemedy() {
        let tty = FakeTerminal(path: "/dev/tty1")
        var lines: [String] = []
        let console = VirtualConsole(log: { lines.append($0) }, opener: { _ in tty })
        console.enterGraphics()
        tty.failures = [EIO]
        console.close()
        XCTAssertEqual(lines, ["could not put /dev/tty1 back into text mode: ioctl KDSETMODE /dev/tty1: Input/output error (errno 5); `pulsedot console-restore --tty /dev/tty1` does it"])
        XCTAssertFalse(tty.armed)
    }

    func testARealNonConsoleIsRefusedWithoutStopping() {
        var lines: [String] = []
        let console = VirtualConsole(path: "/dev/null", log: { lines.append($0) })
        XCTAssertFalse(console.enterGraphics())
        console.close()
        XCTAssertEqual(lines, ["/dev/null is not a virtual console (ioctl KDSETMODE /dev/null: Inappropriate ioctl for device (errno 25)); carrying on, but the console may draw over the dot"])
    }
}
