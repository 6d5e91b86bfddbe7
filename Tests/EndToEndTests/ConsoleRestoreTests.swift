import Foundation
import TestSupport
import XCTest

/// `pulsedot console-restore`, the unit's ExecStopPost=. The success path (a real VT) runs in the
/// fbdev QEMU test; here: the two ways it must answer without one.
final class ConsoleRestoreTests: XCTestCase {
    func testMissingConsoleIsNotAFailure() throws {
        // Boards built without virtual consoles must not see the unit fail on every stop.
        let run = try runProgram(try TestEnvironment.pulsedotBinary(), ["console-restore", "--tty", "/nonexistent/tty1"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "pulsedot: console-restore: no console at /nonexistent/tty1 (No such file or directory); nothing to restore\n")
    }

    func testNonConsoleDeviceIsRejectedWithTheReason() throws {
        let run = try runProgram(try TestEnvironment.pulsedotBinary(), ["console-restore", "--tty", "/dev/null"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "pulsedot: console-restore: /dev/null is not a virtual console (ioctl KDSETMODE /dev/null: Inappropriate ioctl for device (errno 25))\n")
    }
}
