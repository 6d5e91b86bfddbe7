import DisplayCore
import Glibc
import KMS
import Raster
import Syscall
import XCTest

/// The planes output on an in-memory atomic card: when it is chosen and when the legacy output
/// stays, what each commit sets, the sprite's buffers in turn, and what is left on exit.
final class AtomicOutputTests: XCTestCase {
    private func legacy(_ card: FakeAtomicCard, _ configuration: KMSConfiguration = KMSConfiguration()) throws -> KMSOutput {
        try KMSOutput(card: card, resources: card.inner.resourcesValue, configuration: configuration, clock: { card.inner.now })
    }

    private func chosen(_ card: FakeAtomicCard) throws -> AtomicKMSOutput {
        switch AtomicKMSOutput.choose(from: try legacy(card), clock: { card.inner.now }) {
        case .success(let output): return output
        // A refusal fails the test (thrown, with its reason), never skips it.
        case .failure(let refusal): throw refusal
        }
    }

    private func refusal(_ card: FakeAtomicCard, _ configuration: KMSConfiguration = KMSConfiguration()) throws -> (String, KMSOutput) {
        let output = try legacy(card, configuration)
        switch AtomicKMSOutput.choose(from: output) {
        case .success: XCTFail("the planes output was chosen"); return ("", output)
        case .failure(let refusal): return (refusal.description, output)
        }
    }

    private func paintSprite(_ output: AtomicKMSOutput, _ value: UInt32, width: Int, height: Int) {
        let b = output.spriteBuffer
        for y in 0..<height {
            for x in 0..<width { b.row(y).storeBytes(of: value, toByteOffset: x * 4, as: UInt32.self) }
        }
    }

    func testChosenAfterATestCommitWithTheSpritePartlyOffScreen() throws {
        let card = FakeAtomicCard.withOverlay()
        let output = try chosen(card)
        XCTAssertEqual(card.commits, [[.testOnly, .allowModeset]])
        let test = try XCTUnwrap(card.lastRequest)
        let x = try XCTUnwrap(test.value(of: 21, FakeAtomicCard.id("CRTC_X")))
        XCTAssertLessThan(Int64(bitPattern: x), 0, "the test puts the sprite partly off the left edge")
        XCTAssertEqual(test.value(of: 21, FakeAtomicCard.id("pixel blend mode")), 1, "Pre-multiplied")
        XCTAssertEqual(test.value(of: 21, FakeAtomicCard.id("zpos")), 3, "the overlay on top")
        XCTAssertEqual(test.value(of: 10, FakeAtomicCard.id("ACTIVE")), 1)
        XCTAssertEqual(output.spriteWidth, 48, "the sprite at most the panel's shorter side")
        XCTAssertNotNil(output.spritePlane)
        // Two map buffers from the legacy output and three sprite buffers, no more.
        XCTAssertEqual(card.inner.buffers.count, 5)
        output.close()
        XCTAssertEqual(card.inner.buffers.count, 0)
        XCTAssertTrue(card.blobs.isEmpty)
    }

    func testACardWithoutAnOverlayKeepsTheLegacyOutputWithoutAskingForAtomic() throws {
        let inner = FakeCard.simple()
        inner.atomicErrno = 0
        let (why, output) = try refusal(FakeAtomicCard(inner))
        XCTAssertEqual(why, "fake has no ARGB8888 overlay plane for CRTC 10")
        XCTAssertFalse(inner.log.contains("enableAtomic"), "\(inner.log)")
        try output.start()
        XCTAssertEqual(output.strategy, .flip, "the legacy output still works")
        output.close()
    }

    func testEveryRefusalLeavesTheLegacyOutputAndFreesWhatItMade() throws {
        let noAtomic = FakeAtomicCard.withOverlay()
        noAtomic.inner.atomicErrno = EOPNOTSUPP
        XCTAssertEqual(try refusal(noAtomic).0, "fake refuses atomic modesetting (Operation not supported)")

        let refused = FakeAtomicCard.withOverlay()
        refused.testFailures = [EINVAL]
        let (why, output) = try refusal(refused)
        XCTAssertEqual(why, "the test commit with the dot on overlay plane 21 was refused: DRM_IOCTL_MODE_ATOMIC (test only) /dev/dri/card0: Invalid argument (errno 22)")
        XCTAssertEqual(refused.atomicDisabled, 1, "atomic asked for and given back")
        XCTAssertEqual(refused.inner.buffers.count, 2, "the sprite buffers freed, the legacy output's kept")
        XCTAssertTrue(refused.blobs.isEmpty)
        try output.start()
        output.close()

        let straight = FakeAtomicCard.withOverlay(blend: ["None", "Coverage"])
        XCTAssertEqual(try refusal(straight).0, "overlay plane 21 cannot blend premultiplied pixels (enum None, Coverage)")
    }

    /// The map's damage reaches its buffers through a routed copy-out (the renderer's).
    func testTheMapIsCopiedThroughTheRoutedCopyOut() throws {
        let card = FakeAtomicCard.withOverlay()
        let output = try chosen(card)
        let copies = Scene.recordCopyOut(of: output)
        Scene.fill(output.canvas, output.canvas.bounds) { _, _ in Scene.background }
        try output.start()
        Scene.fill(output.canvas, Rect(x: 2, y: 3, width: 6, height: 5)) { _, _ in 0x0000_FF00 }
        try output.present(damage: Rect(x: 2, y: 3, width: 6, height: 5))
        try output.handleEvents()
        XCTAssertEqual(copies.regions, [Rect(x: 2, y: 3, width: 6, height: 5)])
        XCTAssertEqual(card.screen(4, 5), 0x0000_FF00)
        output.close()
    }

    func testFramesCommitTheMapAndTheSpriteTogetherAndTheSpriteBuffersTakeTurns() throws {
        let card = FakeAtomicCard.withOverlay()
        let output = try chosen(card)
        Scene.fill(output.canvas, output.canvas.bounds) { _, _ in Scene.background }
        let first = output.spriteBuffer.base
        paintSprite(output, 0x8040_2010, width: 10, height: 10)
        output.showSprite(x: -3, y: 40, width: 10, height: 10)
        try output.start()
        XCTAssertEqual(card.commits.last, [.allowModeset])
        XCTAssertEqual(card.value(10, "ACTIVE"), 1)
        XCTAssertEqual(card.value(21, "CRTC_X").map { Int64(bitPattern: $0) }, -3)
        XCTAssertEqual(card.value(21, "CRTC_Y"), 40)
        XCTAssertEqual(card.value(21, "SRC_W"), 10 << 16)
        // The sprite over the map, premultiplied, clipped at the left edge.
        XCTAssertEqual(card.screen(0, 40), 0x0040_2010 &+ Self.half(Scene.background))
        XCTAssertEqual(card.screen(7, 40), Scene.background, "past the sprite's 10 pixels")
        XCTAssertEqual(card.screen(0, 39), Scene.background)
        XCTAssertNotEqual(output.spriteBuffer.base, first, "the shown buffer is not painted again")

        // The dot moves, the map does not change: a non-blocking commit of the overlay alone.
        let second = output.spriteBuffer.base
        paintSprite(output, 0xFF00_00FF, width: 4, height: 4)
        output.showSprite(x: 60, y: 44, width: 4, height: 4)
        XCTAssertFalse(output.isSettled)
        try output.present(damage: .empty)
        XCTAssertEqual(card.commits.last, [.nonblocking, .event])
        let request = try XCTUnwrap(card.lastRequest)
        XCTAssertEqual(request.objects, [21], "only the overlay changes")
        XCTAssertTrue(output.isCommitPending)
        let third = output.spriteBuffer.base
        XCTAssertNotEqual(third, first, "one on screen, one queued: the third is painted")
        XCTAssertNotEqual(third, second)

        // While the commit is in flight, frames wait.
        Scene.fill(output.canvas, Rect(x: 0, y: 0, width: 8, height: 8)) { _, _ in 0x00FF_0000 }
        try output.present(damage: Rect(x: 0, y: 0, width: 8, height: 8))
        XCTAssertEqual(output.statistics.deferred, 1)
        try output.handleEvents()
        XCTAssertEqual(card.screen(61, 45), 0x0000_00FF, "an opaque sprite pixel hides the map")
        XCTAssertEqual(card.screen(0, 0), Scene.background, "the waiting damage is not on screen yet")
        try output.present(damage: .empty)
        XCTAssertEqual(card.lastRequest?.objects, [20], "the map's new buffer on the primary plane, the overlay as it was")
        try output.handleEvents()
        XCTAssertEqual(card.screen(0, 0), 0x00FF_0000)
        XCTAssertEqual(card.screen(61, 45), 0x0000_00FF, "an opaque sprite pixel hides the map")
        XCTAssertTrue(output.isSettled)

        output.hideSprite()
        try output.present(damage: .empty)
        try output.handleEvents()
        XCTAssertEqual(card.value(21, "FB_ID"), 0)
        XCTAssertEqual(card.screen(61, 45), Scene.background)
        output.close()
    }

    func testCloseSwitchesTheOverlayOffAndGivesTheConsoleBack() throws {
        let card = FakeAtomicCard.withOverlay()
        let output = try chosen(card)
        paintSprite(output, 0xFFFF_FFFF, width: 5, height: 5)
        output.showSprite(x: 1, y: 1, width: 5, height: 5)
        try output.start()
        paintSprite(output, 0xFFFF_FFFF, width: 5, height: 5)
        output.showSprite(x: 2, y: 2, width: 5, height: 5)
        try output.present(damage: .empty)
        output.close()
        XCTAssertEqual(card.value(21, "FB_ID"), 0, "the commit in flight finished, then the overlay went off")
        XCTAssertEqual(card.value(21, "CRTC_ID"), 0)
        XCTAssertEqual(card.inner.restored?.framebuffer, card.inner.consoleFramebuffer)
        XCTAssertTrue(card.inner.buffers.isEmpty)
        XCTAssertTrue(card.inner.closed)
    }

    func testBlankingSwitchesTheCRTCOffAndBackWithItsPlanes() throws {
        let card = FakeAtomicCard.withOverlay()
        let output = try chosen(card)
        paintSprite(output, 0xFFFF_FFFF, width: 5, height: 5)
        output.showSprite(x: 1, y: 1, width: 5, height: 5)
        try output.start()
        XCTAssertEqual(try output.blank(), .poweredDown)
        XCTAssertEqual(card.value(10, "ACTIVE"), 0)
        XCTAssertEqual(card.value(21, "FB_ID"), 0)
        try output.unblank()
        XCTAssertEqual(card.value(10, "ACTIVE"), 1)
        XCTAssertNotEqual(card.value(21, "FB_ID"), 0, "the dot back where it was")
        XCTAssertEqual(card.value(21, "CRTC_X"), 1)
        output.close()
    }

    func testAWritebackConnectorOnTheCRTCCapturesTheComposedScreen() throws {
        let card = FakeAtomicCard.withOverlay()
        card.addWriteback()
        var lines: [String] = []
        guard case .success(let output) = AtomicKMSOutput.choose(from: try legacy(card), log: { lines.append($0) }, clock: { card.inner.now }) else {
            return XCTFail("the planes output was not chosen")
        }
        XCTAssertEqual(card.lastRequest?.value(of: FakeAtomicCard.writebackConnector, FakeAtomicCard.id("CRTC_ID")), 10,
                       "the test commit keeps the writeback connector on the CRTC")
        XCTAssertEqual(lines, ["/dev/dri/card0 (fake) Virtual-1: writeback connector 3 attached for screenshots"])
        Scene.fill(output.canvas, output.canvas.bounds) { _, _ in Scene.background }
        paintSprite(output, 0xFF00_FF00, width: 3, height: 3)
        output.showSprite(x: 10, y: 20, width: 3, height: 3)
        try output.start()
        let shot = try XCTUnwrap(output.composedScreen())
        XCTAssertEqual(Scene.logical(shot, 11, 21), 0x0000_FF00, "the sprite, read back")
        XCTAssertEqual(Scene.logical(shot, 13, 21), Scene.background)
        XCTAssertEqual(card.commits.last, [], "a capture is a plain blocking commit: no modeset")
        output.close()
        XCTAssertEqual(card.value(FakeAtomicCard.writebackConnector, "CRTC_ID"), 0, "the writeback connector let go on exit")
        XCTAssertTrue(card.inner.buffers.isEmpty)
    }

    func testAWritebackConnectorThatCannotShareTheCRTCIsLeftOut() throws {
        let card = FakeAtomicCard.withOverlay()
        card.addWriteback()
        card.testFailures = [EINVAL]
        var lines: [String] = []
        guard case .success(let output) = AtomicKMSOutput.choose(from: try legacy(card), log: { lines.append($0) }, clock: { card.inner.now }) else {
            return XCTFail("the planes output was not chosen")
        }
        XCTAssertEqual(card.commits, [[.testOnly, .allowModeset], [.testOnly, .allowModeset]])
        XCTAssertNil(card.lastRequest?.value(of: FakeAtomicCard.writebackConnector, FakeAtomicCard.id("CRTC_ID")))
        XCTAssertEqual(lines, ["/dev/dri/card0 (fake) Virtual-1: no writeback connector shares the CRTC; screenshots are drawn in software"])
        try output.start()
        XCTAssertNil(output.composedScreen())
        output.close()
    }

    /// What an output said, kept for the test to read after the output's closure has it.
    private final class Log { var lines: [String] = [] }
    /// Thrown (a failure, not a skip) when the planes output was not chosen.
    private struct NotChosen: Error {}

    /// The planes output on a new card, started with a 5x5 white sprite at (1, 1).
    private func startedWithASprite() throws -> (FakeAtomicCard, AtomicKMSOutput, Log) {
        let card = FakeAtomicCard.withOverlay()
        let log = Log()
        guard case .success(let output) = AtomicKMSOutput.choose(from: try legacy(card), log: { log.lines.append($0) }, clock: { card.inner.now }) else {
            throw NotChosen()
        }
        paintSprite(output, 0xFFFF_FFFF, width: 5, height: 5)
        output.showSprite(x: 1, y: 1, width: 5, height: 5)
        try output.start()
        return (card, output, log)
    }

    func testAPlaceTheDriverRefusesAtRunTimeGivesThePlaneUp() throws {
        let (card, output, log) = try startedWithASprite()
        paintSprite(output, 0xFFFF_FFFF, width: 5, height: 5)
        output.showSprite(x: 70, y: 1, width: 5, height: 5)
        card.commitFailures = [EINVAL]
        try output.present(damage: .empty)
        XCTAssertFalse(output.takesSprites)
        XCTAssertEqual(log.lines.last, "/dev/dri/card0 (fake) Virtual-1: the driver refused the dot's plane at (70, 1) 5x5 (Invalid argument); composing in software from now on")
        try output.handleEvents()
        XCTAssertEqual(card.value(21, "FB_ID"), 0, "the overlay emptied")
        XCTAssertTrue(output.isSettled)
        output.close()
    }

    func testAReconnectSetsTheModeAgainAndAsksForThePlaneAgain() throws {
        let (card, output, log) = try startedWithASprite()
        let firstBlob = try XCTUnwrap(card.value(10, "MODE_ID"))
        card.inner.currentState = .disconnected
        XCTAssertEqual(try output.recheckConnector(), .disconnected)
        card.inner.currentState = .connected
        XCTAssertEqual(try output.recheckConnector(), .modesetAgain)
        XCTAssertNotEqual(card.value(10, "MODE_ID"), firstBlob, "a mode blob of the monitor's own timings")
        XCTAssertEqual(card.blobs.count, 1, "the old blob freed")
        XCTAssertNotEqual(card.value(21, "FB_ID"), 0, "the dot still on its plane")
        XCTAssertTrue(output.takesSprites)

        // A driver that no longer takes the plane there: the dot goes back into the canvas.
        card.inner.currentState = .disconnected
        XCTAssertEqual(try output.recheckConnector(), .disconnected)
        card.inner.currentState = .connected
        card.testFailures = [EINVAL]
        XCTAssertEqual(try output.recheckConnector(), .modesetAgain)
        XCTAssertFalse(output.takesSprites)
        XCTAssertEqual(card.value(21, "FB_ID"), 0)
        XCTAssertEqual(log.lines.suffix(2), ["/dev/dri/card0 (fake) Virtual-1: after the reconnect the driver refuses the dot's plane (Invalid argument); composing in software from now on",
                                             "/dev/dri/card0 (fake) Virtual-1: planes: the map on primary plane 20, the dot composited (refused: Invalid argument)"])
        output.close()
    }

    /// Half of each channel, rounded as the fake's blend does (alpha 0x80).
    private static func half(_ p: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for shift in [0, 8, 16] as [UInt32] { out |= ((((p >> shift) & 0xFF) * 127 + 127) / 255) << shift }
        return out
    }
}
