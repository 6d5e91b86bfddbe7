import DisplayCore
import FBDev
import Glibc
import Raster
import XCTest

/// Opening, the canvas, configuration notes, and errors as one line naming the device.
final class LifecycleTests: XCTestCase {
    func testAFramebufferThatIsNotOneIsSaidSo() {
        let fb = MemoryFramebuffer.make()
        fb.failures["variableInfo"] = [ENOTTY]
        XCTAssertThrowsError(try Scene.make(fb)) { error in
            XCTAssertEqual("\(error)", "/dev/fb0 is not a framebuffer device (variableInfo: Inappropriate ioctl for device)")
            XCTAssertEqual((error as? FBDevError)?.recovery, .giveUp)
        }
    }

    func testOpenClosesTheDeviceWhenItCannotBeDriven() {
        let fb = MemoryFramebuffer.make()
        fb.variable.bitsPerPixel = 24
        XCTAssertThrowsError(try FramebufferDiscovery.open(FBDevConfiguration(device: "/dev/fb0"), opener: { _ in fb }))
        XCTAssertTrue(fb.closed)
    }

    func testAMissingDeviceIsWaitedFor() {
        XCTAssertThrowsError(try FramebufferDiscovery.open(FBDevConfiguration(device: "/nonexistent/fb7"))) { error in
            XCTAssertEqual((error as? FBDevError)?.recovery, .retry)
            XCTAssertEqual("\(error)", "no framebuffer at /nonexistent/fb7 (No such file or directory): is an fbdev driver loaded? (`pulsedot probe` lists what is there); waiting for it")
        }
    }

    func testANonFramebufferDeviceIsRefused() {
        XCTAssertThrowsError(try FramebufferDiscovery.open(FBDevConfiguration(device: "/dev/null"))) { error in
            XCTAssertEqual("\(error)", "/dev/null is not a framebuffer device (ioctl FBIOGET_VSCREENINFO: Inappropriate ioctl for device)")
        }
    }

    func testTheDeviceDefaultsToFb0() {
        XCTAssertEqual(FBDevConfiguration().device, "/dev/fb0")
        XCTAssertEqual(FBDevConfiguration(device: "/dev/fb1").device, "/dev/fb1")
    }

    func testTheCanvasIsTheTurnedPanel() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        var lines: [String] = []
        let output = try Scene.make(fb, FBDevConfiguration(rotation: .r90)) { lines.append($0) }
        XCTAssertEqual(output.canvasWidth, 30)
        XCTAssertEqual(output.canvasHeight, 40)
        XCTAssertEqual(output.canvas.width, 30)
        XCTAssertEqual(lines, ["/dev/fb0 (memfb): 40x30 XRGB8888, line length 160, virtual 40x30; rotation 90 (configured); canvas 30x40"])
        XCTAssertNil(output.pollDescriptor)
    }

    func testAnAdoptedFrameIsTheCanvas() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        let output = try Scene.make(fb)
        let frame = OwnedPixelBuffer(width: 40, height: 30, format: .xrgb8888)
        output.adopt(canvas: frame.buffer)
        XCTAssertEqual(output.canvas.base, frame.buffer.base)
        Scene.fill(frame.buffer, frame.buffer.bounds, Scene.pattern(6))
        try output.start()
        Scene.assertPanelShowsCanvas(fb, output, "adopted frame")
    }

    func testAFormatOrModeTheFramebufferDoesNotHaveIsSaidNotSet() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        var lines: [String] = []
        _ = try Scene.make(fb, FBDevConfiguration(format: .rgb565, mode: (1024, 768))) { lines.append($0) }
        XCTAssertEqual(Array(lines.prefix(2)), [
            "/dev/fb0 (memfb): format = rgb565, but the framebuffer is XRGB8888 (its depth is the kernel's: fbset or the video= option); writing XRGB8888",
            "/dev/fb0 (memfb): mode = 1024x768, but the framebuffer is 40x30 (set by the kernel: the video= option); using 40x30",
        ])
    }

    func testADeviceThatVanishesMidFrameIsRetried() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60)
        let output = try Scene.make(fb)
        try output.start()
        fb.failures["pan"] = [ENODEV]
        XCTAssertThrowsError(try output.present(damage: Rect(x: 0, y: 0, width: 1, height: 1))) { error in
            XCTAssertEqual((error as? DisplayFailure)?.recovery, .retry)
        }
    }

    func testListsFramebufferNodesInNumberOrder() throws {
        let dir = "/tmp/pulsedot-fbdev-\(getpid())"
        mkdir(dir, 0o755)
        defer { for n in ["fb0", "fb2", "fb10", "fbx", "tty1"] { unlink(dir + "/" + n) }; rmdir(dir) }
        for n in ["fb10", "fb2", "fb0", "fbx", "tty1"] { close(open(dir + "/" + n, O_CREAT | O_WRONLY, 0o644)) }
        XCTAssertEqual(FramebufferDiscovery.paths(in: dir), [dir + "/fb0", dir + "/fb2", dir + "/fb10"])
        XCTAssertEqual(FramebufferDiscovery.paths(in: dir + "/missing"), [], "a missing directory has no framebuffers")
        XCTAssertEqual(FramebufferDiscovery.paths(in: dir + "/tty1"), [], "nor has a file")
    }
}
