import Foundation
import LocationDot
import TestSupport
import XCTest

/// vkms without overlays (its primary and cursor planes only): the dot goes on the cursor plane,
/// in buffers of the size DRM_CAP_CURSOR_WIDTH/HEIGHT give (512×512 on vkms), shown whole, and
/// the writeback capture is the software model of that composition on every pixel; a dot larger
/// than the cursor (the halo at scale 5, nearly grown) is painted into the map, and the capture is then
/// `pulsedot render`'s frame exactly, the cursor plane empty.
extension KMSPlanesTests {
    func testTheDotOnTheCursorPlaneWhereThereIsNoOverlay() throws {
        let vm = try QEMUMachine.boot(display: .vkmsWithoutOverlays)
        defer { vm.shutdown() }
        XCTAssertEqual(try vm.run("cat /sys/module/vkms/parameters/enable_overlay").output.trimmingCharacters(in: .whitespacesAndNewlines), "N")

        let pid = try vm.spawn("pulsedot show --set display.composition=planes --set delayBetweenPulseCycles=inf --scale 1 --at 1.2 --screenshot /tmp/cursor.png")
        let said = try vm.waitForOutput(pid, containing: "still frame at clock 1.2 s", timeout: 90)
        XCTAssertTrue(said.contains("the dot on cursor plane"), said)
        XCTAssertTrue(said.contains("(512x512)"), said)
        let shown = try planes(vm)
        XCTAssertFalse(shown.contains { $0.type == "overlay" }, "no overlays: \(shown.map(\.type))")
        let cursor = try XCTUnwrap(shown.first { $0.type == "cursor" })
        XCTAssertNotEqual(cursor.int("FB_ID"), 0, "the dot on the cursor plane")
        XCTAssertEqual([cursor.int("CRTC_W"), cursor.int("CRTC_H")], [512, 512], "shown whole: \(cursor.values)")
        XCTAssertEqual(try vm.stop(pid), 0)
        let captured = try guestPNG(vm, "/tmp/cursor.png")
        var style = DotStyle()
        style.delayBetweenPulseCycles = .infinity
        let render = try HeadlessRender.frame(at: 1.2, width: 1024, height: 768, scale: 1, extra: ["--set", "delayBetweenPulseCycles=inf"])
        let model = try softwareComposition(t: 1.2, x: 512, y: 384, scale: 1, background: render.pixel(0, 0), style: style)
        XCTAssertEqual(differing(captured, model), 0, "the capture is the software model of the composition")
        XCTAssertLessThanOrEqual(captured.maxDifference(around: 512, 384, side: 1024, against: render, around: 512, 384).difference, 2)

        // The halo at scale 5, 1.7 s into its cycle (558 px across on screen), does not fit the
        // cursor: the dot goes into the map.
        let halo = try vm.spawn("pulsedot show --set display.composition=planes --scale 5 --at 1.7 --screenshot /tmp/halo.png")
        try vm.waitForOutput(halo, containing: "still frame at clock 1.7 s", timeout: 90)
        let withHalo = try planes(vm)
        XCTAssertEqual(withHalo.first { $0.type == "cursor" }?.int("FB_ID"), 0, "the cursor plane empty")
        XCTAssertEqual(try vm.stop(halo), 0)
        let haloRender = try HeadlessRender.frame(at: 1.7, width: 1024, height: 768, scale: 5)
        XCTAssertEqual(differing(try guestPNG(vm, "/tmp/halo.png"), haloRender), 0, "painted into the map: the render's frame exactly")
        for p in try planes(vm) { XCTAssertEqual(p.int("FB_ID"), 0, "after exit: plane \(p.id) \(p.values)") }
    }

    private func differing(_ a: ScreenImage, _ b: ScreenImage) -> Int {
        var n = 0
        for y in 0..<min(a.height, b.height) { for x in 0..<min(a.width, b.width) where a.pixel(x, y) != b.pixel(x, y) { n += 1 } }
        return n + abs(a.width * a.height - b.width * b.height)
    }
}
