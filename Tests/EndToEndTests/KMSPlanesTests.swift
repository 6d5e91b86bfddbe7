import Foundation
import TestSupport
import XCTest

/// The dot on an overlay plane through atomic KMS, on vkms (the kernel's virtual KMS driver, built
/// by deploy/fetch-vkms): one boot shared by every check.
final class KMSPlanesTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipIf(TestEnvironment.optedOut("qemu"), "PULSEDOT_SKIP contains qemu")
    }

    func testVKMS() throws {
        let vm = try QEMUMachine.boot(display: .vkms)
        defer { vm.shutdown() }
        XCTAssertFalse(vm.serialLog.contains("PULSEDOT-INSMOD-FAILED"), vm.serialLog)
        // The driver as the module was loaded: overlays on, no fbdev emulation.
        let parameters = try vm.run("cat /sys/module/vkms/parameters/enable_overlay /sys/module/drm_kms_helper/parameters/fbdev_emulation; ls /dev/fb0")
        XCTAssertEqual(parameters.output.split(separator: "\n").prefix(2), ["Y", "N"], parameters.output)
        XCTAssertNotEqual(parameters.status, 0, "no framebuffer emulation: \(parameters.output)")
        let probe = try vm.run("pulsedot probe")
        XCTAssertEqual(probe.status, 0, probe.output)
        XCTAssertTrue(probe.output.contains("/dev/dri/card0: driver vkms"), probe.output)
        XCTAssertTrue(probe.output.contains("  atomic: yes\n"), probe.output)
        XCTAssertEqual(probe.output.components(separatedBy: ": overlay, crtc ").count - 1, 8, probe.output)
    }
}
