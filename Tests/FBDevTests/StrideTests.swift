import FBDev
import Raster
import XCTest

/// Rows are `line_length` bytes apart, not width × bytes per pixel; the visible screen starts at
/// the driver's pan offset; numbers that do not add up are refused before anything is mapped.
final class StrideTests: XCTestCase {
    func testPaddedRowsAreWrittenAtTheDriversLineLength() throws {
        for layout in [FramebufferLayout.xrgb8888, .rgb565] {
            // 40 pixels in a 65-pixel line: a driver aligning rows, to an odd pixel count at that.
            let fb = MemoryFramebuffer.make(width: 40, height: 30, layout: layout, padding: 25 * layout.bytesPerPixel)
            let output = try Scene.make(fb)
            Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(1))
            try output.start()
            Scene.assertPanelShowsCanvas(fb, output, "\(layout) with padded rows")
            XCTAssertTrue(fb.paddingUntouched, "\(layout): row padding written")
        }
    }

    func testInPlaceWritesTheScreenAtThePanOffsetItFound() throws {
        // A console scrolled by panning: the visible screen starts at line 30 of a 90-line virtual
        // screen, and the driver cannot pan (so PulseDot must draw where the panel looks).
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 90, ypanstep: 0, yoffset: 30)
        let output = try Scene.make(fb)
        XCTAssertEqual(output.strategy, .damage)
        Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(2))
        try output.start()
        Scene.assertPanelShowsCanvas(fb, output, "screen at yoffset 30")
        XCTAssertEqual(fb.raw(0, 0), 0xA5A5_A5A5, "the screen above the visible one was written")
        XCTAssertEqual(fb.raw(0, 60), 0xA5A5_A5A5, "the screen below the visible one was written")
        XCTAssertFalse(fb.log.contains { $0.hasPrefix("pan") })
    }

    func testALineLengthShorterThanARowIsRefused() {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        fb.fixed.lineLength = 100
        XCTAssertThrowsError(try Scene.make(fb)) { error in
            XCTAssertEqual("\(error)", "/dev/fb0 (memfb): the driver's screen information does not add up: a line length of 100 bytes is short of 40 pixels of 4 bytes")
        }
    }

    func testALineLengthSplittingAPixelIsRefused() {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        fb.fixed.lineLength = 162
        XCTAssertThrowsError(try Scene.make(fb)) { error in
            XCTAssertEqual("\(error)", "/dev/fb0 (memfb): the driver's screen information does not add up: a line length of 162 bytes is not a whole number of 4-byte pixels")
        }
    }

    func testMemoryShorterThanTheScreenIsRefused() {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        fb.fixed.memoryLength = 160 * 29
        XCTAssertThrowsError(try Scene.make(fb)) { error in
            XCTAssertEqual("\(error)", "/dev/fb0 (memfb): the driver's screen information does not add up: 4640 bytes of memory hold fewer than 30 lines of 160 bytes")
        }
    }

    func testVirtualHeightWithoutTheMemoryForItDoesNotFlip() throws {
        // Some drivers report a tall virtual screen but less memory than two screens need.
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60)
        fb.fixed.memoryLength = 160 * 45
        var lines: [String] = []
        let output = try Scene.make(fb) { lines.append($0) }
        XCTAssertEqual(output.strategy, .damage)
        try output.start()
        XCTAssertTrue(lines.last?.hasSuffix("damage in place: 7200 bytes of memory do not hold two screens; no FBIO_WAITFORVSYNC (Inappropriate ioctl for device): the frame timer paces") ?? false, "\(lines)")
    }

    func testTheMappingIsTheDriversMemoryLength() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60)
        _ = try Scene.make(fb)
        XCTAssertEqual(fb.mappedLength, 40 * 4 * 60)
    }
}
