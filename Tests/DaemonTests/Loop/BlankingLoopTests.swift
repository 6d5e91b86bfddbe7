import DisplayCore
import Foundation
import Glibc
import Metrics
import Raster
import TestSupport
import XCTest

/// Night blanking on virtual time: virtual 0 s is 08:00 UTC. The schedule is read in the
/// harness's local time, which a test may give a daylight-saving change.
final class BlankingLoopTests: XCTestCase {
    static func config(_ blank: String, extra: String = "") -> String {
        RunLoopTests.base.replacingOccurrences(of: "fps = 10", with: "fps = 2")
            .replacingOccurrences(of: "staleAfter = 3", with: "staleAfter = 30")
            .replacingOccurrences(of: "[display]\n", with: "[display]\nblank = \(blank)\n\(extra)")
    }

    func testTheScreenGoesOffAndComesBackWithTheWholeFrameAndTheWatchdogFed() throws {
        let dir = try TestEnvironment.temporaryDirectory("blank-loop").path
        let h = try LoopHarness(config: Self.config("08:02-08:05") + "[metrics]\ntextfile = \(dir)/m.prom\nevery = 10\n",
                                watchdogUsec: "20000000")
        for t in stride(from: 1.0, through: 400, by: 1) { h.waiting.at(t) { h.source.deliver(at: h.waiting.now()) } }
        var during: MetricsSamples?, presentsAt: [Double: Int] = [:]
        h.waiting.at(200.5) { during = try? MetricsSamples(parsing: String(contentsOfFile: dir + "/m.prom", encoding: .utf8)) }
        for t in [119.9, 150.0, 299.9] { h.waiting.at(t) { presentsAt[t] = h.display?.presents } }
        h.waiting.signal(SIGTERM, at: 400)
        XCTAssertEqual(try h.run(), 0)
        let d = try XCTUnwrap(h.display)
        XCTAssertEqual(h.displays.count, 1, "the same display, switched off and on")
        XCTAssertEqual(d.blankCalls, 1)
        XCTAssertEqual(d.unblankCalls, 1)
        XCTAssertEqual(d.presentsWhileBlanked, 0)
        XCTAssertEqual(presentsAt[150.0], presentsAt[119.9].map { $0 + 1 }, "the frame of 120.0 s, then nothing")
        XCTAssertEqual(presentsAt[299.9], presentsAt[150.0], "nothing drawn while off")
        let off = try XCTUnwrap(h.logged("night blanking (08:02-08:05): the screen goes off").first, h.log)
        XCTAssertEqual(off, 120, accuracy: 0.01, "at 08:02 by the wall clock")
        let on = try XCTUnwrap(h.logged("night blanking over: the screen comes back").first, h.log)
        XCTAssertEqual(on, 300, accuracy: 0.01)
        // The whole frame first after the night, then frames at the rate again.
        let afterOn = d.stamps.indices.filter { d.stamps[$0].sinceStart >= 300 }
        let first = try XCTUnwrap(afterOn.first)
        XCTAssertEqual(d.damages[first], Rect(x: 0, y: 0, width: 320, height: 240))
        XCTAssertEqual(afterOn.count, 201, "the redraw, then 2 fps for 100 s")
        // systemd keeps hearing from the loop, and is told the screen is off.
        let pings = h.notified("WATCHDOG=1").filter { $0 > 125 && $0 < 295 }
        XCTAssertGreaterThanOrEqual(pings.count, 16, "a ping every 10 s while off: \(pings)")
        XCTAssertTrue(h.notifications.contains { $0.t == 120 || abs($0.t - 120) < 0.01 && $0.text.hasPrefix("STATUS=screen off for the night (blank 08:02-08:05)") },
                      "\(h.notifications.filter { $0.text.hasPrefix("STATUS") })")
        let m = try XCTUnwrap(during, h.log)
        XCTAssertEqual(m.current("pulsedot_display_state", label: "state"), "blanked")
        XCTAssertEqual(m.current("pulsedot_fix_state", label: "state"), "live", "fixes are still taken")
    }

    func testADaylightSavingChangeMovesTheEndToTheLocalClock() throws {
        // UTC+1 until 08:10 UTC, then UTC+2: at 600 s local time jumps from 09:10 to 10:10.
        let change = LoopHarness.wallStart + 600
        let h = try LoopHarness(config: Self.config("09:03-10:10"))
        h.localMinuteOfDay = { wall in
            let offset = wall < change ? 3600.0 : 7200.0
            return Int(((wall + offset) / 60).rounded(.down)) % 1440
        }
        h.waiting.limit = 800
        h.waiting.signal(SIGTERM, at: 700)
        XCTAssertEqual(try h.run(), 0)
        assertTimes(h.logged("the screen goes off"), [180.001], h.log)
        assertTimes(h.logged("the screen comes back"), [600.001], "10:10 local came an hour early by the clock: \(h.log)")
    }

    func testStartedAtNightTheDisplayIsNotLitUntilMorningAndSpansCrossMidnight() throws {
        // 23:30-08:01 crosses midnight; at 08:00 UTC it is on.
        let h = try LoopHarness(config: Self.config("23:30-08:01"))
        h.waiting.signal(SIGTERM, at: 90)
        XCTAssertEqual(try h.run(), 0)
        assertTimes(h.openAttempts, [60.001], "no display opened, not even for a moment, before 08:01: \(h.log)")
        XCTAssertEqual(h.logged("the screen goes off"), [0], h.log)
        XCTAssertEqual(h.display?.blankCalls, 0, "nothing to switch off: it was never lit")
        XCTAssertGreaterThan(h.display?.presents ?? 0, 50)
    }

    func testEdgeCommandsRunAndAFailureIsSaid() throws {
        let dir = try TestEnvironment.temporaryDirectory("blank-commands").path
        let h = try LoopHarness(config: Self.config("08:01-08:02", extra: """
            blankCommand = echo off >> \(dir)/edges
            unblankCommand = echo on >> \(dir)/edges; exit 3

            """))
        h.waiting.at(60.5) { h.display?.blankOutcome = .black(reason: "memory 320x240: cannot power down; the screen shows black instead") }
        // The processes are real: give each a moment of real time before the loop looks again.
        h.waiting.at(61) { usleep(200_000) }
        h.waiting.at(121) { usleep(200_000) }
        h.waiting.signal(SIGTERM, at: 200)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(try String(contentsOfFile: dir + "/edges", encoding: .utf8), "off\non\n")
        assertTimes(h.logged("night blanking: 'echo on >> \(dir)/edges; exit 3' exited with status 3"), [180.001], h.log)
        XCTAssertTrue(h.logged("night blanking: 'echo off").isEmpty, "a command that succeeded is not mentioned: \(h.log)")
    }

    func testBlackInsteadOfPowerDownIsSaidOnce() throws {
        let h = try LoopHarness(config: Self.config("08:01-08:02,08:03-08:04"))
        h.waiting.at(1) { h.display?.blankOutcome = .black(reason: "memory 320x240: DPMS Off failed (x); the screen shows black instead") }
        h.waiting.signal(SIGTERM, at: 300)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.display?.blankCalls, 2)
        XCTAssertEqual(h.logged("the screen shows black instead").count, 1, h.log)
    }

    private func assertTimes(_ got: [Double], _ want: [Double], _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(got.count, want.count, "\(got) \(message)", file: file, line: line)
        for (g, w) in zip(got, want) { XCTAssertEqual(g, w, accuracy: 1e-6, message, file: file, line: line) }
    }
}
