import DisplayCore
import Glibc
import KMS
import Raster
import Syscall
import XCTest

/// The dot on a cursor plane where a card has no overlay for it: buffers of the cursor's size,
/// always shown whole; never on the cursor planes that virtual GPUs' hosts draw apart.
final class AtomicCursorPlaneTests: XCTestCase {
    /// The 64x48 panel with a primary plane and a cursor plane 22 that takes ARGB8888.
    private static func card(driver: String = "fake", cursor: (Int, Int)? = (32, 32)) -> FakeAtomicCard {
        let simple = FakeCard.simple()
        var resources = simple.resourcesValue
        resources.planes[0].type = .primary
        resources.planes.append(PlaneInfo(id: 22, type: .cursor, possibleCrtcs: 1, formats: [FourCC.argb8888]))
        let inner = FakeCard(driver: driver, resources: resources)
        inner.atomicErrno = 0
        inner.caps = CardCapabilities(dumbBuffers: true, preferShadow: false, cursorWidth: cursor?.0, cursorHeight: cursor?.1)
        return FakeAtomicCard(inner)
    }

    private func choose(_ card: FakeAtomicCard, log: @escaping (String) -> Void = { _ in }) throws -> Result<AtomicKMSOutput, PlanesRefusal> {
        let legacy = try KMSOutput(card: card, resources: card.inner.resourcesValue, configuration: KMSConfiguration(),
                                   clock: { card.inner.now })
        return AtomicKMSOutput.choose(from: legacy, log: log, clock: { card.inner.now })
    }

    func testTheCursorPlaneTakesTheDotInBuffersOfTheCursorsSize() throws {
        let card = Self.card()
        var lines: [String] = []
        guard case .success(let output) = try choose(card, log: { lines.append($0) }) else { return XCTFail("not chosen") }
        XCTAssertTrue(output.showsWholeSprite)
        XCTAssertEqual([output.spriteWidth, output.spriteHeight], [32, 32], "DRM_CAP_CURSOR_WIDTH/HEIGHT")
        let test = try XCTUnwrap(card.lastRequest)
        XCTAssertEqual(test.value(of: 22, FakeAtomicCard.id("CRTC_W")), 32, "the test commit shows the whole cursor buffer")
        let b = output.spriteBuffer
        for y in 0..<32 { for x in 0..<32 { b.row(y).storeBytes(of: x < 4 && y < 4 ? 0xFF00_00FF : 0, toByteOffset: x * 4, as: UInt32.self) } }
        output.showSprite(x: 60, y: -2, width: 32, height: 32)
        try output.start()
        XCTAssertTrue(lines.contains { $0.hasSuffix("the dot on cursor plane 22 (32x32) over the map on primary plane 20") }, "\(lines)")
        XCTAssertEqual(card.value(22, "CRTC_X"), 60)
        XCTAssertEqual(card.value(22, "CRTC_W"), 32)
        output.close()
    }

    func testACursorOfUnsaidSizeIs64AndTheVirtualGPUsCursorIsNeverUsed() throws {
        guard case .success(let output) = try choose(Self.card(cursor: nil)) else { return XCTFail("not chosen") }
        XCTAssertEqual([output.spriteWidth, output.spriteHeight], [64, 64], "the cursor's size where the driver does not say it")
        output.close()
        for driver in ["virtio_gpu", "vmwgfx", "qxl"] {
            let card = Self.card(driver: driver)
            guard case .failure(let refusal) = try choose(card) else { return XCTFail("\(driver): its cursor plane was used") }
            XCTAssertEqual(refusal.description, "\(driver) has no ARGB8888 overlay plane for CRTC 10 (its cursor plane is drawn by the host, apart from the screen)")
            XCTAssertFalse(card.inner.log.contains("enableAtomic"), "\(driver): atomic never asked for")
        }
    }

    func testAnOverlayIsPreferredToTheCursor() throws {
        let card = FakeAtomicCard.withOverlay()
        card.inner.resourcesValue.planes.append(PlaneInfo(id: 22, type: .cursor, possibleCrtcs: 1, formats: [FourCC.argb8888]))
        guard case .success(let output) = try choose(card) else { return XCTFail("not chosen") }
        XCTAssertFalse(output.showsWholeSprite)
        XCTAssertEqual(output.spriteWidth, 48)
        output.close()
    }
}
