import Foundation
import TestSupport
import XCTest

/// The display taken by another DRM master, and the device going away: `show` says so, waits and
/// comes back by itself on real kernel behaviour (EACCES from the modeset, ENODEV from the ioctls).
final class KMSRecoveryTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipIf(TestEnvironment.optedOut("qemu"), "PULSEDOT_SKIP contains qemu")
    }

    func testASecondShowWaitsForTheMasterAndTakesOver() throws {
        let vm = try QEMUMachine.boot(display: .bochs)
        defer { vm.shutdown() }
        let first = try vm.spawn("pulsedot show --at 1.2 --x 300 --y 200")
        try vm.waitForOutput(first, containing: "still frame at clock")
        let second = try vm.spawn("pulsedot show --at 1.2 --x 900 --y 500")
        let waiting = try vm.waitForOutput(second, containing: "in use by another DRM master")
        XCTAssertTrue(waiting.contains("/dev/dri/card0 is in use by another DRM master (drmModeSetCrtc: Permission denied)"), waiting)
        XCTAssertEqual(try vm.stop(first), 0)
        let log = try vm.waitForOutput(second, containing: "still frame at clock")
        XCTAssertEqual(log.components(separatedBy: "in use by another DRM master").count - 1, 1, "said once: \(log)")
        let screen = ScreenImage(try vm.stableScreendump { ScreenImage($0).centroid(of: KMSShowTests.dotColor) != nil })
        let dot = try XCTUnwrap(screen.centroid(of: KMSShowTests.dotColor))
        XCTAssertEqual(dot.x, 900, accuracy: 1)
        XCTAssertEqual(dot.y, 500, accuracy: 1)
        XCTAssertEqual(try vm.stop(second), 0)
    }

    /// Animated (a still frame makes no DRM calls, so nothing would notice), with halo and breath
    /// off so the picture stays the same while frames keep flipping.
    func testTheCardGoingAwayAndComingBackIsFoundAgain() throws {
        let vm = try QEMUMachine.boot(display: .bochs)
        defer { vm.shutdown() }
        let pid = try vm.spawn("pulsedot show --set delayBetweenPulseCycles=inf --fps 10")
        try vm.waitForOutput(pid, containing: "SIGTERM or SIGINT to stop")
        let device = try vm.run("basename $(readlink /sys/class/drm/card0/device)")
        XCTAssertEqual(device.status, 0, device.output)
        let pci = device.output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try vm.run("echo -n \(pci) > /sys/bus/pci/drivers/bochs-drm/unbind").status, 0)
        let gone = try vm.waitForOutput(pid, containing: "went away")
        XCTAssertTrue(gone.contains("/dev/dri/card0 went away"), gone)
        try vm.waitForOutput(pid, containing: "no DRM device")
        XCTAssertEqual(try vm.run("echo -n \(pci) > /sys/bus/pci/drivers/bochs-drm/bind").status, 0)
        let log = try vm.waitForOutput(pid, "a second start") {
            $0.components(separatedBy: "SIGTERM or SIGINT to stop").count == 3
        }
        XCTAssertEqual(log.components(separatedBy: "went away").count - 1, 1, "said once: \(log)")
        XCTAssertEqual(log.components(separatedBy: "no DRM device").count - 1, 1, "said once: \(log)")
        let screen = ScreenImage(try vm.stableScreendump { ScreenImage($0).centroid(of: KMSShowTests.dotColor) != nil })
        let dot = try XCTUnwrap(screen.centroid(of: KMSShowTests.dotColor))
        XCTAssertEqual(dot.x, 640, accuracy: 1)
        XCTAssertEqual(dot.y, 400, accuracy: 1)
        XCTAssertEqual(try vm.stop(pid), 0)
    }
}
