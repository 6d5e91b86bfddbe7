import DisplayCore
import Glibc
import KMS
import Raster
import Syscall
import XCTest

/// Which layers above the map get planes on an in-memory atomic card: greedily, one test commit
/// per layer; the stack keeps the scene's order (the credit above the dot); a refused layer goes
/// into the canvas with every plane layer under it that it may cover; the decision again after a
/// refused commit, a reconnect, a new scene.
final class AtomicLayerPlanesTests: XCTestCase {
    private final class Log { var lines: [String] = [] }
    private static let prefix = "/dev/dri/card0 (fake) Virtual-1: "

    /// A 64x48 panel with primary plane 20 and ARGB8888 overlays `overlays` (listed in that order,
    /// no zpos: stacked by id, as vkms's).
    private func layered(_ overlays: [UInt32], zpos: ClosedRange<UInt64>? = nil) -> FakeAtomicCard {
        let inner = FakeCard.simple()
        inner.atomicErrno = 0
        inner.resourcesValue.planes[0].type = .primary
        let card = FakeAtomicCard(inner)
        card.addOverlays(overlays, zpos: zpos)
        return card
    }

    private func chosen(_ card: FakeAtomicCard, _ log: Log) throws -> AtomicKMSOutput {
        let legacy = try KMSOutput(card: card, resources: card.inner.resourcesValue, configuration: KMSConfiguration(),
                                   clock: { card.inner.now })
        switch AtomicKMSOutput.choose(from: legacy, log: { log.lines.append($0) }, clock: { card.inner.now }) {
        case .success(let output): return output
        case .failure(let refusal): throw refusal
        }
    }

    /// A picture of one premultiplied colour.
    private func picture(_ argb: UInt32, x: Int, y: Int, width: Int, height: Int) -> Overlay {
        let p = Overlay(width: width, height: height, x: x, y: y)
        for row in 0..<height { for column in 0..<width { p.setPixel(x: column, y: row, argb) } }
        return p
    }

    private let credit = (0xC0C0_C0C0 as UInt32, Rect(x: 40, y: 40, width: 24, height: 8))

    private func testCommits(_ card: FakeAtomicCard) -> Int { card.commits.filter { $0.contains(.testOnly) }.count }

    /// The planes output on a card with `overlays`, started with the credit assigned its plane.
    private func startedWithACredit(_ overlays: [UInt32], zpos: ClosedRange<UInt64>? = nil) throws -> (FakeAtomicCard, AtomicKMSOutput, Log) {
        let card = layered(overlays, zpos: zpos), log = Log()
        let output = try chosen(card, log)
        output.assign(pictures: [picture(credit.0, x: 40, y: 40, width: 24, height: 8)], names: ["credit"])
        try output.start()
        return (card, output, log)
    }

    func testTheCreditTakesTheOverlayAboveTheDotsAndTheScreenShowsItOverTheDot() throws {
        let card = layered([21, 22, 23]), log = Log()
        let output = try chosen(card, log)
        let before = testCommits(card)
        let c = picture(credit.0, x: 40, y: 40, width: 24, height: 8)
        XCTAssertEqual(output.assign(pictures: [c], names: ["credit"]), PlaneGrants(dot: true, pictures: [true]))
        XCTAssertEqual(testCommits(card) - before, 2, "one test commit per layer: the dot, the credit")
        XCTAssertEqual(log.lines.last, Self.prefix + "planes: the map on primary plane 20, the dot on overlay plane 21, the credit on overlay plane 22")
        // The credit's test had the dot at its worst: partly off the screen.
        let test = try XCTUnwrap(card.lastRequest)
        XCTAssertLessThan(Int64(bitPattern: try XCTUnwrap(test.value(of: 21, FakeAtomicCard.id("CRTC_X")))), 0)
        XCTAssertEqual(test.value(of: 22, FakeAtomicCard.id("CRTC_X")), 40)

        let canvas = output.canvas
        for y in 0..<canvas.height { for x in 0..<canvas.width { canvas.row(y).storeBytes(of: 0x0000_00FF as UInt32, toByteOffset: x * 4, as: UInt32.self) } }
        let sprite = output.spriteBuffer
        for y in 0..<8 { for x in 0..<8 { sprite.row(y).storeBytes(of: 0xFFFF_0000 as UInt32, toByteOffset: x * 4, as: UInt32.self) } }
        output.showSprite(x: 36, y: 36, width: 8, height: 8)
        try output.start()
        XCTAssertEqual([card.value(22, "CRTC_X"), card.value(22, "CRTC_Y"), card.value(22, "CRTC_W"), card.value(22, "CRTC_H")],
                       [40, 40, 24, 8])
        XCTAssertEqual(card.value(23, "FB_ID") ?? 0, 0, "one overlay for the credit")
        XCTAssertEqual(card.screen(38, 38) & 0xFF_FFFF, 0xFF_0000, "the dot over the map")
        // Where the two meet, the credit over the dot: 0xC0 + red × (255 − 0xC0) / 255.
        let red = UInt32(0xC0 + (255 * 63 + 127) / 255)
        XCTAssertEqual(card.screen(41, 41) & 0xFF_FFFF, red << 16 | 0xC0C0)
        XCTAssertEqual(card.screen(50, 45) & 0xFF_FFFF, 0xC0C0 << 8 | UInt32(0xC0 + (255 * 63 + 127) / 255), "the credit over the map")

        // Frames leave the credit's plane alone.
        output.showSprite(x: 1, y: 1, width: 8, height: 8)
        try output.present(damage: Rect(x: 0, y: 0, width: 4, height: 4))
        XCTAssertNil(try XCTUnwrap(card.lastRequest).value(of: 22, FakeAtomicCard.id("FB_ID")))
        try output.handleEvents()

        // A new scene without the credit: its plane off, its buffer freed.
        let buffers = card.inner.buffers.count
        XCTAssertEqual(output.assign(pictures: [], names: []), PlaneGrants(dot: true, pictures: []))
        XCTAssertEqual(card.value(22, "FB_ID"), 0)
        XCTAssertEqual(card.inner.buffers.count, buffers - 1)
        output.close()
        XCTAssertEqual(card.inner.buffers.count, 0)
    }

    func testARefusedBannerTakesTheDotIntoTheCanvasAndTheCreditToo_WhenItCoversIt() throws {
        // Apart: the credit keeps its plane; the dot, which may cross the banner, does not.
        let card = layered([21, 22, 23]), log = Log()
        card.refusedPlanes = [23]
        let output = try chosen(card, log)
        let c = picture(credit.0, x: 40, y: 40, width: 24, height: 8)
        let banner = picture(0xFF00_0000, x: 0, y: 0, width: 64, height: 10)
        XCTAssertEqual(output.assign(pictures: [c, banner], names: ["credit", "banner"]), PlaneGrants(dot: false, pictures: [true, false]))
        XCTAssertFalse(output.takesSprites)
        XCTAssertEqual(log.lines.last, Self.prefix + "planes: the map on primary plane 20, the dot composited (under a composited picture it may cross), "
                       + "the credit on overlay plane 22, the banner composited (refused: Invalid argument)")
        try output.start()
        XCTAssertEqual(card.value(21, "FB_ID") ?? 0, 0)
        XCTAssertNotEqual(card.value(22, "FB_ID") ?? 0, 0)
        XCTAssertEqual(card.value(23, "FB_ID") ?? 0, 0)

        // Overlapping: the credit under the refused banner goes into the canvas with it.
        let covering = picture(0xFF00_0000, x: 30, y: 30, width: 30, height: 18)
        XCTAssertEqual(output.assign(pictures: [c, covering], names: ["credit", "banner"]), PlaneGrants(dot: false, pictures: [false, false]))
        XCTAssertEqual(card.value(22, "FB_ID"), 0, "the credit's plane switched off")
        output.close()
    }

    func testARefusedDotLeavesTheCreditOnItsPlane() throws {
        let card = layered([21, 22]), log = Log()
        let output = try chosen(card, log)
        card.refusedPlanes = [21]
        let c = picture(credit.0, x: 40, y: 40, width: 24, height: 8)
        XCTAssertEqual(output.assign(pictures: [c], names: ["credit"]), PlaneGrants(dot: false, pictures: [true]))
        XCTAssertEqual(log.lines.last, Self.prefix + "planes: the map on primary plane 20, the dot composited (refused: Invalid argument), the credit on overlay plane 22")
        output.close()
    }

    func testAPictureNeverGoesUnderTheDotsPlane() throws {
        // The dot's plane is the first listed, 23; overlay 22 lies under it, 24 above.
        let under = layered([23, 22]), log = Log()
        let output = try chosen(under, log)
        let c = picture(credit.0, x: 40, y: 40, width: 24, height: 8)
        XCTAssertEqual(output.assign(pictures: [c], names: ["credit"]), PlaneGrants(dot: false, pictures: [false]))
        XCTAssertEqual(log.lines.last, Self.prefix + "planes: the map on primary plane 20, the dot composited (under a composited picture it may cross), "
                       + "the credit composited (no plane above the ones under it)")
        output.close()

        let above = layered([23, 22, 24])
        let second = try chosen(above, log)
        XCTAssertEqual(second.assign(pictures: [c], names: ["credit"]), PlaneGrants(dot: true, pictures: [true]))
        XCTAssertEqual(log.lines.last, Self.prefix + "planes: the map on primary plane 20, the dot on overlay plane 23, the credit on overlay plane 24")
        second.close()
    }

    func testWithAZposTheCreditIsSetAboveTheDot() throws {
        let (card, output, _) = try startedWithACredit([21, 22], zpos: 1...3)
        XCTAssertEqual(card.value(21, "zpos"), 2)
        XCTAssertEqual(card.value(22, "zpos"), 3)
        XCTAssertEqual(card.stacking().suffix(2), [21, 22])
        output.close()
    }

    func testARefusedWholeCommitGivesThePicturesUpWithTheDotAndSaysSo() throws {
        let (card, output, log) = try startedWithACredit([21, 22])
        XCTAssertEqual(output.generation, 0)
        _ = try output.blanking?.blank()
        card.commitFailures = [EINVAL]
        try output.blanking?.unblank()
        XCTAssertEqual(output.generation, 1, "the scene is told")
        XCTAssertEqual(output.grants, PlaneGrants(dot: false, pictures: [false]))
        XCTAssertEqual(card.value(22, "FB_ID"), 0)
        XCTAssertNotEqual(card.value(20, "FB_ID") ?? 0, 0, "the map back on screen")
        XCTAssertTrue(log.lines.contains(Self.prefix + "the driver refused the pictures' planes (Invalid argument); they and the dot are composited from now on"))
        output.close()
    }

    func testAReconnectDecidesAgain() throws {
        let (card, output, _) = try startedWithACredit([21, 22])
        card.inner.currentState = .disconnected
        XCTAssertEqual(try output.recheckConnector(), .disconnected)
        card.inner.currentState = .connected
        XCTAssertEqual(try output.recheckConnector(), .modesetAgain)
        XCTAssertEqual(output.generation, 0, "the same decision")
        card.refusedPlanes = [22]
        card.inner.currentState = .disconnected
        XCTAssertEqual(try output.recheckConnector(), .disconnected)
        card.inner.currentState = .connected
        XCTAssertEqual(try output.recheckConnector(), .modesetAgain)
        XCTAssertEqual(output.generation, 1)
        XCTAssertEqual(output.grants, PlaneGrants(dot: false, pictures: [false]))
        XCTAssertEqual(card.value(22, "FB_ID"), 0)
        XCTAssertEqual(card.value(21, "FB_ID"), 0)
        output.close()
    }

    func testTheGreedyChoiceAlone() {
        // Three layers, four planes; layer 1 refused everywhere: layer 0 (under it, overlapping)
        // goes with it, layer 2 stays above.
        let granted = GreedyPlanes.assign(layers: 3, planes: 4, canUse: { _, _ in true }, overlaps: { _, _ in true },
                                          test: { layer, _, _ in layer != 1 })
        XCTAssertEqual(granted, [nil, nil, 1])
        let apart = GreedyPlanes.assign(layers: 3, planes: 4, canUse: { _, _ in true }, overlaps: { _, _ in false },
                                        test: { layer, plane, _ in layer != 1 || plane == 3 })
        XCTAssertEqual(apart, [0, 3, nil], "a layer only above the one under it: nothing left above plane 3")
    }
}
