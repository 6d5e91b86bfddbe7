import Foundation
import TestSupport
import XCTest

/// `pulsedot run` with a framebuffer in QEMU: `output = fbdev` forced beside a DRM driver, and
/// `output = auto` falling back to a legacy fbdev driver (cirrusfb, no DRM) — which also refuses
/// its 8-bit palette mode in one line before it is loaded again at 16 bits.
final class FBDevRunTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipIf(TestEnvironment.optedOut("qemu"), "PULSEDOT_SKIP contains qemu")
    }

    /// A stop kiosk: fixed position (the canvas centre), halo off so the screen settles.
    static let daemon = "STATE_DIRECTORY=/tmp pulsedot run --set source.position=45.5017,-73.5673 --set display.fps=20 "
        + "--set delayBetweenPulseCycles=inf --set scale=2"

    func assertDotAtCentre(_ screen: ScreenImage, tolerance: Int, format: String = "xrgb8888",
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let (w, h) = (screen.width, screen.height)
        let render = try HeadlessRender.frame(at: 5, width: w, height: h, scale: 2, format: format,
                                              extra: ["--set", "delayBetweenPulseCycles=inf"])
        let worst = screen.maxDifference(around: w / 2, h / 2, side: 120, against: render, around: w / 2, h / 2)
        XCTAssertLessThanOrEqual(worst.difference, tolerance, "screen and render differ at (\(worst.x), \(worst.y))", file: file, line: line)
        let dot = try XCTUnwrap(screen.centroid(of: KMSShowTests.dotColor), "no dot on the screen", file: file, line: line)
        XCTAssertEqual(dot.x, Double(w / 2), accuracy: 1, file: file, line: line)
        XCTAssertEqual(dot.y, Double(h / 2), accuracy: 1, file: file, line: line)
    }

    func testOutputFbdevIsForcedBesideADRMDriverAndAutoChoosesKMS() throws {
        let vm = try QEMUMachine.boot(display: .bochs)
        defer { vm.shutdown() }
        let console = ScreenImage(try vm.stableScreendump())
        let pid = try vm.spawn(Self.daemon + " --set display.output=fbdev")
        let log = try vm.waitForOutput(pid, containing: "<5>first fix at 45.5017,-73.5673")
        XCTAssertTrue(log.contains("<6>output /dev/fb0 (bochs-drmdrmfb) 1280x800: canvas 1280x800, scale 2 px/pt"), log)
        XCTAssertFalse(log.contains("output = auto"), log)
        try assertDotAtCentre(ScreenImage(try vm.stableScreendump { ScreenImage($0) != console }), tolerance: 3)

        // Night blanking by FBIOBLANK, which DRM's fbdev emulation passes on as the connector's
        // DPMS; brought forward by a reload (the defaults file, with the --set options again).
        let span = try vm.blankSpanNow()
        XCTAssertEqual(try vm.run("mkdir -p /etc/pulsedot && printf '[display]\\nblank = \(span)\\n' > /etc/pulsedot/pulsedot.conf && kill -HUP \(pid)").status, 0)
        let dark = try vm.waitForOutput(pid, containing: "<5>night blanking (\(span)): the screen goes off")
        XCTAssertTrue(dark.contains("<6>output /dev/fb0 (bochs-drmdrmfb) 1280x800: canvas"), dark)
        try vm.waitForOutput(pid, containing: "<6>/dev/fb0 (bochs-drmdrmfb) 1280x800: powered down")
        XCTAssertEqual(try vm.dpms("card0-Virtual-1"), "Off")
        XCTAssertEqual(try vm.run("rm /etc/pulsedot/pulsedot.conf && kill -HUP \(pid)").status, 0)
        try vm.waitForOutput(pid, containing: "<5>night blanking over: the screen comes back")
        XCTAssertEqual(try vm.dpms("card0-Virtual-1"), "On")
        try assertDotAtCentre(ScreenImage(try vm.stableScreendump { ScreenImage($0).centroid(of: KMSShowTests.dotColor) != nil }), tolerance: 3)

        try assertStopsAndConsoleReturns(vm, pid, console: console)
        XCTAssertTrue(try vm.backgroundOutput(pid).contains("<6>display released; the console is back"))

        let auto = try vm.spawn(Self.daemon + " --set display.output=auto")
        let autoLog = try vm.waitForOutput(auto, containing: "<5>first fix at")
        XCTAssertTrue(autoLog.contains("<6>output = auto chose KMS: /dev/dri/card0 (bochs-drm) Virtual-1 has a display connected"), autoLog)
        XCTAssertEqual(try vm.stop(auto), 0)
    }

    func testAutoFallsBackToALegacyFramebufferAndPaletteModesAreRefused() throws {
        let kernel = try TestKernel.locate()
        let modules = try kernel.moduleFiles(for: "cirrusfb").map { ($0, "/fbmodules/" + ($0 as NSString).lastPathComponent) }
        // No DRM driver at all: cirrusfb is loaded by hand, with and without a mode.
        let vm = try QEMUMachine.boot(display: QEMUMachine.Display(qemuDevice: "cirrus-vga", modules: []), files: modules)
        defer { vm.shutdown() }
        let load = "for m in $(ls /fbmodules); do insmod /fbmodules/$m"
        XCTAssertEqual(try vm.run("\(load) || exit 1; done").status, 0)

        // cirrusfb comes up at 640x480 with 8 bits of palette.
        let probe = try vm.run("pulsedot probe")
        XCTAssertEqual(probe.status, 0, probe.output)
        XCTAssertTrue(probe.output.contains("  pixels: 8 bpp, red 8@0 green 8@0 blue 8@0: unsupported: 8 bpp, red 8@0 green 8@0 blue 8@0 (a palette (pseudocolor))"), probe.output)
        let refused = try vm.run("pulsedot show --fbdev /dev/fb0")
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.output.hasPrefix("pulsedot: show: /dev/fb0 (CL Picasso4): pixel layout 8 bpp, red 8@0 green 8@0 blue 8@0 (a palette (pseudocolor)) is not supported; PulseDot writes XRGB8888"), refused.output)

        // Loaded again at 1024x768, 16 bits (the console lets go of it first).
        let reload = try vm.run("echo 0 > /sys/class/vtconsole/vtcon1/bind; rmmod cirrusfb && \(load) mode_option=1024x768-16 || exit 1; done; "
                                + "echo 1 > /sys/class/vtconsole/vtcon1/bind; printf '\\033[?25l\\033[2J\\033[HPULSEDOT CONSOLE\\n' > /dev/tty1")
        XCTAssertEqual(reload.status, 0, reload.output)
        let console = ScreenImage(try vm.stableScreendump())
        XCTAssertEqual(console.width, 1024)
        let pid = try vm.spawn(Self.daemon + " --set display.output=auto")
        let log = try vm.waitForOutput(pid, containing: "<5>first fix at 45.5017,-73.5673")
        XCTAssertTrue(log.contains("<6>output = auto chose fbdev /dev/fb0: no DRM display can be driven (no DRM device: /dev/dri has no card*"), log)
        XCTAssertTrue(log.contains("<6>output /dev/fb0 (CL Picasso4) 1024x768: canvas 1024x768"), log)
        XCTAssertTrue(log.contains("1024x768 RGB565"), log)
        try assertDotAtCentre(ScreenImage(try vm.stableScreendump { ScreenImage($0) != console }), tolerance: 8, format: "rgb565")
        try assertStopsAndConsoleReturns(vm, pid, console: console)
    }
}
