import Foundation
import TestSupport
import XCTest

/// `pulsedot show` on real kernel drivers in QEMU: the screen must show the headless render of
/// the same frame (each channel within 3, 8 for RGB565, over the dot's area), the dot where it
/// must be, and the console must come back after SIGTERM.
final class KMSShowTests: XCTestCase, QEMUShowTesting {
    /// The inner dot's colour (annotationColor #007AFF) and the default halo's size in points.
    static let dotColor = (0, 122, 255)
    static let haloPoints = 116.6
    static let showCommand = "pulsedot show"
    static let mismatchFolder = "kms-mismatch"

    override func setUpWithError() throws {
        try XCTSkipIf(TestEnvironment.optedOut("qemu"), "PULSEDOT_SKIP contains qemu")
    }

    // MARK: Drivers and strategies

    func testBochsFlipsAndTheConsoleComesBack() throws {
        let vm = try QEMUMachine.boot(display: .bochs)
        defer { vm.shutdown() }
        let console = ScreenImage(try vm.stableScreendump())
        let still = try showStill(vm, at: 1.2, "--scale 2", console: console)
        XCTAssertTrue(still.log.contains("update = auto chose flip: no vblank"), still.log)
        XCTAssertEqual(still.log.components(separatedBy: "bochs-drm has no ARGB8888 overlay plane for CRTC").count - 1, 1, still.log)
        XCTAssertEqual(still.log.components(separatedBy: "using software composition").count - 1, 1, still.log)
        XCTAssertEqual(still.screen.width, 1280)
        XCTAssertEqual(still.screen.height, 800)
        let render = try HeadlessRender.frame(at: 1.2, width: 1280, height: 800, scale: 2)
        assertDotMatches(still.screen, at: (640, 400), render, at: (640, 400), scale: 2, tolerance: 3, "bochs flip")
        try assertStopsAndConsoleReturns(vm, still.pid, console: console)
    }

    /// virtio-gpu shows nothing new without DirtyFB: the first frame (background only) reaches
    /// the screen by the modeset, the dot only by DirtyFB. Without it this fails.
    func testVirtioGPUUsesDamageWithDirtyFB() throws {
        let vm = try QEMUMachine.boot(display: .virtioGPU)
        defer { vm.shutdown() }
        let console = ScreenImage(try vm.stableScreendump())
        let still = try showStill(vm, at: 1.2, "--scale 2", console: console)
        XCTAssertTrue(still.log.contains("update = auto chose damage: no vblank on this CRTC"), still.log)
        XCTAssertEqual(still.log.components(separatedBy: "virtio_gpu has no ARGB8888 overlay plane for CRTC").count - 1, 1, still.log)
        let (w, h) = (still.screen.width, still.screen.height)
        let render = try HeadlessRender.frame(at: 1.2, width: w, height: h, scale: 2)
        assertDotMatches(still.screen, at: (w / 2, h / 2), render, at: (w / 2, h / 2), scale: 2, tolerance: 3, "virtio-gpu damage")
        try assertStopsAndConsoleReturns(vm, still.pid, console: console)
    }

    func testCirrusShowsRGB565At1024x768() throws {
        let vm = try QEMUMachine.boot(display: .cirrus)
        defer { vm.shutdown() }
        let console = ScreenImage(try vm.stableScreendump())
        let still = try showStill(vm, at: 1.2, "--mode 1024x768 --format rgb565 --scale 2", console: console)
        XCTAssertFalse(still.log.contains("does not offer"), still.log)
        XCTAssertTrue(still.log.contains("1024x768@60 rgb565"), still.log)
        XCTAssertEqual(still.screen.width, 1024)
        XCTAssertEqual(still.screen.height, 768)
        let render = try HeadlessRender.frame(at: 1.2, width: 1024, height: 768, scale: 2, format: "rgb565")
        assertDotMatches(still.screen, at: (512, 384), render, at: (512, 384), scale: 2, tolerance: 8, "cirrus rgb565")
        try assertStopsAndConsoleReturns(vm, still.pid, console: console)
    }

    func testRGB565AskedOfBochsFallsBackWithOneLine() throws {
        let vm = try QEMUMachine.boot(display: .bochs)
        defer { vm.shutdown() }
        let console = ScreenImage(try vm.stableScreendump())
        let still = try showStill(vm, at: 1.2, "--format rgb565 --scale 2", console: console)
        let fallback = still.log.split(separator: "\n").filter { $0.contains("does not offer") }
        XCTAssertEqual(fallback, ["pulsedot: /dev/dri/card0 (bochs-drm): the primary plane does not offer rgb565 (it offers xrgb8888, BX24); using xrgb8888"], still.log)
        let render = try HeadlessRender.frame(at: 1.2, width: 1280, height: 800, scale: 2)
        assertDotMatches(still.screen, at: (640, 400), render, at: (640, 400), scale: 2, tolerance: 3, "bochs fallback")
        XCTAssertEqual(try vm.stop(still.pid), 0)
    }

    // MARK: Rotation

    /// An off-centre dot, so a wrong turn puts it somewhere else: logical (300, 200) on the turned
    /// canvas. The render is centred on a 600x400 canvas, which puts its dot at the same point.
    func testRotation90And180PutTheDotAtTheTurnedPlace() throws {
        let vm = try QEMUMachine.boot(display: .bochs)
        defer { vm.shutdown() }
        let console = ScreenImage(try vm.stableScreendump())
        let render = try HeadlessRender.frame(at: 1.2, width: 600, height: 400, scale: 2)
        for degrees in [90, 180] {
            let still = try showStill(vm, at: 1.2, "--rotation \(degrees) --x 300 --y 200 --scale 2", console: console)
            XCTAssertTrue(still.log.contains("rotation \(degrees) (configured)"), still.log)
            let logical = still.screen.logicalView(rotation: degrees)
            XCTAssertEqual(logical.width, degrees == 90 ? 800 : 1280)
            assertDotMatches(logical, at: (300, 200), render, at: (300, 200), scale: 2, tolerance: 3, "rotation \(degrees)")
            try assertStopsAndConsoleReturns(vm, still.pid, console: console)
        }
    }

    /// The kernel's `video=…:panel_orientation=` sets the connector's property as a sideways
    /// panel's firmware would: Right Side Up turns the content 90° unless configured otherwise.
    func testPanelOrientationTurnsTheCanvasUnlessConfigured() throws {
        let vm = try QEMUMachine.boot(display: .bochs, kernelArguments: "video=Virtual-1:panel_orientation=right_side_up")
        defer { vm.shutdown() }
        let probe = try vm.run("pulsedot probe --json")
        XCTAssertTrue(probe.output.contains("\"panelOrientation\":\"Right Side Up\",\"rotation\":90"), probe.output)
        let console = ScreenImage(try vm.stableScreendump())
        let render = try HeadlessRender.frame(at: 1.2, width: 600, height: 400, scale: 2)
        let turned = try showStill(vm, at: 1.2, "--x 300 --y 200 --scale 2", console: console)
        XCTAssertTrue(turned.log.contains("rotation 90 (panel orientation \"Right Side Up\"); canvas 800x1280"), turned.log)
        assertDotMatches(turned.screen.logicalView(rotation: 90), at: (300, 200), render, at: (300, 200), scale: 2,
                         tolerance: 3, "from the panel orientation")
        XCTAssertEqual(try vm.stop(turned.pid), 0)
        let configured = try showStill(vm, at: 1.2, "--rotation 0 --x 300 --y 200 --scale 2", console: console)
        XCTAssertTrue(configured.log.contains("rotation 0 (configured)"), configured.log)
        assertDotMatches(configured.screen, at: (300, 200), render, at: (300, 200), scale: 2, tolerance: 3, "configured 0")
        XCTAssertEqual(try vm.stop(configured.pid), 0)
    }

    // MARK: Animation

    /// One frame a second, the clock from 0.3 s: frames at about 1.3 s (a large, faint halo), 2.3 s
    /// (the halo gone: this frame's damage is the halo's area) and 3.3 s (only the dot changes),
    /// the last one into the buffer that still holds the 1.3 s halo. Copying only each frame's own
    /// damage leaves that halo on the screen (a ghost); the union of two frames' damage clears it.
    /// The whole screen must then be the render of 3.3 s.
    func testNoGhostsAfterTheHaloShrinks() throws {
        let vm = try QEMUMachine.boot(display: .bochs)
        defer { vm.shutdown() }
        let console = ScreenImage(try vm.stableScreendump())
        let pid = try vm.spawn("pulsedot show --fps 1 --from 0.3 --at 3.3 --scale 2 --update flip")
        let log = try vm.waitForOutput(pid, containing: "still frame at clock 3.3")
        let screen = ScreenImage(try vm.stableScreendump { ScreenImage($0) != console })
        let render = try HeadlessRender.frame(at: 3.3, width: 1280, height: 800, scale: 2)
        let whole = screen.maxDifference(around: 640, 400, side: 1280, against: render, around: 640, 400)
        XCTAssertLessThanOrEqual(whole.difference, 3, "the screen differs from the render at (\(whole.x), \(whole.y)): \(log)")
        XCTAssertEqual(try vm.stop(pid), 0)
    }
}
