import DisplayCore
import DisplayDoubles
import Loop
import Raster
import Syscall
import XCTest

/// The frame loop alone, with the smallest client: a display opened at the retry time, a frame
/// drawn at each tick, a failed display let go and opened again a second later, a signal ending it.
final class FrameLoopTests: XCTestCase {
    final class Client: FrameLoopClient {
        let waiting: VirtualWaiting
        private(set) var running = true
        private(set) var shown: RecordingDisplay?
        private(set) var opened: [(t: Double, display: RecordingDisplay)] = []
        private(set) var failures: [(t: Double, reason: String)] = []
        private(set) var presented: [Double] = []
        private(set) var turns = 0
        var displayRetryAt: MonotonicInstant?
        /// What the next display opened fails its first present with.
        var nextFailure: DisplayFailure?

        init(waiting: VirtualWaiting) {
            self.waiting = waiting
            displayRetryAt = waiting.now()
        }

        var loopDisplay: (any Display)? { shown }
        var drawsFrames: Bool { shown != nil }
        var sourceDescriptor: Int32 { -1 }
        var sourceEvents: Int16 { 0 }
        var hotplugDescriptor: Int32? { nil }
        func nextDeadline() -> MonotonicInstant? { nil }
        func handle(signal: Int32, now: MonotonicInstant) { running = false }
        func displayEventsHandled(now: MonotonicInstant) throws(DisplayFailure) {}
        func woke(_ wakeup: Wakeup, now: MonotonicInstant) {}

        func drawFrame(now: MonotonicInstant) -> FrameLoop.Frame {
            let t = waiting.elapsed
            return FrameLoop.Frame(damage: DamageRegion(Rect(x: 0, y: 0, width: 4, height: 4)), stamp: FrameStamp(sinceStart: t, monotonic: t))
        }

        func framePresented(drawnAt now: MonotonicInstant, end: MonotonicInstant) { presented.append(waiting.elapsed) }

        func displayFailed(_ failure: DisplayFailure, now: MonotonicInstant) {
            shown?.close()
            shown = nil
            failures.append((waiting.elapsed, failure.description))
            displayRetryAt = now.advanced(by: .seconds(1))
        }

        func turnDone(now: MonotonicInstant) { turns += 1 }

        func retryDisplay(now: MonotonicInstant) {
            displayRetryAt = nil
            let display = RecordingDisplay()
            display.start()
            display.failNextPresent = nextFailure
            nextFailure = nil
            opened.append((waiting.elapsed, display))
            shown = display
        }

        func turnEnded(now: MonotonicInstant) {}
    }

    func testALostDisplayIsLetGoAndOpenedAgainAtItsRetryTimeAndFramesGoToTheNewOne() throws {
        let waiting = VirtualWaiting()
        try waiting.setFrameRate(10)
        let client = Client(waiting: waiting)
        client.nextFailure = DisplayFailure(description: "card0: Virtual-1 disconnected", recovery: .retry)
        waiting.signal(15, at: 2.05)
        try FrameLoop(waiting: waiting).run(client)

        XCTAssertFalse(client.running)
        XCTAssertEqual(client.opened.count, 2)
        XCTAssertEqual(client.opened.first?.t ?? -1, 0, accuracy: 1e-9, "the first display is opened at once")
        XCTAssertEqual(client.failures.map(\.reason), ["card0: Virtual-1 disconnected"])
        XCTAssertEqual(client.failures.first?.t ?? -1, 0.1, accuracy: 1e-6, "the first frame's present failed")
        XCTAssertTrue(client.opened[0].display.closed)
        XCTAssertEqual(client.opened[1].t, 1.1, accuracy: 1e-6, "opened again a second after the loss")
        XCTAssertFalse(client.opened[1].display.closed)
        // Frames at each tick from the next one on, each stamped on the display it went to.
        XCTAssertEqual(client.presented.first ?? -1, 1.2, accuracy: 1e-6)
        XCTAssertEqual(client.presented.count, 9)
        XCTAssertEqual(client.opened[1].display.presents, client.presented.count)
        XCTAssertEqual(client.opened[1].display.stamps.map(\.sinceStart), client.presented)
        XCTAssertEqual(client.opened[0].display.presents, 0)
        XCTAssertGreaterThan(client.turns, client.presented.count)
    }

    func testNoFramesAreDrawnWhileNoDisplayIsHeld() throws {
        let waiting = VirtualWaiting()
        try waiting.setFrameRate(10)
        let client = Client(waiting: waiting)
        client.displayRetryAt = waiting.instant(5)
        waiting.signal(15, at: 3)
        try FrameLoop(waiting: waiting).run(client)

        XCTAssertTrue(client.opened.isEmpty)
        XCTAssertTrue(client.presented.isEmpty)
        // The loop slept until the signal: the timer is not polled without a display.
        XCTAssertLessThanOrEqual(waiting.waits, 2)
    }
}
