import DisplayCore
import Foundation
import Glibc
import Metrics
import Raster
import TestSupport
import XCTest

/// Displays unplugged and plugged in while the daemon runs, on virtual time with scripted uevents.
final class HotplugLoopTests: XCTestCase {
    func testUnpluggedItStopsSaysSoOnceAndComesBackAtThePlug() throws {
        let dir = try TestEnvironment.temporaryDirectory("hotplug-loop").path
        let h = try LoopHarness(config: RunLoopTests.base + "[metrics]\ntextfile = \(dir)/m.prom\nevery = 1\n", watchdogUsec: "2000000")
        h.waiting.at(1.0) { h.display?.connector = .disconnected }
        h.uevent("change", at: 1.0)
        var during: MetricsSamples?
        h.waiting.at(3.05) { during = try? MetricsSamples(parsing: String(contentsOfFile: dir + "/m.prom", encoding: .utf8)) }
        h.waiting.at(6.0) { h.display?.connector = .modesetAgain }
        h.uevent("change", at: 6.0)
        h.waiting.at(6.01) { h.display?.connector = .connected }
        h.waiting.signal(SIGTERM, at: 8)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.displays.count, 1, "held while unplugged, not opened again: \(h.log)")
        let d = h.displays[0]
        XCTAssertEqual(d.stamps.filter { $0.sinceStart < 6 }.count, 9, "frames until 0.9 s: at 1.0 s the uevent is taken before the frame")
        XCTAssertEqual(h.logged("display memory 320x240 disconnected: frames stop until it is plugged in again"), [1.0], h.log)
        // Looked at every 2 s without a uevent (one may be lost), said nothing more.
        XCTAssertEqual(d.connectorChecks, 1 + 2 + 1, "the uevent, the looks at 3 s and 5 s, the plug")
        XCTAssertEqual(h.logged("display memory 320x240 connected again"), [6.0], h.log)
        let back = d.stamps.indices.filter { d.stamps[$0].sinceStart >= 6 }
        XCTAssertEqual(d.damages[back[0]], Rect(x: 0, y: 0, width: 320, height: 240), "the whole frame first")
        XCTAssertEqual(back.count, 1 + 20, "then frames from 6.0 s on")
        let status = h.notifications.filter { $0.text.hasPrefix("STATUS=") }
        XCTAssertTrue(status.contains { $0.t == 1.0 && $0.text.contains("memory 320x240 disconnected") }, "\(status)")
        XCTAssertTrue(status.contains { $0.t == 6.0 && $0.text.hasPrefix("STATUS=memory 320x240") }, "\(status)")
        let pings = h.notified("WATCHDOG=1").filter { $0 > 1.5 && $0 < 6 }
        XCTAssertFalse(pings.isEmpty, "the watchdog is fed while unplugged")
        let m = try XCTUnwrap(during, h.log)
        XCTAssertEqual(m.current("pulsedot_display_state", label: "state"), "disconnected")
    }

    func testOnlyTheDrivenCardsEventsAreLookedAtAndALostOneCounts() throws {
        let h = try LoopHarness(config: RunLoopTests.base)
        h.uevent("change", "/devices/pci0000:00/0000:00:03.0/drm/card1", at: 0.5)
        h.uevent("change", "/devices/pci0000:00/0000:00:02.0/drm/card0/card0-HDMI-A-1", at: 1.0)
        h.uevent(nil, at: 1.5)
        h.waiting.signal(SIGTERM, at: 2)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.display?.connectorChecks, 2, "card0's connector and the overflow; not card1")
        XCTAssertEqual(h.displays.count, 1)
    }

    func testAFailedLinkGetsTheWholeFrameAgain() throws {
        let h = try LoopHarness(config: RunLoopTests.base)
        h.waiting.at(1.05) { h.display?.connector = .modesetAgain }
        h.uevent("change", at: 1.05)
        h.waiting.at(1.06) { h.display?.connector = .connected }
        h.waiting.signal(SIGTERM, at: 1.5)
        XCTAssertEqual(try h.run(), 0)
        let d = try XCTUnwrap(h.display)
        XCTAssertEqual(h.logged("link-status BAD, the mode was set again"), [1.05], h.log)
        let at = try XCTUnwrap(d.stamps.firstIndex { abs($0.sinceStart - 1.05) < 1e-6 }, "no frame at the relink")
        XCTAssertEqual(d.damages[at], Rect(x: 0, y: 0, width: 320, height: 240))
    }

    func testWhileBlankedNothingWakesTheScreenAndTheMorningLooks() throws {
        let h = try LoopHarness(config: BlankingLoopTests.config("08:01-08:02"))
        h.waiting.at(70) {
            h.display?.connector = .disconnected
            h.displayUnavailable = .init(description: "no connected connector on /dev/dri/card0", recovery: .retry)
        }
        h.uevent("remove", "/devices/pci0000:00/0000:00:02.0/drm/card0/card0-HDMI-A-1", at: 70)
        h.waiting.signal(SIGTERM, at: 121)
        XCTAssertEqual(try h.run(), 0)
        let d = try XCTUnwrap(h.displays.first)
        XCTAssertEqual(d.connectorChecks, 1, "looked at when the night ended, not at the uevent")
        let said = h.logged("disconnected: frames stop")
        XCTAssertEqual(said.count, 1, h.log)
        XCTAssertEqual(said.first ?? 0, 120.001, accuracy: 1e-6)
        XCTAssertEqual(h.openAttempts.filter { $0 > 60 && $0 < 120 }, [], "no display sought in the night")
    }

    func testAnotherMonitorWithoutTheConfiguredModeIsDrivenInItsOwn() throws {
        let h = try LoopHarness(config: RunLoopTests.base.replacingOccurrences(of: "output = none", with: "output = none\nmode = 1920x1080"))
        h.waiting.at(1.0) { h.display?.connector = .disconnected }
        h.uevent("change", at: 1.0)
        h.waiting.at(2.0) {
            h.display?.connector = .modeGone
            h.displayUnavailable = .init(description: "/dev/dri/card0 HDMI-A-1: mode 1920x1080 is not offered; offered: 1280x1024@60 (preferred)", recovery: .retry)
            h.displayUnavailableUnlessAutoMode = true
        }
        h.uevent("change", at: 2.0)
        h.waiting.signal(SIGTERM, at: 3)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.displays.count, 2, h.log)
        XCTAssertTrue(h.displays[0].closed)
        XCTAssertEqual(h.logged("the display plugged in does not offer mode 1920x1080: driving it in its own, 320x240"), [2.0], h.log)
        XCTAssertEqual(h.openedModes.last ?? "", "auto")
    }
}
