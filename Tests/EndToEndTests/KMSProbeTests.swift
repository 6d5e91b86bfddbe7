import Foundation
import TestSupport
import XCTest

/// `pulsedot probe` on real kernel drivers: what it reports must be what the driver is. The
/// plane list is checked, in the same boot, against the kernel's own debugfs account of the
/// atomic state.
final class KMSProbeTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipIf(TestEnvironment.optedOut("qemu"), "PULSEDOT_SKIP contains qemu")
    }

    private struct Probed {
        var card: [String: Any]
        var text: String
        /// nil when the kernel has no state file (no debugfs, or not an atomic driver).
        var state: KMSStateFile?
    }

    private func probe(_ display: QEMUMachine.Display, alsoIn: (QEMUMachine) throws -> Void = { _ in }) throws -> Probed {
        let vm = try QEMUMachine.boot(display: display)
        defer { vm.shutdown() }
        try alsoIn(vm)
        let text = try vm.run("pulsedot probe")
        XCTAssertEqual(text.status, 0, text.output)
        XCTAssertTrue(text.output.contains("/dev/dri/card0: driver"), text.output)
        let r = try vm.run("pulsedot probe --device /dev/dri/card0 --json")
        XCTAssertEqual(r.status, 0, r.output)
        // After probe has closed the card: the state is then the console's again.
        let state = try vm.run("mount -t debugfs none /sys/kernel/debug 2>/dev/null; cat /sys/kernel/debug/dri/0/state")
        guard let json = try? JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [String: Any] else {
            XCTFail("probe --json is not JSON: \(r.output)")
            return Probed(card: [:], text: text.output, state: nil)
        }
        let devices = json["devices"] as? [[String: Any]] ?? []
        XCTAssertEqual(devices.count, 1, r.output)
        return Probed(card: devices.first ?? [:], text: text.output, state: state.status == 0 ? KMSStateFile(state.output) : nil)
    }

    private static func planes(_ card: [String: Any]) -> [[String: Any]] { card["planes"] as? [[String: Any]] ?? [] }

    private static func property(_ plane: [String: Any], _ name: String) -> [String: Any]? {
        (plane["properties"] as? [[String: Any]] ?? []).first { $0["name"] as? String == name }
    }

    /// Probe's planes are the kernel's: the same ids, the one showing the console's framebuffer is
    /// the one probe calls primary, with that framebuffer's format among its formats, and its
    /// FB_ID and CRTC_ID properties (visible because atomic was accepted) name that framebuffer
    /// and CRTC. Every plane is in the text report too. Returns the planes by type.
    @discardableResult
    private func assertPlanesMatchKernel(_ p: Probed, file: StaticString = #filePath, line: UInt = #line) throws -> [String: [[String: Any]]] {
        let state = try XCTUnwrap(p.state, "no /sys/kernel/debug/dri/0/state in the guest", file: file, line: line)
        let planes = Self.planes(p.card)
        XCTAssertFalse(state.planes.isEmpty, "the state file lists no planes", file: file, line: line)
        XCTAssertEqual(planes.compactMap { $0["id"] as? Int }, state.planes.map(\.id), "\(state.planes)", file: file, line: line)
        // The kernel writes the state file only for atomic drivers: probe must have been let in.
        XCTAssertEqual(p.card["atomic"] as? Bool, true, file: file, line: line)
        XCTAssertTrue(p.text.contains("  atomic: yes\n"), p.text, file: file, line: line)
        XCTAssertGreaterThan(p.card["cursorWidth"] as? Int ?? 0, 0, "\(p.card)", file: file, line: line)
        XCTAssertGreaterThan(p.card["cursorHeight"] as? Int ?? 0, 0, "\(p.card)", file: file, line: line)

        let shown = state.planes.filter { $0.framebuffer != 0 && $0.crtc != nil }
        XCTAssertEqual(shown.count, 1, "one plane shows the console: \(state.planes)", file: file, line: line)
        if let console = shown.first, let plane = planes.first(where: { $0["id"] as? Int == console.id }) {
            XCTAssertEqual(plane["type"] as? String, "primary", "\(plane)", file: file, line: line)
            let formats = plane["formats"] as? [String] ?? []
            let kernelFormat = console.format == "XR24" ? "xrgb8888" : console.format == "RG16" ? "rgb565" : console.format
            XCTAssertTrue(kernelFormat.map(formats.contains) ?? false, "\(console) \(formats)", file: file, line: line)
            XCTAssertEqual(Self.property(plane, "FB_ID")?["value"] as? String, String(console.framebuffer), "\(plane)", file: file, line: line)
            XCTAssertEqual(Self.property(plane, "CRTC_ID")?["value"] as? String, console.crtc.flatMap { state.crtcIDs[$0] }.map(String.init),
                           "\(plane) \(state.crtcIDs)", file: file, line: line)
            XCTAssertEqual(Self.property(plane, "FB_ID")?["atomic"] as? Bool, true, file: file, line: line)
            XCTAssertEqual(plane["crtcs"] as? [Int], state.crtcIDs.values.sorted(), "one CRTC, and the plane can serve it", file: file, line: line)
        }
        var byType: [String: [[String: Any]]] = [:]
        for plane in planes {
            let type = plane["type"] as? String ?? "none"
            byType[type, default: []].append(plane)
            let typeProperty = Self.property(plane, "type")
            XCTAssertEqual(typeProperty?["immutable"] as? Bool, true, "\(plane)", file: file, line: line)
            XCTAssertEqual((typeProperty?["value"] as? String)?.lowercased(), type, "\(plane)", file: file, line: line)
            let id = plane["id"] as? Int ?? -1
            XCTAssertTrue(p.text.contains("  plane \(id): \(type), crtc "), "plane \(id) in the text: \(p.text)", file: file, line: line)
        }
        return byType
    }

    /// What the service would drive, from the configuration: its file, its drop-ins and --set,
    /// by the rules the output opens a card with; a connector that is not there is found here,
    /// and `show` opens the display the configuration names.
    private func checkServiceChoice(_ vm: QEMUMachine) throws {
        let plain = try vm.run("pulsedot probe")
        XCTAssertTrue(plain.output.hasSuffix("\n\n" + "service (the defaults): /dev/dri/card0 (bochs-drm) connector Virtual-1, mode 1280x800@75, rotation 0 (default), format xrgb8888, update auto, auto composition"), plain.output)
        _ = try vm.run("mkdir -p /tmp/c.conf.d; printf '[display]\\nconnector = Virtual-1\\nmode = 800x600\\n' > /tmp/c.conf; printf '[display]\\nrotation = 90\\n' > /tmp/c.conf.d/10-panel.conf")
        let configured = try vm.run("pulsedot probe --config /tmp/c.conf --set display.format=rgb565 --json")
        XCTAssertEqual(configured.status, 0, configured.output)
        let json = try? JSONSerialization.jsonObject(with: Data(configured.output.utf8)) as? [String: Any]
        let service = json?["service"] as? [String: Any] ?? [:]
        XCTAssertEqual(service["source"] as? String, "/tmp/c.conf and 1 drop-in, 1 --set", configured.output)
        XCTAssertEqual(service["connector"] as? String, "Virtual-1", configured.output)
        XCTAssertEqual(service["mode"] as? String, "800x600@60", configured.output)
        XCTAssertEqual(service["rotation"] as? Int, 90, configured.output)
        XCTAssertEqual(service["format"] as? String, "rgb565", configured.output)
        let wrong = try vm.run("pulsedot probe --config /tmp/c.conf --set display.connector=HDMI-A-7 >/dev/null")
        XCTAssertEqual(wrong.status, 1, wrong.output)
        XCTAssertTrue(wrong.output.contains("pulsedot: probe: the service would not find its display: ") && wrong.output.contains("HDMI-A-7")
                      && wrong.output.contains("Virtual-1"), wrong.output)
        let show = try vm.run("pulsedot show --config /tmp/c.conf --set display.connector=HDMI-A-7", timeout: 30)
        XCTAssertEqual(show.status, 2, show.output)
        XCTAssertTrue(show.output.contains("HDMI-A-7"), show.output)
    }

    func testBochsHasNoDirtyFBAndAPreferredMode() throws {
        let p = try probe(.bochs, alsoIn: checkServiceChoice)
        let card = p.card
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
        // A simple display pipe: its one plane is the primary one.
        let byType = try assertPlanesMatchKernel(p)
        XCTAssertEqual(byType.mapValues(\.count), ["primary": 1], "\(Self.planes(card))")
    }

    func testVirtioGPUTakesDirtyFB() throws {
        let p = try probe(.virtioGPU)
        XCTAssertEqual(p.card["driver"] as? String, "virtio_gpu")
        XCTAssertEqual(p.card["dirtyFB"] as? String, "yes")
        // The host draws virtio-gpu's cursor: its plane is there, off, beside the primary one.
        let byType = try assertPlanesMatchKernel(p)
        XCTAssertEqual(byType.mapValues(\.count), ["primary": 1, "cursor": 1], "\(Self.planes(p.card))")
        let cursor = try XCTUnwrap(byType["cursor"]?.first)
        XCTAssertEqual(p.state?.planes.first { $0.id == cursor["id"] as? Int }?.crtc, nil, "the cursor plane is off")
        XCTAssertEqual(Self.property(cursor, "FB_ID")?["value"] as? String, "0", "\(cursor)")
    }

    func testCirrusOffersRGB565() throws {
        let p = try probe(.cirrus)
        XCTAssertEqual(p.card["driver"] as? String, "cirrus")
        let planes = p.card["primaryPlanes"] as? [[String: Any]] ?? []
        XCTAssertTrue(planes.contains { ($0["formats"] as? [String] ?? []).contains("rgb565") }, "\(planes)")
        try assertPlanesMatchKernel(p)
    }
}
