import Glibc
import KMS
import Raster
import XCTest

/// Two buffers and page flips: the back buffer is two frames old, so it must receive this and the
/// previous frame's damage, and nothing may be written while a flip is in flight.
final class FlipOutputTests: XCTestCase {
    private func started(_ card: FakeCard, _ config: KMSConfiguration = KMSConfiguration(update: .flip)) throws -> KMSOutput {
        let output = try Scene.make(card, config)
        Scene.fill(output.canvas, output.canvas.bounds) { _, _ in Scene.background }
        try output.start()
        return output
    }

    /// Moves a square across the canvas, one flip per frame: after every completed flip the panel
    /// shows exactly the canvas. Copying only this frame's damage leaves the square's old place
    /// from two frames ago on the panel (a ghost), and this fails.
    func testMovingSquareLeavesNoGhosts() throws {
        let card = FakeCard.simple()
        let output = try started(card)
        XCTAssertEqual(output.strategy, .flip)
        Scene.assertPanelShowsCanvas(card, output, "first frame")
        var old = Rect.empty
        for frame in 1...12 {
            let square = Rect(x: 3 + frame * 4, y: 2 + frame * 3, width: 9, height: 7)
            Scene.fill(output.canvas, old) { _, _ in Scene.background }
            Scene.fill(output.canvas, square, Scene.pattern(frame))
            try output.present(damage: old.union(square))
            try output.handleEvents()
            Scene.assertPanelShowsCanvas(card, output, "frame \(frame)")
            old = square
        }
        XCTAssertEqual(output.statistics.queued, 12)
    }

    func testFlipInFlightDefersAndKeepsTheDamage() throws {
        let card = FakeCard.simple()
        let output = try started(card)
        Scene.fill(output.canvas, Rect(x: 0, y: 0, width: 10, height: 10), Scene.pattern(1))
        try output.present(damage: Rect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertTrue(output.isFlipPending)
        // Two more frames before the event: neither buffer may be touched, the damage waits.
        Scene.fill(output.canvas, Rect(x: 30, y: 20, width: 10, height: 10), Scene.pattern(2))
        try output.present(damage: Rect(x: 30, y: 20, width: 10, height: 10))
        Scene.fill(output.canvas, Rect(x: 50, y: 40, width: 10, height: 8), Scene.pattern(3))
        try output.present(damage: Rect(x: 50, y: 40, width: 10, height: 8))
        XCTAssertEqual(output.statistics.deferred, 2)
        XCTAssertEqual(output.statistics.queued, 1)
        XCTAssertEqual(card.panel(35, 25), Scene.background, "the scanned-out buffer was written during a flip")
        XCTAssertFalse(output.isSettled, "a flip in flight and damage waiting")
        try output.handleEvents()
        XCTAssertFalse(output.isSettled, "the flip is done but the kept damage is not on its way")
        try output.present(damage: .empty)  // the next timer tick: the kept damage goes out
        XCTAssertEqual(output.statistics.queued, 2)
        XCTAssertFalse(output.isSettled, "its flip is in flight")
        try output.handleEvents()
        XCTAssertTrue(output.isSettled)
        Scene.assertPanelShowsCanvas(card, output, "after the deferred frames")
        // And the buffer written next (two frames old) catches up too.
        Scene.fill(output.canvas, Rect(x: 60, y: 0, width: 4, height: 4), Scene.pattern(4))
        try output.present(damage: Rect(x: 60, y: 0, width: 4, height: 4))
        try output.handleEvents()
        Scene.assertPanelShowsCanvas(card, output, "one frame later")
    }

    func testEBUSYIsRetriedNextFrameWithTheDamageKept() throws {
        let card = FakeCard.simple()
        let output = try started(card)
        card.failures["pageFlip"] = [EBUSY]
        Scene.fill(output.canvas, Rect(x: 5, y: 5, width: 20, height: 20), Scene.pattern(1))
        try output.present(damage: Rect(x: 5, y: 5, width: 20, height: 20))
        XCTAssertEqual(output.statistics.busy, 1)
        XCTAssertFalse(output.isFlipPending)
        Scene.fill(output.canvas, Rect(x: 40, y: 30, width: 6, height: 6), Scene.pattern(2))
        try output.present(damage: Rect(x: 40, y: 30, width: 6, height: 6))
        try output.handleEvents()
        Scene.assertPanelShowsCanvas(card, output, "after the retry")
        Scene.fill(output.canvas, Rect(x: 0, y: 40, width: 6, height: 6), Scene.pattern(3))
        try output.present(damage: Rect(x: 0, y: 40, width: 6, height: 6))
        try output.handleEvents()
        Scene.assertPanelShowsCanvas(card, output, "the other buffer after the retry")
    }

    func testNothingChangedMeansNoFlip() throws {
        let card = FakeCard.simple()
        let output = try started(card)
        try output.present(damage: .empty)
        try output.present(damage: Rect(x: 200, y: 200, width: 5, height: 5))  // off the canvas
        XCTAssertEqual(output.statistics.queued, 0)
        XCTAssertFalse(card.log.contains { $0.hasPrefix("pageFlip") })
    }

    func testBothBuffersAreFilledFullyAtStart() throws {
        let card = FakeCard.simple()
        let output = try Scene.make(card, KMSConfiguration(update: .flip))
        Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(0))
        try output.start()
        XCTAssertEqual(card.buffers.count, 2)
        for b in card.buffers.values {
            for y in 0..<b.pixels.height {
                for x in 0..<b.pixels.width {
                    XCTAssertEqual(FakeCard.read(b.pixels, x, y), Scene.logical(output.canvas, x, y), "fb \(b.framebuffer) (\(x), \(y))")
                }
            }
        }
    }
}
