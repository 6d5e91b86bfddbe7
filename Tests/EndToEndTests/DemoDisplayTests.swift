import Foundation
import PNG
import TestSupport
import XCTest

/// `pulsedot demo --display` on a real kernel driver in QEMU: the daemon's loop drives the panel
/// through KMS with the built-in drive over the town's tiles (decoded on the tile worker, the loop
/// never waiting for them); in the tunnel the whole screen shows what the headless demo renders
/// there, tiles, credit and stale dot; the fix comes back, SIGTERM gives the console back.
final class DemoDisplayTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipIf(TestEnvironment.optedOut("qemu"), "PULSEDOT_SKIP contains qemu")
    }

    static let water = (0xA3, 0xCF, 0xF2), line = (0xFF, 0x95, 0x00), stale = (0x8E, 0x8E, 0x93)
    static let noTransit = ["--set", "transit.gtfs=none", "--set", "transit.trip=none"]

    func testTheDriveOnTheDisplayGoesStaleInTheTunnelAndComesBack() throws {
        // The headless demo's frame of the same lap (80 s) while the dot is stale in the tunnel,
        // on bochs' 1280×800 canvas: the reference for the screen.
        // Without the town's trip on either side: the banner's fonts are the host's, and the
        // display loop, not transit, is what this compares (RenderDemoTests follows the trip).
        let host = try TestEnvironment.temporaryDirectory("demo-reference").path
        let made = try runProgram(try TestEnvironment.pulsedotBinary(),
                                  ["demo", "--out", host, "--seconds", "80", "--set", "display.pngFps=1"] + Self.noTransit)
        XCTAssertEqual(made.status, 0, made.stderr)
        let lines = try DemoRecord.read(host + "/frames.jsonl")
        let lastStale = try XCTUnwrap(lines.lastIndex { $0.state == "stale" }, "no stale frame in the headless demo")
        XCTAssertEqual(lines[lastStale - 2].state, "stale", "the stale look needs a second to settle")
        let reference = try ScreenImage.read(host + "/frame-" + String(format: "%06d", lastStale + 1) + ".png")

        // The credit's font where a board has it (fonts-dejavu-core; AttributionLabel's default),
        // so the screen's corner shows the credit as the headless frame does.
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let vm = try QEMUMachine.boot(display: .bochs, files: [(font, font)])
        defer { vm.shutdown() }
        let console = ScreenImage(try vm.stableScreendump())
        let pid = try vm.spawn("pulsedot demo --display --out /tmp/demo --seconds 80 " + Self.noTransit.joined(separator: " "))
        let started = try vm.waitForOutput(pid, containing: "<5>first fix at ", timeout: 180)
        XCTAssertTrue(started.contains("<6>output /dev/dri/card0 (bochs-drm) Virtual-1 1280x800"), started)
        XCTAssertTrue(started.contains("configuration /tmp/demo/demo.conf"), started)
        XCTAssertTrue(started.contains("<6>map /tmp/demo/town.mbtiles: PNG tiles of 256 px, zoom 17 of 17–17, 16x12 tiles in view range"), started)

        // About a minute in, the bus enters the tunnel; a few seconds later the dot is stale, and
        // stays so (still, no halo) until the fix is back: a screen that settles.
        try vm.waitForOutput(pid, containing: "<4>no fix for ", timeout: 180)
        let screen = ScreenImage(try vm.stableScreendump(timeout: 30) { ScreenImage($0).centroid(of: Self.stale, tolerance: 2) != nil })
        let dot = try XCTUnwrap(screen.centroid(of: Self.stale, tolerance: 2))
        let expected = try XCTUnwrap(reference.centroid(of: Self.stale, tolerance: 2))
        XCTAssertEqual(dot.x, expected.x, accuracy: 0.5)
        XCTAssertEqual(dot.y, expected.y, accuracy: 0.5)
        // The view stands still while the dot is stale: every tile in it has arrived by now.
        let whole = screen.maxDifference(around: Int(dot.x), Int(dot.y), side: 2 * screen.width, against: reference,
                                         around: Int(expected.x), Int(expected.y))
        XCTAssertLessThanOrEqual(whole.difference, 3, "screen and headless demo differ at (\(whole.x), \(whole.y))")
        XCTAssertGreaterThan(screen.centroid(of: Self.water, tolerance: 2)?.count ?? 0, 10_000, "no river on the screen")
        XCTAssertGreaterThan(screen.centroid(of: Self.line, tolerance: 2)?.count ?? 0, 1_000, "no bus line on the screen")

        // The fix comes back north of the river: the live dot again.
        let back = try vm.waitForOutput(pid, containing: "<5>fix again at ", timeout: 120)
        XCTAssertTrue(back.contains(": live"), back)
        let deadline = Date().addingTimeInterval(30)
        var live = ScreenImage(try vm.screendump())
        while live.centroid(of: KMSShowTests.dotColor) == nil || live.centroid(of: Self.stale, tolerance: 2) != nil {
            XCTAssertLessThan(Date(), deadline, "the live dot did not come back on the screen")
            if Date() > deadline { break }
            usleep(250_000)
            live = ScreenImage(try vm.screendump())
        }

        XCTAssertEqual(try vm.stop(pid), 0, (try? vm.backgroundOutput(pid)) ?? "")
        let after = ScreenImage(try vm.stableScreendump())
        XCTAssertTrue(after == console, "the console did not come back as it was")
    }
}
