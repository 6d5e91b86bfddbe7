import DisplayCore
import Foundation
import Glibc
import Metrics
import Outputs
import TestSupport
import XCTest

/// The daemon's loop in-process on virtual time: no QEMU, no gpsd, no sleeping.
final class RunLoopTests: XCTestCase {
    static let base = """
        [display]
        output = none
        fps = 10
        [log]
        summaryEvery = 0
        [source]
        staleAfter = 3

        """

    func testFramesComeAtTheConfiguredRateAndSIGTERMStopsCleanly() throws {
        let h = try LoopHarness(config: Self.base)
        h.waiting.signal(SIGTERM, at: 2.05)
        XCTAssertEqual(try h.run(), 0)
        let d = try XCTUnwrap(h.display)
        XCTAssertTrue(d.started)
        XCTAssertEqual(d.presents, 20, h.log)
        XCTAssertTrue(d.closed, "the display is put back on SIGTERM")
        XCTAssertTrue(h.waiting.closed)
        XCTAssertEqual(h.source.started, 1)
        XCTAssertEqual(h.source.stopped, 1)
        XCTAssertEqual(h.logged("SIGTERM: stopping"), [2.05])
        XCTAssertEqual(h.logged("stopped after 20 frames").count, 1, h.log)
    }

    func testStaleLookAfterStaleAfterSecondsAndLiveAgainOnTheNextFix() throws {
        let h = try LoopHarness(config: Self.base)
        h.waiting.at(0.5) { h.source.deliver(at: h.waiting.now()) }
        // Silence from 0.5 s: stale at 3.5 s (staleAfter 3), as the frame of that moment shows.
        h.waiting.at(6.0) { h.source.deliver(at: h.waiting.now()) }
        h.waiting.signal(SIGTERM, at: 7)
        XCTAssertEqual(try h.run(), 0)
        let first = try XCTUnwrap(h.logged("first fix").first, h.log)
        XCTAssertEqual(first, 0.5, accuracy: 0.001, "shown by the frame drawn right after the fix")
        let stale = try XCTUnwrap(h.logged("no fix for 3 s: the dot shows the stale look").first, h.log)
        XCTAssertEqual(stale, 3.5, accuracy: 0.001, h.log)
        let again = try XCTUnwrap(h.logged("fix again").first, h.log)
        XCTAssertEqual(again, 6.0, accuracy: 0.001, h.log)
        let states = try XCTUnwrap(h.display).stamps.map(\.state)
        XCTAssertEqual(states.first, "nofix")
        XCTAssertTrue(states.contains("stale"))
        XCTAssertEqual(states.last, "live")
    }

    func testALostDisplayIsWaitedForAndDrivenAgainWhenItIsBack() throws {
        let h = try LoopHarness(config: Self.base, watchdogUsec: "4000000")
        h.waiting.at(1.0) {
            h.display?.failNextPresent = .init(description: "card0: Virtual-1 disconnected", recovery: .retry)
            h.displayUnavailable = .init(description: "no connected connector on card0", recovery: .retry)
        }
        h.waiting.at(5.5) { h.displayUnavailable = nil }
        h.waiting.signal(SIGTERM, at: 8)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.displays.count, 2, h.log)
        XCTAssertTrue(h.displays[0].closed, "the lost display is closed before waiting")
        XCTAssertEqual(h.logged("lost: card0: Virtual-1 disconnected").count, 1, h.log)
        // Said once however often it is retried: 1 s after the loss, then every 2 s.
        XCTAssertEqual(h.logged("waiting for display: no connected connector on card0").count, 1, h.log)
        XCTAssertEqual(h.openAttempts.map { ($0 * 10).rounded() / 10 }, [0, 2, 4, 6], h.log)
        XCTAssertTrue(h.displays[1].started)
        XCTAssertGreaterThan(h.displays[1].presents, 15, "frames resume on the new display")
        // STATUS says the loss, then the reason it waits on, and nothing more while that repeats.
        let waitingStatus = h.notifications.filter { $0.text.contains("STATUS=waiting for display") }.map(\.t)
        XCTAssertEqual(waitingStatus, [1, 2], "\(h.notifications)")
        XCTAssertTrue(h.notifications.contains { $0.t == 6 && $0.text.hasPrefix("STATUS=memory 320x240") }, "\(h.notifications)")
        // While nothing is driven the loop still pings the watchdog (waiting is healthy).
        let pings = h.notified("WATCHDOG=1")
        XCTAssertTrue(pings.contains { $0 > 2 && $0 < 6 }, "\(pings)")
    }

    /// Asked for planes, a display without a sprite plane composes in software: the start line
    /// says what was asked, the output's line and STATUS= the composition in use.
    func testCompositionOnPlanesIsSaidToBeSoftware() throws {
        let h = try LoopHarness(config: Self.base.replacingOccurrences(of: "fps = 10", with: "fps = 10\ncomposition = planes"),
                                watchdogUsec: "10000000")
        h.waiting.signal(SIGTERM, at: 1.05)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.logged("running: source").count, 1, h.log)
        XCTAssertEqual(h.logged("output none, composition planes, 10 fps").count, 1, h.log)
        XCTAssertEqual(h.logged("px/pt, software composition").count, 1, h.log)
        let status = h.notifications.filter { $0.text.contains("STATUS=memory 320x240") }.map(\.text)
        XCTAssertFalse(status.isEmpty, "\(h.notifications)")
        for text in status { XCTAssertTrue(text.contains("STATUS=memory 320x240 · software composition · "), text) }
    }

    func testReloadTakesAGoodFileAndKeepsTheRunningOneOnABrokenFile() throws {
        let h = try LoopHarness(config: Self.base, watchdogUsec: "10000000")
        h.waiting.at(1.0) { h.configText = Self.base.replacingOccurrences(of: "fps = 10", with: "fps = 20") }
        h.waiting.signal(SIGHUP, at: 1.0)
        h.waiting.at(3.0) { h.configText = Self.base + "[dot]\nannotationColor = blue\n" }
        h.waiting.signal(SIGHUP, at: 3.0)
        h.waiting.signal(SIGTERM, at: 5.0)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.logged("configuration reloaded").first, 1.0, h.log)
        XCTAssertEqual(h.logged("reload rejected, the running configuration stays").first, 3.0, h.log)
        XCTAssertTrue(h.lines.contains { $0.text.contains("test.conf:") && $0.text.contains("annotationColor") }, h.log)
        // 10 frames in the first second, then 20 per second for four more: the new rate stayed.
        XCTAssertEqual(h.display?.presents, 10 + 80, h.log)
        XCTAssertEqual(h.displays.count, 1, "fps alone does not reopen the display")
        let reloading = h.notified("RELOADING=1"), ready = h.notified("READY=1")
        XCTAssertEqual(reloading, [1.0, 3.0], "\(h.notifications)")
        XCTAssertEqual(ready, [0, 1.0, 3.0], "READY=1 after each reload, good or broken: \(h.notifications)")
    }

    func testASilentSourceGoesStaleAndComesBackLive() throws {
        let h = try LoopHarness(config: Self.base, watchdogUsec: "10000000")
        for t in stride(from: 0.25, through: 2.25, by: 1) { h.waiting.at(t) { h.source.deliver(at: h.waiting.now()) } }
        h.waiting.at(3) { h.source.say("gpsd 127.0.0.1:2947: silent for 10 s; reconnecting") }
        for t in stride(from: 9.25, through: 11.25, by: 1) { h.waiting.at(t) { h.source.deliver(at: h.waiting.now()) } }
        h.waiting.signal(SIGTERM, at: 12)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.logged("silent for 10 s").count, 1, h.log)
        let status = h.notifications.filter { $0.text.hasPrefix("STATUS=") }.map { ($0.t, $0.text) }
        XCTAssertTrue(status.contains { $0.1.contains("· stale ·") && $0.0 > 5 && $0.0 < 6 }, "\(status)")
        XCTAssertTrue(status.contains { $0.1.contains("· live ·") && $0.0 > 9 }, "\(status)")
    }

    func testTheSummaryLineComesEverySummaryEverySeconds() throws {
        let h = try LoopHarness(config: Self.base.replacingOccurrences(of: "summaryEvery = 0", with: "summaryEvery = 4")
            .replacingOccurrences(of: "staleAfter = 3", with: "staleAfter = 30"))
        h.waiting.at(1) { h.source.deliver(at: h.waiting.now()) }
        h.waiting.at(2) { h.source.reconnectCount = 2 }
        h.waiting.signal(SIGTERM, at: 9)
        XCTAssertEqual(try h.run(), 0)
        let summaries = h.lines.filter { $0.text.contains("summary:") }
        XCTAssertEqual(summaries.map(\.t), [4, 8], h.log)
        XCTAssertTrue(summaries[0].text.contains("10.0 fps, frame work p50 0.00 ms p99 0.00 ms, fix age 3.0 s, live, gpsd reconnects 2, skipped lines 0"),
                      summaries[0].text)
    }

    /// A display that takes 15 ms to show each frame (a flip's completion, a vblank) after 2 ms of
    /// work: the summary and the metrics say the two apart.
    func testTheSummaryTellsTheWorkFromTheDisplaysWait() throws {
        let dir = try TestEnvironment.temporaryDirectory("wait-summary").path
        let h = try LoopHarness(config: Self.base.replacingOccurrences(of: "summaryEvery = 0", with: "summaryEvery = 4")
            + "[metrics]\ntextfile = \(dir)/m.prom\nevery = 1\n")
        h.waiting.at(0.01) {
            h.display?.waitPerFrame = 15_000_000
            h.display?.onPresent = { h.waiting.spend(0.002) }
        }
        var metrics: MetricsSamples?
        h.waiting.at(4.05) { metrics = try? MetricsSamples(parsing: String(contentsOfFile: dir + "/m.prom", encoding: .utf8)) }
        h.waiting.signal(SIGTERM, at: 4.1)
        XCTAssertEqual(try h.run(), 0)
        let summary = try XCTUnwrap(h.lines.first { $0.text.contains("summary:") }, h.log)
        XCTAssertTrue(summary.text.contains("frame work p50 2.00 ms p99 2.00 ms, display wait p50 15.00 ms p99 15.00 ms"), summary.text)
        let m = try XCTUnwrap(metrics, h.log)
        XCTAssertEqual(try XCTUnwrap(m.value("pulsedot_display_wait_seconds_total")), 40 * 0.015, accuracy: 1e-9)
        XCTAssertEqual(m.value("pulsedot_frame_duration_seconds_bucket", ["le": "0.0025"]), 40, "the wait is not in the work")
    }

    func testTheWatchdogIsPingedAtHalfItsIntervalWhileFramesAreDrawnAndNotWhenTheyStop() throws {
        let h = try LoopHarness(config: Self.base, watchdogUsec: "2000000")
        // The frame path freezes at 4.05 s: the loop turns, but nothing is drawn.
        h.waiting.at(4.05) { h.waiting.ticking = false }
        h.waiting.signal(SIGTERM, at: 9)
        XCTAssertEqual(try h.run(), 0)
        let pings = h.notified("WATCHDOG=1")
        XCTAssertEqual(pings.filter { $0 < 4.05 }, [0, 1, 2, 3, 4], "at READY=1, then once a second (half of WATCHDOG_USEC)")
        XCTAssertTrue(pings.allSatisfy { $0 <= 6.05 }, "no ping once frames have stopped for 2 s: \(pings)")
    }

    func testTheWatchdogIsPingedFromTheStartWhileWaitingForADisplay() throws {
        let h = try LoopHarness(config: Self.base, watchdogUsec: "400000")
        h.displayUnavailable = .init(description: "no DRM device", recovery: .retry)
        h.waiting.signal(SIGTERM, at: 3)
        XCTAssertEqual(try h.run(), 0)
        let pings = h.notified("WATCHDOG=1")
        // Every 0.2 s from READY=1 on, not only once the display's first retry wakes the loop.
        XCTAssertEqual(pings.first, 0, "\(pings)")
        XCTAssertEqual(pings.count, 16, "at 0, 0.2, … 3.0 s: \(pings)")
    }

    func testSIGUSR1GoesIntoADisplaysOwnRecord() throws {
        let h = try LoopHarness(config: Self.base)
        h.waiting.signal(SIGUSR1, at: 1.0)
        h.waiting.signal(SIGTERM, at: 1.5)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.display?.recordRequests, 1)
        XCTAssertTrue(h.logged("snapshot:").isEmpty, "no file of the daemon's own: \(h.log)")
    }
}
