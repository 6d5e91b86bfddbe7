import Foundation
import Glibc
import TestSupport
import XCTest

/// `pulsedot show` and `probe` on the host, where there is no display to drive: bad options are
/// one clear line, and a missing device is waited for (said once) until SIGTERM, which exits 0.
final class KMSCommandLineTests: XCTestCase {
    private func pulsedot(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), args, timeout: 30)
    }

    func testBadShowOptionsAreOneLineEach() throws {
        let cases: [([String], String)] = [
            (["--rotation", "45"], "pulsedot: show: --rotation 45: expected 0, 90, 180 or 270 (clockwise)\n"),
            (["--mode", "1280x"], "pulsedot: show: mode 1280x: expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1280x800 or 1920x1080@60\n"),
            (["--update", "vsync"], "pulsedot: show: --update vsync: expected auto, flip or damage\n"),
            (["--format", "rgb888"], "pulsedot: show: --format rgb888: expected xrgb8888 or rgb565\n"),
            (["--x", "10"], "pulsedot: show: --x and --y go together\n"),
            (["--from", "1"], "pulsedot: show: --from needs --at (where the clock stops)\n"),
            (["--at", "1", "--from", "2"], "pulsedot: show: --from 2.0 is after --at 1.0\n"),
        ]
        for (args, message) in cases {
            let r = try pulsedot(["show"] + args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertEqual(r.stderr, message, "\(args)")
        }
        let unknown = try pulsedot(["show", "--colour", "red"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.hasPrefix("pulsedot: show: unknown option --colour"), unknown.stderr)
        let badSet = try pulsedot(["show", "--set", "colorDotInset=11"])
        XCTAssertEqual(badSet.status, 2)
        XCTAssertTrue(badSet.stderr.contains("colorDotInset"), badSet.stderr)
    }

    /// A display that is not there yet (a USB panel still enumerating) is waited for, said once;
    /// SIGTERM while waiting still ends the command cleanly.
    func testMissingDeviceIsWaitedForAndSIGTERMExitsZero() throws {
        let child = try ChildProcess(try TestEnvironment.pulsedotBinary(), ["show", "--device", "/nonexistent/card9"])
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 10) { child.stderr.contains("waiting for one") }, child.stderr)
        usleep(2_500_000)  // at least one retry
        child.signal(SIGTERM)
        XCTAssertEqual(child.wait(timeout: 10), 0, child.stderr)
        XCTAssertEqual(child.stderr, "pulsedot: no DRM device: /nonexistent/card9 does not exist (is a DRM driver loaded? `pulsedot probe` lists what is there); waiting for one\n")
    }

    func testProbeOfSomethingThatIsNotACard() throws {
        let r = try pulsedot(["probe", "--device", "/dev/null"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("pulsedot: /dev/null is not a usable DRM device: DRM_IOCTL_VERSION /dev/null: "), r.stderr)
    }
}
