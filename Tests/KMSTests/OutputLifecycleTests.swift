import DisplayCore
import Glibc
import KMS
import Raster
import Syscall
import XCTest

/// Saving and restoring the CRTC, releasing everything, and the errors a person must understand.
final class OutputLifecycleTests: XCTestCase {
    func testCloseRestoresTheSavedCrtcBeforeFreeingAndOnlyOnce() throws {
        let card = FakeCard.simple()
        let output = try Scene.make(card)
        try output.start()
        XCTAssertEqual(card.log.filter { $0.hasPrefix("saveCrtc") }, ["saveCrtc 10"])
        let save = card.log.firstIndex(of: "saveCrtc 10")!
        let modeset = card.log.firstIndex { $0.hasPrefix("setCrtc") }!
        XCTAssertLessThan(save, modeset, "the CRTC is saved before the first modeset")
        output.close()
        output.close()
        XCTAssertEqual(card.restored?.framebuffer, card.consoleFramebuffer)
        let restore = card.log.firstIndex { $0.hasPrefix("restoreCrtc") }!
        let firstFree = card.log.firstIndex { $0.hasPrefix("destroyBuffer") }!
        XCTAssertLessThan(restore, firstFree, "the console comes back before our framebuffers go")
        XCTAssertTrue(card.buffers.isEmpty)
        XCTAssertEqual(card.log.filter { $0 == "close" }.count, 1)
        XCTAssertEqual(card.log.filter { $0.hasPrefix("restoreCrtc") }.count, 1)
    }

    func testCloseBeforeStartTouchesNoCrtc() throws {
        let card = FakeCard.simple()
        let output = try Scene.make(card)
        output.close()
        XCTAssertNil(card.restored)
        XCTAssertTrue(card.buffers.isEmpty)
    }

    func testAnotherMasterIsReportedAsBusyAndRetried() throws {
        let card = FakeCard.simple()
        card.failures["setCrtc"] = [EACCES]
        let output = try Scene.make(card)
        XCTAssertThrowsError(try output.start()) { error in
            let e = error as! DisplayFailure
            XCTAssertEqual(e.recovery, .retry)
            XCTAssertEqual("\(e)", "/dev/dri/card0 is in use by another DRM master (setCrtc: Permission denied); stop the other display program or switch VT; retrying")
        }
        output.close()
        XCTAssertTrue(card.buffers.isEmpty)
    }

    func testARefusedOpenIsAPermissionProblemNotAnotherMaster() {
        let e = KMSError.classify(SyscallError(call: "open", object: "/dev/dri/card0", errno: EPERM), device: "/dev/dri/card0")
        XCTAssertEqual(e.recovery, .retry)
        XCTAssertEqual("\(e)", "/dev/dri/card0 may not be opened by this process (open: Operation not permitted); check its group (video) and the unit's DeviceAllow=; retrying")
    }

    func testAVanishedDeviceSendsTheCallerToFindTheCardAgain() throws {
        let card = FakeCard.simple()
        let output = try Scene.make(card, KMSConfiguration(update: .flip))
        try output.start()
        card.failures["pageFlip"] = [ENODEV]
        XCTAssertThrowsError(try output.present(damage: Rect(x: 0, y: 0, width: 2, height: 2))) { error in
            let e = error as! DisplayFailure
            XCTAssertEqual(e.recovery, .findDeviceAgain)
            XCTAssertEqual("\(e)", "/dev/dri/card0 went away (pageFlip: No such device); looking for the card again")
        }
    }

    func testNoDumbBuffersIsRefused() {
        let card = FakeCard.simple()
        card.caps = CardCapabilities(dumbBuffers: false, preferShadow: false)
        XCTAssertThrowsError(try Scene.make(card)) { error in
            XCTAssertEqual("\(error)", "/dev/dri/card0 (fake): the driver offers no dumb buffers; use another device (`pulsedot probe`) or output = fbdev")
        }
    }

    func testPanelOrientationTurnsTheCanvas() throws {
        let card = FakeCard.simple(orientation: .rightSideUp)
        var lines: [String] = []
        let output = try Scene.make(card) { lines.append($0) }
        XCTAssertEqual(output.rotation, .r90)
        XCTAssertEqual(output.canvas.width, 48)
        XCTAssertEqual(output.canvas.height, 64)
        XCTAssertEqual(lines.first, "/dev/dri/card0 (fake) Virtual-1: 64x48@60 xrgb8888 on CRTC 10, rotation 90 (panel orientation \"Right Side Up\"); canvas 48x64")
        let configured = try Scene.make(FakeCard.simple(orientation: .rightSideUp), KMSConfiguration(rotation: .r180))
        XCTAssertEqual(configured.rotation, .r180)
        XCTAssertEqual(configured.canvas.width, 64)
    }

    func testFormatFallbackIsSaidOnceAndUsed() throws {
        var lines: [String] = []
        let card = FakeCard.simple(formats: [FourCC.xrgb8888])
        let output = try Scene.make(card, KMSConfiguration(format: .rgb565)) { lines.append($0) }
        XCTAssertEqual(output.format, .xrgb8888)
        XCTAssertEqual(lines.filter { $0.contains("does not offer") },
                       ["/dev/dri/card0 (fake): the primary plane does not offer rgb565 (it offers xrgb8888); using xrgb8888"])
        XCTAssertTrue(card.log.contains("createBuffer 64x48 xrgb8888"))
    }
}

final class AdoptedCanvasTests: XCTestCase {
    /// A renderer that owns its canvas hands it over: the output copies from it, not from a
    /// frame of its own.
    func testAnAdoptedFrameIsWhatReachesThePanel() throws {
        let card = FakeCard.simple(orientation: .upsideDown)
        let output = try Scene.make(card)
        let frame = OwnedPixelBuffer(width: output.canvasWidth, height: output.canvasHeight, format: .xrgb8888)
        Scene.fill(frame.buffer, frame.buffer.bounds, Scene.pattern(3))
        output.adopt(canvas: frame.buffer)
        XCTAssertEqual(output.canvas.base, frame.buffer.base)
        try output.start()
        Scene.assertPanelShowsCanvas(card, output, "adopted frame at 180°")
        Scene.fill(frame.buffer, Rect(x: 4, y: 4, width: 9, height: 9), Scene.pattern(4))
        try output.present(damage: Rect(x: 4, y: 4, width: 9, height: 9))
        try output.handleEvents()
        Scene.assertPanelShowsCanvas(card, output, "adopted frame, next frame")
        output.close()
    }
}
