import Glibc
import KMS
import Raster
import XCTest

/// Leaving while a page flip is still in flight: its event is read before the console's CRTC comes
/// back and the buffers go, but never for longer than 100 ms on the card's clock.
final class PendingFlipCloseTests: XCTestCase {
    private var lines: [String] = []

    /// A started flip output with one flip queued and its event not yet read.
    private func flipInFlight(_ card: FakeCard) throws -> KMSOutput {
        let output = try Scene.make(card, KMSConfiguration(update: .flip)) { [unowned self] in lines.append($0) }
        Scene.fill(output.canvas, output.canvas.bounds) { _, _ in Scene.background }
        try output.start()
        Scene.fill(output.canvas, Rect(x: 8, y: 8, width: 6, height: 6), Scene.pattern(1))
        try output.present(damage: Rect(x: 8, y: 8, width: 6, height: 6))
        XCTAssertTrue(output.isFlipPending)
        return output
    }

    private func index(_ card: FakeCard, _ prefix: String, file: StaticString = #filePath, line: UInt = #line) -> Int {
        guard let i = card.log.firstIndex(where: { $0.hasPrefix(prefix) }) else {
            XCTFail("no \(prefix) in \(card.log)", file: file, line: line)
            return -1
        }
        return i
    }

    private func assertRestoredAndFreedAfterTheWait(_ card: FakeCard, file: StaticString = #filePath, line: UInt = #line) {
        let wait = index(card, "waitForEvents", file: file, line: line)
        let restore = index(card, "restoreCrtc", file: file, line: line)
        XCTAssertLessThan(wait, restore, "the restore waits for the wait", file: file, line: line)
        let frees = card.log.indices.filter { card.log[$0].hasPrefix("destroyBuffer") }
        XCTAssertEqual(frees.count, 2, file: file, line: line)
        XCTAssertTrue(frees.allSatisfy { $0 > restore }, "buffers go after the console is back", file: file, line: line)
        XCTAssertEqual(card.restored?.framebuffer, card.consoleFramebuffer, file: file, line: line)
        XCTAssertTrue(card.buffers.isEmpty, file: file, line: line)
        XCTAssertTrue(card.closed, file: file, line: line)
    }

    func testCloseReadsTheFlipsEventBeforeRestoringAndFreeing() throws {
        let card = FakeCard.simple()
        card.flipEventAfter = .milliseconds(16)
        let output = try flipInFlight(card)
        let flipped = try XCTUnwrap(card.pendingFlip)
        output.close()
        XCTAssertEqual(card.eventWaits, [100])
        let done = index(card, "flip done fb \(flipped)")
        XCTAssertLessThan(index(card, "waitForEvents"), done)
        XCTAssertLessThan(done, index(card, "restoreCrtc"), "the console comes back only after the flip's event")
        assertRestoredAndFreedAfterTheWait(card)
        XCTAssertNil(card.pendingFlip)
        XCTAssertEqual(lines.filter { $0.contains("page flip") }, [])
    }

    func testAFlipThatNeverCompletesIsGivenUpAfter100Milliseconds() throws {
        let card = FakeCard.simple()
        card.flipEventAfter = nil
        let output = try flipInFlight(card)
        let before = card.now
        output.close()
        XCTAssertEqual(card.eventWaits, [100], "one wait for the whole bound, then no more")
        XCTAssertEqual(before.duration(to: card.now), .milliseconds(100))
        XCTAssertFalse(card.log.contains { $0.hasPrefix("flip done") })
        assertRestoredAndFreedAfterTheWait(card)
        XCTAssertEqual(lines.filter { $0.contains("page flip") },
                       ["/dev/dri/card0 (fake) Virtual-1: the last page flip did not complete within 100 ms; restoring the console anyway"])
    }

    /// A signal ends a wait early; the next wait gets only what is left of the 100 ms.
    func testInterruptedWaitsShareTheOneBound() throws {
        let card = FakeCard.simple()
        card.flipEventAfter = nil
        card.interruptedWaits = [.milliseconds(30), .milliseconds(45)]
        let output = try flipInFlight(card)
        let before = card.now
        output.close()
        XCTAssertEqual(card.eventWaits, [100, 70, 25])
        XCTAssertEqual(before.duration(to: card.now), .milliseconds(100))
        assertRestoredAndFreedAfterTheWait(card)
    }

    func testAFlipCompletingAfterAnInterruptedWaitIsStillWaitedFor() throws {
        let card = FakeCard.simple()
        card.flipEventAfter = .milliseconds(20)
        card.interruptedWaits = [.milliseconds(10)]
        let output = try flipInFlight(card)
        output.close()
        XCTAssertEqual(card.eventWaits, [100, 90])
        XCTAssertLessThan(index(card, "flip done"), index(card, "restoreCrtc"))
        assertRestoredAndFreedAfterTheWait(card)
    }

    func testNothingInFlightMeansNoWait() throws {
        let card = FakeCard.simple()
        let output = try flipInFlight(card)
        try output.handleEvents()
        output.close()
        XCTAssertEqual(card.eventWaits, [])
        XCTAssertEqual(card.restored?.framebuffer, card.consoleFramebuffer)

        let damage = FakeCard.simple()
        damage.dirtyErrno = 0
        let inPlace = try Scene.make(damage, KMSConfiguration(update: .damage))
        try inPlace.start()
        try inPlace.present(damage: Rect(x: 0, y: 0, width: 4, height: 4))
        inPlace.close()
        XCTAssertEqual(damage.eventWaits, [])
    }

    func testAFailedWaitStillRestoresAndFrees() throws {
        let card = FakeCard.simple()
        card.failures["waitForEvents"] = [EIO]
        let output = try flipInFlight(card)
        output.close()
        assertRestoredAndFreedAfterTheWait(card)
        XCTAssertEqual(lines.filter { $0.contains("page flip") },
                       ["/dev/dri/card0 (fake) Virtual-1: waiting for the last page flip: waitForEvents /dev/dri/card0: Input/output error (errno 5); restoring the console anyway"])
    }

    func testADeviceGoneWhileWaitingIsNotWorthAWord() throws {
        let card = FakeCard.simple()
        card.failures["handleEvents"] = [ENODEV]
        let output = try flipInFlight(card)
        output.close()
        XCTAssertEqual(card.eventWaits, [100], "no second wait on a device that went away")
        assertRestoredAndFreedAfterTheWait(card)
        XCTAssertEqual(lines.filter { $0.contains("page flip") }, [])
    }
}
