import DisplayCore
import Glibc
import KMS
import Raster
import XCTest

/// Night blanking on a KMS output: DPMS Off on the connector, black where DPMS cannot be had.
final class BlankingTests: XCTestCase {
    private func started(_ card: FakeCard, _ config: KMSConfiguration = KMSConfiguration(update: .flip)) throws -> KMSOutput {
        let output = try Scene.make(card, config)
        Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(1))
        try output.start()
        return output
    }

    func testDPMSOffThenOnAndTheWholeFrameBack() throws {
        let card = FakeCard.simple()
        let output = try started(card)
        // A flip in flight is let finish before the connector goes off.
        try output.present(damage: Rect(x: 0, y: 0, width: 4, height: 4))
        XCTAssertTrue(output.isFlipPending)
        XCTAssertEqual(try output.blank(), .poweredDown)
        XCTAssertFalse(output.isFlipPending)
        XCTAssertFalse(card.dpmsOn)
        let connector = output.connector.id
        XCTAssertEqual(card.log.suffix(2), ["flip done fb \(card.scanout)", "dpms \(connector) off"])
        try output.unblank()
        XCTAssertTrue(card.dpmsOn)
        try output.present(damage: output.canvas.bounds)
        try output.handleEvents()
        Scene.assertPanelShowsCanvas(card, output, "after the night")
    }

    func testWithoutDPMSTheScreenShowsBlackAndItIsSaid() throws {
        let card = FakeCard.simple()
        card.dpmsErrno = ENOENT
        let output = try started(card, KMSConfiguration(update: .damage))
        guard case .black(let reason) = try output.blank() else { return XCTFail("expected black") }
        XCTAssertTrue(reason.hasSuffix("DPMS Off failed (No such file or directory); the screen shows black instead"), reason)
        XCTAssertEqual(card.panel(3, 3), 0)
        XCTAssertEqual(card.panel(output.canvasWidth - 1, output.canvasHeight - 1), 0)
        try output.unblank()
        try output.present(damage: output.canvas.bounds)
        Scene.assertPanelShowsCanvas(card, output, "redrawn after black")
    }

    func testACardThatWentAwayIsADisplayLost() throws {
        let card = FakeCard.simple()
        let output = try started(card)
        card.failures["setDPMS"] = [ENODEV]
        XCTAssertThrowsError(try output.blank())
    }
}
