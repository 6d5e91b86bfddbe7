import DisplayCore
import FBDev
import Glibc
import Raster
import XCTest

/// Double buffering by FBIOPAN_DISPLAY when the virtual screen holds two screens: the back screen
/// gets this and the previous frame's damage, then a pan shows it.
final class PanningTests: XCTestCase {
    private func flipping(virtualHeight: Int = 60, yoffset: Int = 0) throws -> (MemoryFramebuffer, FBDevOutput, [String]) {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: virtualHeight, yoffset: yoffset)
        var lines: [String] = []
        let output = try Scene.make(fb) { lines.append($0) }
        Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(0))
        try output.start()
        return (fb, output, lines)
    }

    func testStartFillsBothScreensAndPansToTheSecond() throws {
        let (fb, output, _) = try flipping()
        XCTAssertEqual(output.strategy, .flip)
        XCTAssertEqual(fb.log, ["map 9600", "pan 0,30"])
        XCTAssertEqual(fb.variable.yoffset, 30)
        Scene.assertPanelShowsCanvas(fb, output, "after start")
        // The first screen holds the first frame too: the next frame copies only damage into it.
        try fb.pan(xoffset: 0, yoffset: 0)
        Scene.assertPanelShowsCanvas(fb, output, "the other screen after start")
    }

    func testEachFrameGoesToTheOtherScreen() throws {
        let (fb, output, _) = try flipping()
        for frame in 1...5 {
            Scene.fill(output.canvas, Rect(x: frame * 3, y: frame * 2, width: 8, height: 6), Scene.pattern(frame))
            try output.present(damage: Rect(x: frame * 3, y: frame * 2, width: 8, height: 6))
            XCTAssertEqual(fb.variable.yoffset, output.frontScreen * 30)
            XCTAssertEqual(fb.log.last, "pan 0,\(frame % 2 == 1 ? 0 : 30)")
            Scene.assertPanelShowsCanvas(fb, output, "frame \(frame)")
        }
        XCTAssertEqual(output.statistics.queued, 6)
    }

    /// The halo shrinks: frame 1 paints a large area, frame 2 restores it (its damage is that
    /// area), frame 3 changes a small spot — into the screen that still holds frame 1's halo.
    /// Only the union of two frames' damage clears it.
    func testNoGhostWhenTheBackScreenIsTwoFramesOld() throws {
        let (fb, output, _) = try flipping()
        let halo = Rect(x: 5, y: 5, width: 30, height: 20)
        let spot = Rect(x: 18, y: 13, width: 4, height: 4)
        Scene.fill(output.canvas, halo, { _, _ in 0x00FF_FFFF })
        try output.present(damage: halo)
        Scene.fill(output.canvas, halo, Scene.pattern(0))
        try output.present(damage: halo)
        Scene.fill(output.canvas, spot, { _, _ in 0x0000_7AFF })
        try output.present(damage: spot)
        Scene.assertPanelShowsCanvas(fb, output, "after the halo shrank")
        XCTAssertEqual(output.statistics.pixelsCopied, halo.area + halo.area + halo.area,
                       "frame 3 copies its own spot and frame 2's halo area, which holds it")
    }

    func testOnlyTheDamageOfTwoFramesIsWritten() throws {
        let (fb, output, _) = try flipping()
        // Mark both screens with a value the copy never writes: what remains marked was not written.
        for y in 0..<60 { for x in 0..<40 { (fb.memory + y * 160 + x * 4).storeBytes(of: 0x0102_0304 as UInt32, as: UInt32.self) } }
        let a = Rect(x: 2, y: 2, width: 5, height: 5), b = Rect(x: 20, y: 10, width: 6, height: 3)
        try output.present(damage: a)   // into screen 0
        try output.present(damage: b)   // into screen 1: a and b, not the rectangle holding both
        var written = [0, 0]
        for s in 0..<2 {
            for y in 0..<30 { for x in 0..<40 where fb.raw(x, s * 30 + y) != 0x0102_0304 { written[s] += 1 } }
        }
        XCTAssertEqual(written[0], a.area)
        XCTAssertEqual(written[1], a.area + b.area)
        XCTAssertEqual(output.statistics.pixelsCopied, a.area + a.area + b.area)
    }

    func testEmptyDamageNeitherCopiesNorPans() throws {
        let (fb, output, _) = try flipping()
        try output.present(damage: .empty)
        XCTAssertEqual(fb.log, ["map 9600", "pan 0,30"])
        XCTAssertEqual(output.statistics.presents, 1)
    }

    func testABusyPanKeepsTheDamageForTheNextFrame() throws {
        let (fb, output, _) = try flipping()
        fb.failures["pan"] = [EBUSY]
        let a = Rect(x: 1, y: 1, width: 6, height: 6)
        Scene.fill(output.canvas, a, Scene.pattern(7))
        try output.present(damage: a)
        XCTAssertEqual(output.statistics.busy, 1)
        XCTAssertEqual(output.frontScreen, 1, "still showing the screen from before")
        let b = Rect(x: 30, y: 20, width: 5, height: 5)
        Scene.fill(output.canvas, b, Scene.pattern(8))
        try output.present(damage: b)
        Scene.assertPanelShowsCanvas(fb, output, "after the retried pan")
        // And the screen after that still gets frame a (two frames back from the screen it was in).
        try output.present(damage: .empty)
        Scene.fill(output.canvas, Rect(x: 0, y: 29, width: 1, height: 1), Scene.pattern(9))
        try output.present(damage: Rect(x: 0, y: 29, width: 1, height: 1))
        Scene.assertPanelShowsCanvas(fb, output, "the other screen")
    }

    func testAPanRefusedAtStartFallsBackToInPlace() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60)
        fb.failures["pan"] = [EINVAL]
        var lines: [String] = []
        let output = try Scene.make(fb) { lines.append($0) }
        Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(0))
        try output.start()
        XCTAssertEqual(output.strategy, .damage)
        XCTAssertEqual(lines.last, "/dev/fb0 (memfb): damage in place: FBIOPAN_DISPLAY failed (Invalid argument); no FBIO_WAITFORVSYNC (Inappropriate ioctl for device): the frame timer paces")
        Scene.assertPanelShowsCanvas(fb, output, "in place after a refused pan")
        Scene.fill(output.canvas, Rect(x: 3, y: 3, width: 3, height: 3), Scene.pattern(4))
        try output.present(damage: Rect(x: 3, y: 3, width: 3, height: 3))
        Scene.assertPanelShowsCanvas(fb, output, "a frame in place")
        output.close()
        XCTAssertEqual(fb.log.filter { $0.hasPrefix("pan") }, ["pan 0,30"], "nothing to pan back after a refused pan")
    }

    func testABusyDeviceAtStartIsRetried() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60)
        fb.failures["pan"] = [EBUSY]
        let output = try Scene.make(fb)
        XCTAssertThrowsError(try output.start()) { error in
            XCTAssertEqual((error as? DisplayFailure)?.recovery, .retry)
            XCTAssertTrue("\(error)".hasPrefix("/dev/fb0 (memfb) is held by a DRM master"), "\(error)")
        }
    }

    func testClosePansBackToWhereTheConsoleWas() throws {
        let (fb, output, _) = try flipping(virtualHeight: 90, yoffset: 60)
        try output.present(damage: Rect(x: 0, y: 0, width: 2, height: 2))
        output.close()
        output.close()
        XCTAssertEqual(fb.log.suffix(2), ["pan 0,60", "close"])
        XCTAssertEqual(fb.log.filter { $0 == "close" }.count, 1)
    }

    func testUpdateDamageCopiesInPlaceEvenWhereItCouldPan() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60)
        var lines: [String] = []
        let output = try Scene.make(fb, FBDevConfiguration(update: .damage)) { lines.append($0) }
        try output.start()
        XCTAssertEqual(output.strategy, .damage)
        XCTAssertTrue(lines.last?.contains("damage in place (configured)") ?? false, "\(lines)")
        XCTAssertFalse(fb.log.contains { $0.hasPrefix("pan") })
    }

    func testUpdateFlipWithoutRoomSaysWhyAndCopiesInPlace() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        var lines: [String] = []
        let output = try Scene.make(fb, FBDevConfiguration(update: .flip)) { lines.append($0) }
        XCTAssertEqual(output.strategy, .damage)
        XCTAssertEqual(lines.first, "/dev/fb0 (memfb): update = flip, but the virtual screen (40x30) has no room for a second 40x30 screen; copying in place")
    }
}
