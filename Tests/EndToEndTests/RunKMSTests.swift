import Foundation
import TestSupport
import XCTest

/// `pulsedot run` on a real kernel driver in QEMU: the daemon's own loop (not `show`) drives the
/// display through KMS, writes a snapshot on SIGUSR1, takes a reload, holds on through an unplug
/// and a replug, switches the connector off for the night and on again, and gives the console
/// back on SIGTERM; then a bus's daemon shows the transit banner changing at a stop
/// (RunKMSTransitBanner.swift) — all on one boot.
final class RunKMSTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipIf(TestEnvironment.optedOut("qemu"), "PULSEDOT_SKIP contains qemu")
    }

    func testRunDrivesTheDisplayAndGivesTheConsoleBack() throws {
        let bus = try TransitBannerGuest()
        defer { bus.remove() }
        let vm = try QEMUMachine.boot(display: .bochs, files: bus.files)
        defer { vm.shutdown() }
        let console = ScreenImage(try vm.stableScreendump())
        // A stop kiosk: fixed position (which centres the map), the halo off so the screen settles.
        let look = "--set delayBetweenPulseCycles=inf --set scale=2"
        XCTAssertEqual(try vm.run("printf '[map]\\nzoom = 17\\n' > /tmp/pulsedot.conf").status, 0)
        let pid = try vm.spawn("STATE_DIRECTORY=/tmp pulsedot run --config /tmp/pulsedot.conf --set display.output=auto "
                               + "--set source.position=45.5017,-73.5673 --set display.fps=20 --set log.level=debug \(look)")
        let log = try vm.waitForOutput(pid, containing: "<5>first fix at 45.5017,-73.5673")
        XCTAssertTrue(log.contains("<6>output /dev/dri/card0 (bochs-drm) Virtual-1 1280x800"), log)
        XCTAssertTrue(log.contains("canvas 1280x800, scale 2 px/pt"), log)
        let screen = ScreenImage(try vm.stableScreendump { ScreenImage($0) != console })
        XCTAssertEqual(screen.width, 1280)
        // What the panel shows is what `render` makes of the same look, at the canvas centre.
        let render = try HeadlessRender.frame(at: 5, width: 1280, height: 800, scale: 2,
                                              extra: ["--set", "delayBetweenPulseCycles=inf"])
        let worst = screen.maxDifference(around: 640, 400, side: 120, against: render, around: 640, 400)
        XCTAssertLessThanOrEqual(worst.difference, 3, "screen and render differ at (\(worst.x), \(worst.y))")
        let dot = try XCTUnwrap(screen.centroid(of: KMSShowTests.dotColor), "no dot on the screen")
        XCTAssertEqual(dot.x, 640, accuracy: 1)
        XCTAssertEqual(dot.y, 400, accuracy: 1)

        // SIGUSR1: a PNG of the canvas in $STATE_DIRECTORY.
        _ = try vm.run("kill -USR1 \(pid)")
        let snapped = try vm.waitForOutput(pid, containing: "<5>snapshot: /tmp/snapshot-")
        let listing = try vm.run("ls /tmp/snapshot-*.png")
        XCTAssertEqual(listing.status, 0, snapped)

        // SIGHUP with a new colour: the output stays, a new view draws into its canvas.
        XCTAssertEqual(try vm.run("printf '[dot]\\nannotationColor = #FF3B30\\n' > /tmp/pulsedot.conf").status, 0)
        _ = try vm.run("kill -HUP \(pid)")
        try vm.waitForOutput(pid, containing: "<5>configuration reloaded")
        let red = ScreenImage(try vm.stableScreendump { ScreenImage($0).centroid(of: (255, 59, 48)) != nil })
        let redDot = try XCTUnwrap(red.centroid(of: (255, 59, 48)), "the reloaded colour is not on the screen")
        XCTAssertEqual(redDot.x, 640, accuracy: 1)
        XCTAssertEqual(redDot.y, 400, accuracy: 1)
        XCTAssertNil(red.centroid(of: KMSShowTests.dotColor), "the old dot is still on the screen")

        // Unplugged while running: the connector forced off, then the card's uevent (the driver
        // sends none for a forced status). The display is held, not drawn on, the console kept off.
        let connector = "/sys/class/drm/card0-Virtual-1"
        // As the output named itself ("/dev/dri/card0 (bochs-drm) Virtual-1 1280x800@75").
        let named = try XCTUnwrap(log.range(of: "<6>output /dev/").map { "/dev/" + log[$0.upperBound...] }?.components(separatedBy: ": canvas").first, log)
        XCTAssertEqual(try vm.run("echo off > \(connector)/status && echo change > /sys/class/drm/card0/uevent").status, 0)
        try vm.waitForOutput(pid, containing: "<4>display \(named) disconnected: frames stop")
        XCTAssertEqual(try vm.run("cat \(connector)/status").output.trimmingCharacters(in: .whitespacesAndNewlines), "disconnected")
        let unplugged = ScreenImage(try vm.screendump())
        XCTAssertNotNil(unplugged.centroid(of: (255, 59, 48)), "untouched while unplugged: the console did not come back")
        // Plugged in again: the mode set again, the whole frame drawn.
        XCTAssertEqual(try vm.run("echo on > \(connector)/status && echo change > /sys/class/drm/card0/uevent").status, 0)
        try vm.waitForOutput(pid, containing: "<5>display \(named) connected again")
        let replugged = ScreenImage(try vm.stableScreendump { ScreenImage($0).centroid(of: (255, 59, 48)) != nil })
        XCTAssertEqual(try XCTUnwrap(replugged.centroid(of: (255, 59, 48))).x, 640, accuracy: 1)
        XCTAssertEqual(try vm.run("echo detect > \(connector)/status").status, 0)

        // Night blanking, brought forward by a reload whose span covers the guest's clock now:
        // DPMS Off on the connector, then On again when the span is taken out.
        let span = try vm.blankSpanNow()
        XCTAssertEqual(try vm.run("printf '[dot]\\nannotationColor = #FF3B30\\n[display]\\nblank = \(span)\\n' > /tmp/pulsedot.conf").status, 0)
        _ = try vm.run("kill -HUP \(pid)")
        try vm.waitForOutput(pid, containing: "<5>night blanking (\(span)): the screen goes off")
        XCTAssertEqual(try vm.dpms("card0-Virtual-1"), "Off")
        XCTAssertEqual(try vm.run("printf '[dot]\\nannotationColor = #FF3B30\\n' > /tmp/pulsedot.conf").status, 0)
        _ = try vm.run("kill -HUP \(pid)")
        try vm.waitForOutput(pid, containing: "<5>night blanking over: the screen comes back")
        XCTAssertEqual(try vm.dpms("card0-Virtual-1"), "On")
        let morning = ScreenImage(try vm.stableScreendump { ScreenImage($0).centroid(of: (255, 59, 48)) != nil })
        XCTAssertEqual(try XCTUnwrap(morning.centroid(of: (255, 59, 48))).y, 400, accuracy: 1)

        try assertStopsAndConsoleReturns(vm, pid, console: console)
        XCTAssertTrue(try vm.backgroundOutput(pid).contains("<6>display released; the console is back"))

        // The driver itself unbound and bound again (after which the console is another, so a second
        // daemon): a still frame makes no DRM call that could fail, so it is the card's remove
        // uevent that tells, and its add that brings the dot back.
        let second = try vm.spawn("STATE_DIRECTORY=/tmp pulsedot run --config /tmp/pulsedot.conf "
                                  + "--set source.position=45.5017,-73.5673 --set display.fps=20 \(look)")
        try vm.waitForOutput(second, containing: "<5>first fix at")
        let pci = try vm.run("basename $(readlink /sys/class/drm/card0/device)").output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try vm.run("echo -n \(pci) > /sys/bus/pci/drivers/bochs-drm/unbind").status, 0)
        try vm.waitForOutput(second, containing: "<4>display \(named) lost: ")
        XCTAssertEqual(try vm.run("echo -n \(pci) > /sys/bus/pci/drivers/bochs-drm/bind").status, 0)
        try vm.waitForOutput(second, "the output driven again") { $0.components(separatedBy: "<6>output /dev/dri/card0").count == 3 }
        let rebound = ScreenImage(try vm.stableScreendump { ScreenImage($0).centroid(of: (255, 59, 48)) != nil })
        XCTAssertEqual(try XCTUnwrap(rebound.centroid(of: (255, 59, 48))).x, 640, accuracy: 1)
        XCTAssertEqual(try vm.stop(second), 0)

        // A bus's screen: the transit banner changes as the bus arrives at a stop.
        try checkTransitBanner(vm, bus)
    }
}
