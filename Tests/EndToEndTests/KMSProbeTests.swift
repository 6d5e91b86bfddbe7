import Foundation
import TestSupport
import XCTest

/// `pulsedot probe` on real kernel drivers: what it reports must be what the driver is.
final class KMSProbeTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipIf(TestEnvironment.optedOut("qemu"), "PULSEDOT_SKIP contains qemu")
    }

    private func probe(_ display: QEMUMachine.Display) throws -> [String: Any] {
        let vm = try QEMUMachine.boot(display: display)
        defer { vm.shutdown() }
        let text = try vm.run("pulsedot probe")
        XCTAssertEqual(text.status, 0, text.output)
        XCTAssertTrue(text.output.contains("/dev/dri/card0: driver"), text.output)
        let r = try vm.run("pulsedot probe --device /dev/dri/card0 --json")
        XCTAssertEqual(r.status, 0, r.output)
        guard let json = try? JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [String: Any] else {
            XCTFail("probe --json is not JSON: \(r.output)")
            return [:]
        }
        let devices = json["devices"] as? [[String: Any]] ?? []
        XCTAssertEqual(devices.count, 1, r.output)
        return devices.first ?? [:]
    }

    func testBochsHasNoDirtyFBAndAPreferredMode() throws {
        let card = try probe(.bochs)
        XCTAssertEqual(card["driver"] as? String, "bochs-drm")
        XCTAssertEqual(card["dumbBuffers"] as? Bool, true)
        XCTAssertEqual(card["dirtyFB"] as? String, "no")
        let connectors = card["connectors"] as? [[String: Any]] ?? []
        let virtual = connectors.first { $0["name"] as? String == "Virtual-1" }
        XCTAssertEqual(virtual?["status"] as? String, "connected", "\(connectors)")
        let modes = virtual?["modes"] as? [[String: Any]] ?? []
        XCTAssertEqual(modes.filter { $0["preferred"] as? Bool == true }.count, 1, "\(modes)")
        XCTAssertTrue(modes.contains { $0["name"] as? String == "1024x768@60" || ($0["width"] as? Int == 1024 && $0["height"] as? Int == 768) }, "\(modes)")
        let planes = card["primaryPlanes"] as? [[String: Any]] ?? []
        XCTAssertTrue(planes.contains { ($0["formats"] as? [String] ?? []).contains("xrgb8888") }, "\(planes)")
        XCTAssertFalse(planes.contains { ($0["formats"] as? [String] ?? []).contains("rgb565") }, "\(planes)")
    }

    func testVirtioGPUTakesDirtyFB() throws {
        let card = try probe(.virtioGPU)
        XCTAssertEqual(card["driver"] as? String, "virtio_gpu")
        XCTAssertEqual(card["dirtyFB"] as? String, "yes")
    }

    func testCirrusOffersRGB565() throws {
        let card = try probe(.cirrus)
        XCTAssertEqual(card["driver"] as? String, "cirrus")
        let planes = card["primaryPlanes"] as? [[String: Any]] ?? []
        XCTAssertTrue(planes.contains { ($0["formats"] as? [String] ?? []).contains("rgb565") }, "\(planes)")
    }
}
