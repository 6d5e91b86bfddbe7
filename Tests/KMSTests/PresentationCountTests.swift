import DisplayCore
import Glibc
import KMS
import Raster
import XCTest

/// What the metrics call a presented frame: one the display confirmed, not one handed to it.
final class PresentationCountTests: XCTestCase {
    private func started(_ card: FakeCard, _ config: KMSConfiguration) throws -> KMSOutput {
        let output = try Scene.make(card, config)
        Scene.fill(output.canvas, output.canvas.bounds) { _, _ in Scene.background }
        try output.start()
        return output
    }

    private let square = Rect(x: 4, y: 4, width: 8, height: 8)

    func testAFlipCountsWhenItsEventArrivesAndItsWaitIsMeasured() throws {
        let card = FakeCard.simple()
        let output = try started(card, KMSConfiguration(update: .flip))
        try output.present(damage: square)
        XCTAssertEqual(output.presentation.presented, 0, "queued, not on the screen yet")
        // Deferred while the flip is in flight: handed over, not presented.
        try output.present(damage: square)
        card.elapse(.milliseconds(12))
        try output.handleEvents()
        XCTAssertEqual(output.presentation, PresentationCount(presented: 1, waitedNanoseconds: 12_000_000))
        // No event, no count: a panel that stopped completing flips stops the count.
        try output.present(damage: square)
        try output.present(damage: square)
        XCTAssertEqual(output.presentation.presented, 1)
        card.elapse(.milliseconds(16))
        try output.handleEvents()
        XCTAssertEqual(output.presentation, PresentationCount(presented: 2, waitedNanoseconds: 28_000_000))
        // An event read with no flip of ours in flight counts nothing.
        try output.handleEvents()
        XCTAssertEqual(output.presentation.presented, 2)
    }

    func testABusyFlipIsNotPresented() throws {
        let card = FakeCard.simple()
        let output = try started(card, KMSConfiguration(update: .flip))
        card.failures["pageFlip"] = [EBUSY]
        try output.present(damage: square)
        try output.handleEvents()
        XCTAssertEqual(output.presentation.presented, 0)
        XCTAssertEqual(output.statistics.busy, 1)
    }

    func testInPlaceCountsEachSuccessfulDirtyFBAndNothingForAnEmptyFrame() throws {
        let card = FakeCard.simple()
        card.dirtyErrno = 0
        let output = try started(card, KMSConfiguration(update: .damage))
        XCTAssertEqual(output.strategy, .damage)
        try output.present(damage: square)
        try output.present(damage: .empty)
        try output.present(damage: square)
        XCTAssertEqual(output.presentation, PresentationCount(presented: 2, waitedNanoseconds: 0))
        // A DirtyFB refused for good: the write itself is what the panel shows from then on.
        card.failures["dirty"] = [ENOSYS]
        try output.present(damage: square)
        try output.present(damage: square)
        XCTAssertEqual(output.presentation.presented, 4)
        // A failing DirtyFB of another kind is no presentation (and the error goes to the loop).
        let other = FakeCard.simple()
        other.dirtyErrno = 0
        let failing = try started(other, KMSConfiguration(update: .damage))
        other.failures["dirty"] = [EIO]
        XCTAssertThrowsError(try failing.present(damage: square))
        XCTAssertEqual(failing.presentation.presented, 0)
    }
}
