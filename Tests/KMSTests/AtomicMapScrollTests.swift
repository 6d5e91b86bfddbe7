import DisplayCore
import Glibc
import KMS
import Raster
import Syscall
import XCTest

/// The primary plane scrolling over map pictures larger than the 64x48 panel: what each commit
/// sets, that moving the window copies nothing, the pictures in turn, and every way back to the
/// canvas.
final class AtomicMapScrollTests: XCTestCase {
    private var lines: [String] = []

    private func chosen(_ card: FakeAtomicCard) throws -> AtomicKMSOutput {
        let legacy = try KMSOutput(card: card, resources: card.inner.resourcesValue, configuration: KMSConfiguration(),
                                   clock: { card.inner.now })
        switch AtomicKMSOutput.choose(from: legacy, log: { [unowned self] in lines.append($0) }, clock: { card.inner.now }) {
        case .success(let output): return output
        // A refusal fails the test (thrown, with its reason), never skips it.
        case .failure(let refusal): throw refusal
        }
    }

    private let frame = FrameStamp(sinceStart: 0, monotonic: 0)

    /// Map pixel (x, y) of a picture drawn from map origin (ox, oy): its coordinates as colour.
    private static func mapPixel(_ x: Int, _ y: Int) -> UInt32 { UInt32(x & 0xFF) << 16 | UInt32(y & 0xFF) << 8 | 0x55 }

    private func draw(_ picture: PixelBuffer, originX ox: Int, originY oy: Int) {
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                picture.row(y).storeBytes(of: Self.mapPixel(ox + x, oy + y), toByteOffset: x * 4, as: UInt32.self)
            }
        }
    }

    private func assertScreenShowsMap(from vx: Int, _ vy: Int, _ card: FakeAtomicCard, file: StaticString = #filePath, line: UInt = #line) {
        for (x, y) in [(0, 0), (63, 0), (0, 47), (63, 47), (31, 20)] {
            XCTAssertEqual(card.screen(x, y), Self.mapPixel(vx + x, vy + y), "screen (\(x), \(y))", file: file, line: line)
        }
    }

    func testTheWindowMovesWithoutACopyAndTheSparePictureTakesOver() throws {
        let card = FakeAtomicCard.withOverlay()
        let output = try chosen(card)
        let testsBefore = card.commits.count
        let plane = try XCTUnwrap(output.mapScrollPlane(margin: 16))
        XCTAssertEqual([plane.pictureWidth, plane.pictureHeight], [96, 80])
        XCTAssertEqual(card.commits.count, testsBefore + 1)
        XCTAssertEqual(card.commits.last, [.testOnly, .allowModeset])
        XCTAssertEqual(card.lastRequest?.value(of: 20, FakeAtomicCard.id("SRC_X")), 32 << 16, "tested from a window off the corner")
        XCTAssertEqual(card.lastRequest?.value(of: 20, FakeAtomicCard.id("SRC_Y")), 32 << 16)
        XCTAssertEqual(card.inner.buffers.count, 7, "two map copies, three sprites, two pictures")
        XCTAssertTrue(lines.contains("/dev/dri/card0 (fake) Virtual-1: the map scrolls on primary plane 20: two 96x80 xrgb8888 pictures, 70 KiB"), "\(lines)")
        XCTAssertTrue(output.mapScrollPlane(margin: 16) === plane, "made once")

        // The first picture before start: the modeset shows it from its window.
        draw(plane.sparePicture(), originX: 100, originY: 200)
        plane.showSparePicture(windowX: 16, windowY: 16)
        XCTAssertTrue(plane.showsPicture)
        try output.start()
        assertScreenShowsMap(from: 116, 216, card)
        let copied = output.statistics.pixelsCopied

        // Moving the window: one commit of the primary plane's source, nothing copied.
        plane.moveWindow(toX: 20, y: 9)
        XCTAssertFalse(output.isSettled)
        try output.present(damage: Rect(x: 0, y: 0, width: 64, height: 48))
        XCTAssertEqual(card.lastRequest?.objects, [20])
        XCTAssertEqual(card.lastRequest?.value(of: 20, FakeAtomicCard.id("SRC_X")), 20 << 16)
        XCTAssertEqual(card.lastRequest?.value(of: 20, FakeAtomicCard.id("SRC_Y")), 9 << 16)
        try output.handleEvents()
        assertScreenShowsMap(from: 120, 209, card)
        XCTAssertEqual(output.statistics.pixelsCopied, copied, "the canvas is not copied while a picture is shown")
        XCTAssertTrue(output.isSettled, "the canvas's damage waits behind the picture, not for a commit")

        // The other picture, drawn while the first is on screen, then shown.
        let onScreen = try XCTUnwrap(card.value(20, "FB_ID"))
        let spare = plane.sparePicture()
        draw(spare, originX: 130, originY: 200)
        plane.showSparePicture(windowX: 1, windowY: 2)
        try output.present(damage: .empty)
        XCTAssertTrue(output.isCommitPending)
        try output.handleEvents()
        XCTAssertNotEqual(card.value(20, "FB_ID"), onScreen)
        assertScreenShowsMap(from: 131, 202, card)
        XCTAssertNotEqual(plane.sparePicture().base, spare.base, "the picture on screen is never the spare")
        output.close()
        XCTAssertEqual(card.inner.buffers.count, 0, "the pictures freed too")
    }

    func testTheSpareIsNotDrawnWhileTheCommitThatTakesItOffScreenIsInFlight() throws {
        let card = FakeAtomicCard.withOverlay()
        let output = try chosen(card)
        let plane = try XCTUnwrap(output.mapScrollPlane(margin: 16))
        let first = plane.sparePicture()
        draw(first, originX: 0, originY: 0)
        plane.showSparePicture(windowX: 0, windowY: 0)
        try output.start()
        let second = plane.sparePicture()
        XCTAssertNotEqual(second.base, first.base)
        draw(second, originX: 40, originY: 0)
        plane.showSparePicture(windowX: 0, windowY: 0)
        try output.present(damage: .empty)
        XCTAssertTrue(output.isCommitPending, "the switch to the second picture is in flight")
        // Asking for the spare now (the first picture, still scanned out) waits for that commit.
        let again = plane.sparePicture()
        XCTAssertEqual(again.base, first.base)
        XCTAssertFalse(output.isCommitPending, "waited for the switch before handing the first picture out")
        assertScreenShowsMap(from: 40, 0, card)
        output.close()
    }

    func testBackToTheCanvasCopiesItWholeIntoBothBuffersFromTheTopLeft() throws {
        let card = FakeAtomicCard.withOverlay()
        let output = try chosen(card)
        Scene.fill(output.canvas, output.canvas.bounds) { _, _ in Scene.background }
        try output.start()
        let plane = try XCTUnwrap(output.mapScrollPlane(margin: 16), "asked after start too")
        draw(plane.sparePicture(), originX: 0, originY: 0)
        plane.showSparePicture(windowX: 7, windowY: 5)
        try output.present(damage: .empty)
        try output.handleEvents()
        assertScreenShowsMap(from: 7, 5, card)

        plane.showCanvas()
        XCTAssertFalse(plane.showsPicture)
        Scene.fill(output.canvas, Rect(x: 0, y: 0, width: 4, height: 4)) { _, _ in 0x00FF_0000 }
        let copied = output.statistics.pixelsCopied
        try output.present(damage: .empty)
        XCTAssertEqual(output.statistics.pixelsCopied - copied, 64 * 48, "the whole canvas")
        XCTAssertEqual(card.lastRequest?.value(of: 20, FakeAtomicCard.id("SRC_X")), 0)
        XCTAssertEqual(card.lastRequest?.value(of: 20, FakeAtomicCard.id("SRC_Y")), 0)
        try output.handleEvents()
        XCTAssertEqual(card.screen(0, 0), 0x00FF_0000)
        XCTAssertEqual(card.screen(63, 47), Scene.background)
        // The next frame's buffer was behind the picture too: it gets the whole canvas as well.
        try output.present(damage: Rect(x: 10, y: 10, width: 1, height: 1))
        XCTAssertEqual(output.statistics.pixelsCopied - copied, 2 * 64 * 48)
        try output.handleEvents()
        XCTAssertEqual(card.screen(0, 0), 0x00FF_0000)
        output.close()
    }

    /// A started output on a new card showing a first picture, drawn from map (ox, oy), from window (wx, wy).
    private func showingAPicture(originX ox: Int, originY oy: Int, windowX wx: Int, windowY wy: Int) throws
        -> (FakeAtomicCard, AtomicKMSOutput, MapScrollPlane) {
        let card = FakeAtomicCard.withOverlay()
        let output = try chosen(card)
        try output.start()
        let plane = try XCTUnwrap(output.mapScrollPlane(margin: 16))
        draw(plane.sparePicture(), originX: ox, originY: oy)
        plane.showSparePicture(windowX: wx, windowY: wy)
        try output.present(damage: .empty)
        try output.handleEvents()
        return (card, output, plane)
    }

    func testBlankingAndAReconnectKeepThePictureAndItsWindow() throws {
        let (card, output, _) = try showingAPicture(originX: 50, originY: 60, windowX: 3, windowY: 4)
        XCTAssertEqual(try output.blank(), .poweredDown)
        XCTAssertEqual(card.value(20, "FB_ID"), 0)
        try output.unblank()
        assertScreenShowsMap(from: 53, 64, card)
        card.inner.currentState = .disconnected
        XCTAssertEqual(try output.recheckConnector(), .disconnected)
        card.inner.currentState = .connected
        XCTAssertEqual(try output.recheckConnector(), .modesetAgain)
        assertScreenShowsMap(from: 53, 64, card)
        output.close()
    }

    func testAWindowTheDriverRefusesEndsScrollingAndTheScreenKeepsItsPicture() throws {
        let (card, output, plane) = try showingAPicture(originX: 0, originY: 0, windowX: 2, windowY: 2)
        plane.moveWindow(toX: 30, y: 30)
        card.commitFailures = [EINVAL]
        try output.present(damage: .empty)
        XCTAssertFalse(plane.scrollsMap)
        XCTAssertTrue(lines.contains { $0.contains("the driver refused the map's window at (30, 30)") && $0.hasSuffix("the map moves in the canvas from now on") }, "\(lines)")
        assertScreenShowsMap(from: 2, 2, card)
        XCTAssertTrue(plane.showsPicture, "what the screen shows until the view draws the canvas")
        XCTAssertNil(output.mapScrollPlane(margin: 16), "not offered again")
        plane.showCanvas()
        try output.present(damage: .empty)
        XCTAssertEqual(card.lastRequest?.value(of: 20, FakeAtomicCard.id("SRC_X")), 0)
        output.close()
    }

    func testNoPicturesWhereTheDriverTakesNoLargerFramebufferOrRefusesTheWindow() throws {
        let small = FakeAtomicCard.withOverlay()
        small.framebufferLimit = (64, 48)
        let a = try chosen(small)
        XCTAssertNil(a.mapScrollPlane(margin: 16))
        XCTAssertTrue(lines.last?.hasSuffix("the driver's framebuffers are at most 64x48; the map moves in the canvas") ?? false, "\(lines)")
        XCTAssertEqual(small.inner.buffers.count, 5)
        a.close()

        let refusing = FakeAtomicCard.withOverlay()
        let b = try chosen(refusing)
        refusing.testFailures = [EINVAL]
        XCTAssertNil(b.mapScrollPlane(margin: 16))
        XCTAssertTrue(lines.last?.contains("the primary plane cannot scroll a 96x80 map picture") ?? false, "\(lines)")
        XCTAssertEqual(refusing.inner.buffers.count, 5, "the pictures freed")
        b.close()

        let limited = FakeAtomicCard.withOverlay()
        limited.framebufferLimit = (80, 48)
        let c = try chosen(limited)
        let plane = try XCTUnwrap(c.mapScrollPlane(margin: 16))
        XCTAssertEqual([plane.pictureWidth, plane.pictureHeight], [80, 48], "only as large as the driver takes")
        c.close()
    }
}
