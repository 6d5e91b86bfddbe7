import DisplayCore
import FBDev
import Glibc
import Raster
import XCTest

/// One visible screen updated in place: only the damage is copied (turned and converted), and
/// FBIO_WAITFORVSYNC paces where the driver has it.
final class InPlaceTests: XCTestCase {
    private func started(_ layout: FramebufferLayout = .xrgb8888, rotation: Rotation = .r0,
                         vsync: Bool = false) throws -> (MemoryFramebuffer, FBDevOutput, [String]) {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, layout: layout)
        if vsync { fb.vsyncErrno = 0 }
        var lines: [String] = []
        let output = try Scene.make(fb, FBDevConfiguration(rotation: rotation)) { lines.append($0) }
        Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(0))
        try output.start()
        return (fb, output, lines)
    }

    func testOnlyTheDamageReachesTheFramebuffer() throws {
        for layout in [FramebufferLayout.xrgb8888, .rgb565, .xbgr8888] {
            for rotation in [Rotation.r0, .r90] {
                let (fb, output, _) = try started(layout, rotation: rotation)
                XCTAssertEqual(output.strategy, .damage)
                // The whole canvas changes, but only `rect` is said to: nothing else may be written.
                Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(1))
                let rect = Rect(x: 4, y: 6, width: 9, height: 5)
                try output.present(damage: rect)
                var wrong = 0
                for y in 0..<output.canvasHeight {
                    for x in 0..<output.canvasWidth {
                        let (px, py) = Scene.physical(rotation, x: x, y: y, panelWidth: 40, panelHeight: 30)
                        let frame = rect.contains(x: x, y: y) ? 1 : 0
                        let want = Scene.expected(layout, Scene.pattern(frame)(x, y))
                        if fb.panel(px, py) != want { wrong += 1 }
                    }
                }
                XCTAssertEqual(wrong, 0, "\(layout) at \(rotation.degrees)")
                XCTAssertEqual(output.statistics.pixelsCopied, rect.area)
            }
        }
    }

    func testDamageIsClippedToTheCanvas() throws {
        let (fb, output, _) = try started()
        Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(2))
        try output.present(damage: Rect(x: 30, y: 20, width: 50, height: 50))
        XCTAssertEqual(output.statistics.pixelsCopied, 10 * 10)
        XCTAssertTrue(fb.paddingUntouched)
    }

    func testEmptyDamageWritesNothingAndDoesNotWait() throws {
        let (fb, output, _) = try started(vsync: true)
        let before = fb.vsyncWaits
        try output.present(damage: .empty)
        XCTAssertEqual(fb.vsyncWaits, before)
        XCTAssertEqual(output.statistics.pixelsCopied, 0)
    }

    func testWithoutVSyncTheTimerPaces() throws {
        let (_, output, lines) = try started()
        XCTAssertEqual(output.pacing, .timer)
        XCTAssertEqual(lines.last, "/dev/fb0 (memfb): damage in place: the virtual screen (40x30) has no room for a second 40x30 screen; no FBIO_WAITFORVSYNC (Inappropriate ioctl for device): the frame timer paces")
    }

    func testWithVSyncEachInPlaceFrameWaitsBeforeCopying() throws {
        let (fb, output, lines) = try started(vsync: true)
        XCTAssertEqual(output.pacing, .vsync)
        XCTAssertTrue(lines.last?.hasSuffix("; paced by FBIO_WAITFORVSYNC") ?? false, "\(lines)")
        for frame in 1...3 {
            Scene.fill(output.canvas, Rect(x: frame, y: frame, width: 4, height: 4), Scene.pattern(frame))
            try output.present(damage: Rect(x: frame, y: frame, width: 4, height: 4))
            // Nothing is written until the vblank has come.
            XCTAssertEqual(output.statistics.pixelsCopied, (frame - 1) * 16)
            try Scene.settle(output)
            XCTAssertEqual(output.statistics.pixelsCopied, frame * 16)
        }
        XCTAssertEqual(fb.vsyncWaits, 7, "four at start (asking), one per frame")
        XCTAssertEqual(output.vsyncWaits, 7)
        Scene.assertPanelShowsCanvas(fb, output, "after three frames")
    }

    func testWithVSyncAFlipWaitsAfterThePan() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60)
        fb.vsyncErrno = 0
        let output = try Scene.make(fb)
        try output.start()
        try output.present(damage: Rect(x: 0, y: 0, width: 3, height: 3))
        XCTAssertEqual(output.presentation.presented, 0, "the pan is shown at the next vblank")
        try Scene.settle(output)
        XCTAssertEqual(fb.log, ["map 9600", "pan 0,30", "vsync", "vsync", "vsync", "vsync", "pan 0,0", "vsync"])
        XCTAssertEqual(output.presentation.presented, 1)
    }

    /// A frame handed over while the last pan's vblank is awaited waits; the display is settled
    /// (what a still frame waits for) only once that frame's own pan has been shown too.
    func testAFrameDeferredBehindAVBlankIsSettledOnlyOnceItsOwnPanIsShown() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60)
        fb.vsyncErrno = 0
        let output = try Scene.make(fb)
        Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(0))
        try output.start()
        XCTAssertTrue(output.isSettled)
        Scene.fill(output.canvas, Rect(x: 1, y: 1, width: 5, height: 5), Scene.pattern(1))
        try output.present(damage: Rect(x: 1, y: 1, width: 5, height: 5))
        XCTAssertFalse(output.isSettled, "the pan waits for its vblank")
        Scene.fill(output.canvas, Rect(x: 20, y: 10, width: 6, height: 6), Scene.pattern(2))
        try output.present(damage: Rect(x: 20, y: 10, width: 6, height: 6))
        XCTAssertEqual(output.statistics.deferred, 1)
        try Scene.settle(output)
        XCTAssertFalse(output.isSettled, "the second frame has not been panned to")
        try output.present(damage: .empty)
        XCTAssertFalse(output.isSettled, "its pan waits for its vblank")
        try Scene.settle(output)
        XCTAssertTrue(output.isSettled)
        Scene.assertPanelShowsCanvas(fb, output, "after the deferred frame")
    }

    func testAVSyncThatReturnsAtOnceDoesNotPace() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        fb.vsyncErrno = 0
        fb.vsyncPeriod = 0
        var lines: [String] = []
        let output = try Scene.make(fb) { lines.append($0) }
        try output.start()
        XCTAssertEqual(output.pacing, .timer)
        XCTAssertTrue(lines.last?.hasSuffix("; FBIO_WAITFORVSYNC returns at once (no vblank interrupt): the frame timer paces") ?? false, "\(lines)")
        try output.present(damage: Rect(x: 0, y: 0, width: 2, height: 2))
        XCTAssertEqual(fb.vsyncWaits, 4, "no wait per frame")
    }

    func testAVSyncThatStopsWorkingFallsBackToTheTimerOnce() throws {
        let (fb, output, _) = try started(vsync: true)
        fb.failures["waitForVSync"] = [EIO]
        try output.present(damage: Rect(x: 0, y: 0, width: 2, height: 2))
        try Scene.settle(output)
        XCTAssertEqual(output.pacing, .timer)
        try output.present(damage: Rect(x: 0, y: 0, width: 2, height: 2))
        XCTAssertEqual(fb.vsyncWaits, 4, "only the waits at start succeeded; none tried after the failure")
        Scene.assertPanelShowsCanvas(fb, output, "after the fallback")
    }
}

/// A routed copy-out carries the damage into an RGB565 framebuffer in its own layout, in place
/// and by panning; a layout the canvas cannot narrow to (BGR) is converted here as before.
final class FBDevCopyRouteTests: XCTestCase {
    func testNativeLayoutsCopyThroughTheRouteAndOthersConvertHere() throws {
        for (layout, virtualHeight, routed) in [(FramebufferLayout.rgb565, 30, true), (.rgb565, 60, true), (.xbgr8888, 30, false)] {
            let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: virtualHeight, layout: layout)
            let output = try Scene.make(fb)
            var copies = 0
            let canvas = output.canvas
            output.route(copyOut: CanvasCopier { region, target, rotation in
                copies += 1
                return canvas.copyOut(region: region, to: target, rotation: rotation)
            })
            Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(0))
            try output.start()
            for frame in 1...3 {
                let square = Rect(x: frame * 5, y: frame * 3, width: 6, height: 4)
                Scene.fill(output.canvas, square, Scene.pattern(frame))
                try output.present(damage: square)
            }
            Scene.assertPanelShowsCanvas(fb, output, "\(layout) virtual height \(virtualHeight)")
            XCTAssertEqual(copies, routed ? 3 : 0, "\(layout) virtual height \(virtualHeight)")
        }
    }
}
