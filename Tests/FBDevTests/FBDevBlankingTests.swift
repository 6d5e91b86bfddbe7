import DisplayCore
import FBDev
import Glibc
import Raster
import XCTest

/// Night blanking on a framebuffer: FBIOBLANK, and black where the driver refuses it.
final class FBDevBlankingTests: XCTestCase {
    func testFBIOBLANKPowersDownAndUp() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60)
        let output = try Scene.make(fb)
        Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(1))
        try output.start()
        XCTAssertEqual(try output.blank(), .poweredDown)
        XCTAssertTrue(fb.blanked)
        Scene.assertPanelShowsCanvas(fb, output, "the memory is left alone")
        try output.unblank()
        XCTAssertFalse(fb.blanked)
        XCTAssertEqual(fb.log.suffix(2), ["blank powerdown", "blank unblank"])
    }

    /// efifb and simplefb refuse FBIOBLANK: every screen goes black, and the whole frame comes back.
    func testARefusedBlankPaintsEveryScreenBlack() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60)
        fb.blankErrno = EINVAL
        let output = try Scene.make(fb)
        Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(1))
        try output.start()
        guard case .black(let reason) = try output.blank() else { return XCTFail("expected black") }
        XCTAssertEqual(reason, "/dev/fb0 (memfb): FBIOBLANK refused (Invalid argument); the screen shows black instead")
        for y in stride(from: 0, to: 60, by: 7) { for x in stride(from: 0, to: 40, by: 5) { XCTAssertEqual(fb.raw(x, y), 0, "(\(x), \(y))") } }
        XCTAssertTrue(fb.paddingUntouched)
        try output.unblank()
        XCTAssertEqual(fb.log.filter { $0.hasPrefix("blank") }, ["blank powerdown"], "nothing to undo but the black")
        try output.present(damage: output.canvas.bounds)
        Scene.assertPanelShowsCanvas(fb, output, "the frame after the night")
        try output.present(damage: Rect(x: 1, y: 1, width: 2, height: 2))
        Scene.assertPanelShowsCanvas(fb, output, "and on the other screen too")
    }
}
