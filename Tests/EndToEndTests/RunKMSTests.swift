import Foundation
import TestSupport
import XCTest

/// `pulsedot run` on a real kernel driver in QEMU: the daemon's own loop (not `show`) drives the
/// display through KMS, writes a snapshot on SIGUSR1 and gives the console back on SIGTERM.
final class RunKMSTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipIf(TestEnvironment.optedOut("qemu"), "PULSEDOT_SKIP contains qemu")
    }

    func testRunDrivesTheDisplayAndGivesTheConsoleBack() throws {
        let vm = try QEMUMachine.boot(display: .bochs)
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

        try assertStopsAndConsoleReturns(vm, pid, console: console)
        XCTAssertTrue(try vm.backgroundOutput(pid).contains("<6>display released; the console is back"))
    }
}
