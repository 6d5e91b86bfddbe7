import FBDev
import Foundation
import Glibc
import Raster
import XCTest

/// FBIO_WAITFORVSYNC has no timeout: a driver that never signals must not freeze the loop. The
/// wait runs on its own thread; one that overruns `vsyncBound` hands the pacing to the frame timer.
final class VSyncBoundTests: XCTestCase {
    private var hung: MemoryFramebuffer?

    override func tearDown() {
        // Lets the abandoned wait thread end.
        hung?.vsyncHangs = false
    }

    private let square = Rect(x: 1, y: 1, width: 5, height: 5)

    func testAWaitThatNeverEndsIsAbandonedAndTheTimerPacesSaidOnce() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        fb.vsyncErrno = 0
        hung = fb
        var lines: [String] = []
        let output = try Scene.make(fb) { lines.append($0) }
        try output.start()
        XCTAssertEqual(output.pacing, .vsync)
        fb.vsyncHangs = true
        Scene.fill(output.canvas, square, Scene.pattern(1))
        try output.present(damage: square)
        // Frames go on arriving while the wait hangs: each one returns at once, its damage kept.
        let began = Date()
        for _ in 0..<3 { try output.present(damage: square) }
        XCTAssertEqual(output.statistics.deferred, 3)
        XCTAssertEqual(output.statistics.pixelsCopied, 0)
        fb.advance(FBDevOutput.vsyncBound + 1)
        Scene.fill(output.canvas, Rect(x: 10, y: 10, width: 4, height: 4), Scene.pattern(2))
        try output.present(damage: Rect(x: 10, y: 10, width: 4, height: 4))
        XCTAssertLessThan(Date().timeIntervalSince(began), 1, "the loop never waited for the hung driver")
        XCTAssertEqual(output.pacing, .timer)
        XCTAssertNil(output.pollDescriptor, "nothing to poll once the timer paces")
        XCTAssertEqual(lines.filter { $0.contains("did not return within 200 ms") },
                       ["/dev/fb0 (memfb): FBIO_WAITFORVSYNC did not return within 200 ms; the frame timer paces from now on"])
        Scene.assertPanelShowsCanvas(fb, output, "the kept damage and the new frame, written at once")
        let copied = output.statistics.pixelsCopied
        try output.present(damage: square)
        XCTAssertEqual(output.statistics.pixelsCopied, copied + 25, "frames are copied as they come")
        XCTAssertEqual(lines.filter { $0.contains("did not return") }.count, 1)
        output.close()
    }

    func testAPanWaitingForItsVBlankDefersTheNextFrameAndCountsWhenItHasPassed() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60)
        fb.vsyncErrno = 0
        let output = try Scene.make(fb)
        try output.start()
        Scene.fill(output.canvas, square, Scene.pattern(2))
        try output.present(damage: square)
        try Scene.settle(output)
        XCTAssertEqual(output.presentation, .init(presented: 1, waitedNanoseconds: fb.vsyncPeriod))
        fb.vsyncHangs = true
        hung = fb
        Scene.fill(output.canvas, Rect(x: 20, y: 10, width: 5, height: 5), Scene.pattern(3))
        try output.present(damage: Rect(x: 20, y: 10, width: 5, height: 5))
        let front = output.frontScreen
        // The old front may still be scanned out: the next frame must not write it yet.
        Scene.fill(output.canvas, Rect(x: 30, y: 20, width: 4, height: 4), Scene.pattern(4))
        try output.present(damage: Rect(x: 30, y: 20, width: 4, height: 4))
        XCTAssertEqual(output.statistics.deferred, 1)
        XCTAssertEqual(output.frontScreen, front)
        fb.vsyncHangs = false
        try Scene.settle(output)
        XCTAssertEqual(output.presentation.presented, 2)
        try output.present(damage: .empty)
        try Scene.settle(output)
        Scene.assertPanelShowsCanvas(fb, output, "after the deferred frame")
        XCTAssertEqual(output.presentation.presented, 3)
    }

    func testAStartWhoseVSyncNeverReturnsIsBounded() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        fb.vsyncErrno = 0
        fb.vsyncHangs = true
        hung = fb
        var lines: [String] = []
        let output = try Scene.make(fb) { lines.append($0) }
        let began = Date()
        try output.start()
        let took = Date().timeIntervalSince(began)
        XCTAssertGreaterThanOrEqual(took, 0.2)
        XCTAssertLessThan(took, 1)
        XCTAssertEqual(output.pacing, .timer)
        XCTAssertTrue(lines.last?.hasSuffix("; FBIO_WAITFORVSYNC did not return within 200 ms: the frame timer paces") ?? false, "\(lines)")
        try output.present(damage: square)
        XCTAssertEqual(output.statistics.pixelsCopied, 25)
        output.close()
    }
}
