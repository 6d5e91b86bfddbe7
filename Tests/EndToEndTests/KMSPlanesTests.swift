import Compositor
import Foundation
import LocationDot
import Raster
import TestSupport
import XCTest

/// The dot on an overlay plane through atomic KMS, on vkms (the kernel's virtual KMS driver, built
/// by deploy/vm/fetch-vkms, loaded with its overlays and without fbdev emulation, so nothing of the
/// kernel's own turns planes off behind the daemon's back): one boot for every check. What the
/// planes hold is read by a second client (`pulsedot probe --json`) while `show` runs and after
/// it has gone.
final class KMSPlanesTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipIf(TestEnvironment.optedOut("qemu"), "PULSEDOT_SKIP contains qemu")
    }

    struct Plane {
        var id: Int
        var type: String
        var values: [String: String]
        func int(_ name: String) -> Int? { values[name].flatMap { Int($0) } }
    }

    func planes(_ vm: QEMUMachine) throws -> [Plane] {
        let r = try vm.run("pulsedot probe --device /dev/dri/card0 --json")
        XCTAssertEqual(r.status, 0, r.output)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [String: Any], r.output)
        let card = try XCTUnwrap((json["devices"] as? [[String: Any]])?.first, r.output)
        return (card["planes"] as? [[String: Any]] ?? []).map { p in
            var values: [String: String] = [:]
            for prop in p["properties"] as? [[String: Any]] ?? [] {
                if let n = prop["name"] as? String, let v = prop["value"] as? String { values[n] = v }
            }
            return Plane(id: p["id"] as? Int ?? 0, type: p["type"] as? String ?? "", values: values)
        }
    }

    /// Where the daemon's sprite of the dot at (x, y) at clock `t` goes: its model, in canvas pixels.
    private func expectedPlace(t: Double, x: Double, y: Double, scale: Double) -> (x: Int, y: Int, width: Int, height: Int)? {
        let style = DotStyle()
        let sprite = DotSprite(style: style, scale: scale, width: 512, height: 512)
        return sprite.placement(DotClock(style: style).appearance(at: t), centerX: x, centerY: y).map { ($0.x, $0.y, $0.width, $0.height) }
    }

    /// Reads a PNG the guest wrote, through the console in base64.
    /// SIGUSR1 to the daemon `pid`: the snapshot it wrote from the writeback connector, and what
    /// the daemon had said by then.
    func writebackSnapshot(_ vm: QEMUMachine, pid: Int) throws -> (shot: ScreenImage, said: String) {
        XCTAssertEqual(try vm.run("kill -USR1 \(pid)").status, 0)
        let said = try vm.waitForOutput(pid, containing: "(writeback)")
        guard let note = said.split(separator: "\n").first(where: { $0.contains("snapshot: ") && $0.contains("(writeback)") }),
              let path = note.split(separator: " ").first(where: { $0.hasPrefix("/tmp/snapshot-") }) else {
            throw TestFailure("no writeback snapshot named in what the daemon said:\n\(said)")
        }
        return (try guestPNG(vm, String(path)), said)
    }

    func guestPNG(_ vm: QEMUMachine, _ guestPath: String) throws -> ScreenImage {
        let encoded = try vm.run("base64 \(guestPath)", timeout: 120)
        guard encoded.status == 0, let data = Data(base64Encoded: encoded.output.split(separator: "\n").joined()) else {
            throw TestFailure("cannot read \(guestPath) from the guest: \(encoded.output.prefix(300))")
        }
        let dir = try TestEnvironment.temporaryDirectory("guest-png")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("frame.png").path
        try data.write(to: URL(fileURLWithPath: path))
        return try ScreenImage.read(path)
    }

    /// `pulsedot run` (a fixed position, the halo off so the frame holds still) with the dot on
    /// a plane: SIGUSR1's snapshot is the writeback capture, and it is the headless render of
    /// the frame; night blanking switches the CRTC and its planes off and brings both back.
    private func checkTheDaemon(_ vm: QEMUMachine, file: StaticString = #filePath, line: UInt = #line) throws {
        let daemon = "STATE_DIRECTORY=/tmp pulsedot run --set source.position=45.5017,-73.5673 --set display.fps=20 "
            + "--set delayBetweenPulseCycles=inf --set scale=2 --set display.output=kms --set display.composition=planes"
        let pid = try vm.spawn(daemon)
        let log = try vm.waitForOutput(pid, containing: "<5>first fix at 45.5017,-73.5673")
        XCTAssertTrue(log.contains("scale 2 px/pt, planes composition"), log, file: file, line: line)
        try vm.waitForOutput(pid, "two frames after the fix", timeout: 60) { _ in
            (try? self.planes(vm).contains { $0.type == "overlay" && $0.int("FB_ID") != 0 }) ?? false
        }
        let shot = try writebackSnapshot(vm, pid: pid).shot
        let render = try HeadlessRender.frame(at: 5, width: 1024, height: 768, scale: 2, extra: ["--set", "delayBetweenPulseCycles=inf"])
        let worst = shot.maxDifference(around: 512, 384, side: 1024, against: render, around: 512, 384)
        XCTAssertLessThanOrEqual(worst.difference, 2, "at (\(worst.x), \(worst.y))", file: file, line: line)
        let dot = try XCTUnwrap(shot.centroid(of: (0, 122, 255)), file: file, line: line)
        let expected = try XCTUnwrap(render.centroid(of: (0, 122, 255)), file: file, line: line)
        XCTAssertEqual(dot.x, expected.x, accuracy: 1.0 / 16, file: file, line: line)
        XCTAssertEqual(dot.y, expected.y, accuracy: 1.0 / 16, file: file, line: line)

        let span = try vm.blankSpanNow()
        XCTAssertEqual(try vm.run("mkdir -p /etc/pulsedot && printf '[display]\\nblank = \(span)\\n' > /etc/pulsedot/pulsedot.conf && kill -HUP \(pid)").status, 0)
        try vm.waitForOutput(pid, containing: "<5>night blanking (\(span)): the screen goes off")
        let dark = try planes(vm)
        for p in dark { XCTAssertEqual(p.int("FB_ID"), 0, "blanked: plane \(p.id) \(p.values)", file: file, line: line) }
        XCTAssertEqual(try vm.run("rm /etc/pulsedot/pulsedot.conf && kill -HUP \(pid)").status, 0)
        try vm.waitForOutput(pid, containing: "<5>night blanking over: the screen comes back")
        try vm.waitForOutput(pid, "the dot back on its plane", timeout: 60) { _ in
            (try? self.planes(vm).contains { $0.type == "overlay" && $0.int("FB_ID") != 0 }) ?? false
        }
        XCTAssertEqual(try vm.stop(pid), 0, file: file, line: line)
    }

    /// What the display controller composed, read back through the writeback connector, is the
    /// headless render of the same frame: every pixel within 2/255 per channel, the inner dot's
    /// centroid within 1/16 px.
    /// With an RGB565 primary the map is narrowed and the dot (ARGB8888 on its plane) is not:
    /// within one RGB565 step (8/255) of the render drawn in RGB565.
    private func checkWritebackMatchesTheRender(_ vm: QEMUMachine, format: String = "xrgb8888",
                                                file: StaticString = #filePath, line: UInt = #line) throws {
        let pid = try vm.spawn("pulsedot show --format \(format) --set display.composition=planes --at 1.2 --screenshot /tmp/wb.png")
        let said = try vm.waitForOutput(pid, containing: "still frame at clock 1.2 s", timeout: 90)
        XCTAssertTrue(said.contains("writeback connector"), said, file: file, line: line)
        XCTAssertTrue(said.contains("screenshot /tmp/wb.png (writeback)"), said, file: file, line: line)
        XCTAssertEqual(try vm.stop(pid), 0, file: file, line: line)
        XCTAssertTrue(said.contains("1024x768@60 \(format) on CRTC"), said, file: file, line: line)
        let captured = try guestPNG(vm, "/tmp/wb.png")
        XCTAssertEqual([captured.width, captured.height], [1024, 768], file: file, line: line)
        let render = try HeadlessRender.frame(at: 1.2, width: 1024, height: 768, scale: 2, format: format)
        let worst = captured.maxDifference(around: 512, 384, side: 1024, against: render, around: 512, 384)
        XCTAssertLessThanOrEqual(worst.difference, format == "rgb565" ? 8 : 2, "\(format) at (\(worst.x), \(worst.y))", file: file, line: line)
        let dot = try XCTUnwrap(captured.centroid(of: (0, 122, 255)), file: file, line: line)
        let expected = try XCTUnwrap(render.centroid(of: (0, 122, 255)), file: file, line: line)
        XCTAssertGreaterThan(dot.count, 50, file: file, line: line)
        XCTAssertEqual(dot.x, expected.x, accuracy: 1.0 / 16, file: file, line: line)
        XCTAssertEqual(dot.y, expected.y, accuracy: 1.0 / 16, file: file, line: line)
        if format == "xrgb8888" {
            // And exactly the composition's software model: the map, the sprite blended over it.
            let model = try softwareComposition(t: 1.2, x: 512, y: 384, scale: 2, background: render.pixel(0, 0))
            var differing = 0, first: (Int, Int)?
            for y in 0..<768 { for x in 0..<1024 where captured.pixel(x, y) != model.pixel(x, y) {
                differing += 1
                if first == nil { first = (x, y) }
            } }
            XCTAssertEqual(differing, 0, "pixels off the software model of the composition; the first at \(String(describing: first)): "
                           + "\(first.map { "\(captured.pixel($0.0, $0.1)) vs \(model.pixel($0.0, $0.1))" } ?? "")", file: file, line: line)
        }
    }

    /// The composition a display controller makes of `show`'s frame: the map (its plain colour,
    /// `background`) with the dot's premultiplied sprite blended over it, in software.
    func softwareComposition(t: Double, x: Double, y: Double, scale: Double, background: (r: Int, g: Int, b: Int),
                             style: DotStyle = DotStyle(), width: Int = 1024, height: Int = 768) throws -> ScreenImage {
        let colour = Color(r: UInt8(background.r), g: UInt8(background.g), b: UInt8(background.b))
        let renderer = try FrameRenderer(width: width, height: height, style: style, scale: scale, background: .color(colour))
        renderer.render(nil, centerX: x, centerY: y)
        let sprite = DotSprite(style: style, scale: scale, width: 512, height: 512)
        let look = DotClock(style: style).appearance(at: t)
        let place = try XCTUnwrap(sprite.placement(look, centerX: x, centerY: y))
        let picture = OwnedPixelBuffer(width: place.width, height: place.height, format: .xrgb8888)
        sprite.paint(look, centerX: x, centerY: y, at: place, into: picture.buffer)
        DotSprite.blend(picture.buffer, over: renderer.canvas.buffer, atX: place.x, y: place.y)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for row in 0..<height {
            for col in 0..<width {
                let p = renderer.canvas.buffer.row(row).load(fromByteOffset: col * 4, as: UInt32.self), i = (row * width + col) * 3
                rgb[i] = UInt8((p >> 16) & 0xFF); rgb[i + 1] = UInt8((p >> 8) & 0xFF); rgb[i + 2] = UInt8(p & 0xFF)
            }
        }
        return withExtendedLifetime(picture) { ScreenImage(width: width, height: height, rgb: rgb) }
    }

    /// A panel turned 90°: the canvas (768x1024), the map and the sprite turned in software; the
    /// overlay holds the sprite where its canvas place lands, and the capture, turned back, is
    /// the software model of the composition on every pixel.
    private func checkATurnedPanel(_ vm: QEMUMachine, file: StaticString = #filePath, line: UInt = #line) throws {
        let pid = try vm.spawn("pulsedot show --rotation 90 --set display.composition=planes --x 100.3 --y 200.7 --at 1.2 --screenshot /tmp/turned.png")
        let said = try vm.waitForOutput(pid, containing: "still frame at clock 1.2 s", timeout: 90)
        XCTAssertTrue(said.contains("composes the dot on a hardware plane"), said, file: file, line: line)
        XCTAssertTrue(said.contains("canvas 768x1024"), said, file: file, line: line)
        let overlay = try XCTUnwrap(try planes(vm).first { $0.type == "overlay" && $0.int("FB_ID") != 0 }, file: file, line: line)
        let place = try XCTUnwrap(expectedPlace(t: 1.2, x: 100.3, y: 200.7, scale: 2), file: file, line: line)
        // Canvas (x, y, w, h) lands on the 1024-wide panel at (1024 − y − h, x), h × w.
        XCTAssertEqual([overlay.int("CRTC_X"), overlay.int("CRTC_Y"), overlay.int("CRTC_W"), overlay.int("CRTC_H")],
                       [1024 - place.y - place.height, place.x, place.height, place.width], "\(overlay.values)", file: file, line: line)
        XCTAssertEqual(try vm.stop(pid), 0, file: file, line: line)
        let captured = try guestPNG(vm, "/tmp/turned.png")
        XCTAssertEqual([captured.width, captured.height], [768, 1024], "the capture in canvas orientation", file: file, line: line)
        let render = try HeadlessRender.frame(at: 1.2, width: 768, height: 1024, scale: 2)
        let model = try softwareComposition(t: 1.2, x: 100.3, y: 200.7, scale: 2, background: render.pixel(0, 0), width: 768, height: 1024)
        var differing = 0
        for y in 0..<1024 { for x in 0..<768 where captured.pixel(x, y) != model.pixel(x, y) { differing += 1 } }
        XCTAssertEqual(differing, 0, "pixels off the turned composition's software model", file: file, line: line)
    }

    func testTheDotOnAnOverlayPlaneAndTheFallback() throws {
        let shim = try TestEnvironment.temporaryDirectory("refuse-test-commits")
        defer { try? FileManager.default.removeItem(at: shim) }
        let bus = try TransitBannerGuest()
        defer { bus.remove() }
        let vm = try QEMUMachine.boot(display: .vkms, files: try Self.panFiles() + Self.tilePanFiles() + Self.creditFiles()
                                   + [RefusedTestCommits.file(in: shim)] + bus.files)
        defer { vm.shutdown() }
        XCTAssertFalse(vm.serialLog.contains("PULSEDOT-INSMOD-FAILED"), vm.serialLog)
        let parameters = try vm.run("cat /sys/module/vkms/parameters/enable_overlay /sys/module/drm_kms_helper/parameters/fbdev_emulation; ls /dev/fb0")
        XCTAssertEqual(parameters.output.split(separator: "\n").prefix(2), ["Y", "N"], parameters.output)
        XCTAssertNotEqual(parameters.status, 0, "no framebuffer emulation: \(parameters.output)")

        // The dot partly off the left edge, the right and top, the bottom, then inside: each time
        // the overlay holds the sprite exactly where its model puts it, the primary plane the map.
        for (x, y) in [(-10.0, 200.7), (1030.4, 5.2), (500.5, 770.9), (100.3, 200.7)] {
            let pid = try vm.spawn("pulsedot show --set display.composition=planes --x \(x) --y \(y) --at 1.2")
            let said = try vm.waitForOutput(pid, containing: "still frame at clock 1.2 s", timeout: 90)
            XCTAssertEqual(said.components(separatedBy: "composes the dot on a hardware plane").count - 1, 1, said)
            XCTAssertFalse(said.contains("software composition"), said)
            let shown = try planes(vm)
            let primary = try XCTUnwrap(shown.first { $0.type == "primary" })
            let overlays = shown.filter { $0.type == "overlay" }
            XCTAssertEqual(overlays.count, 8)
            XCTAssertNotEqual(primary.int("FB_ID"), 0, "the map on the primary plane")
            XCTAssertEqual(primary.int("CRTC_W"), 1024)
            let used = overlays.filter { $0.int("FB_ID") != 0 }
            XCTAssertEqual(used.count, 1, "one overlay holds the dot: \(overlays.map(\.values))")
            let place = try XCTUnwrap(expectedPlace(t: 1.2, x: x, y: y, scale: 2))
            if let o = used.first {
                XCTAssertEqual(o.int("CRTC_ID"), primary.int("CRTC_ID"))
                XCTAssertEqual([o.int("CRTC_X"), o.int("CRTC_Y"), o.int("CRTC_W"), o.int("CRTC_H")],
                               [place.x, place.y, place.width, place.height], "\(o.values)")
                XCTAssertEqual(o.int("SRC_W"), place.width << 16, "16.16 fixed point: \(o.values)")
            }
            XCTAssertEqual(try vm.stop(pid), 0)
            // After SIGTERM, the second client finds the overlay off and the console's CRTC back (off).
            let after = try planes(vm)
            for p in after { XCTAssertEqual(p.int("FB_ID"), 0, "plane \(p.id) after exit: \(p.values)") }
        }
        XCTAssertLessThan(try XCTUnwrap(expectedPlace(t: 1.2, x: -10, y: 200.7, scale: 2)).x, 0, "partly off the left edge")
        let corner = try XCTUnwrap(expectedPlace(t: 1.2, x: 1030.4, y: 5.2, scale: 2))
        XCTAssertGreaterThan(corner.x + corner.width, 1024, "partly off the right edge")
        XCTAssertLessThan(corner.y, 0, "and the top")
        let bottom = try XCTUnwrap(expectedPlace(t: 1.2, x: 500.5, y: 770.9, scale: 2))
        XCTAssertGreaterThan(bottom.y + bottom.height, 768, "partly off the bottom")

        try checkWritebackMatchesTheRender(vm)
        try checkWritebackMatchesTheRender(vm, format: "rgb565")
        try checkATurnedPanel(vm)
        try checkTheDaemon(vm)
        try checkTheMapPansOnThePrimaryPlane(vm)
        try checkTheTiledMapPansOnThePrimaryPlane(vm)
        try checkACreditedTiledMapPansOnThePrimaryPlane(vm)
        try checkTheBannerOnAnOverlayPlane(vm, bus)

        // SIGKILL leaves no time to switch anything off: the kernel removes the dead client's
        // framebuffers, and with them the planes that showed them go off.
        let killed = try vm.spawn("pulsedot show --set display.composition=planes --at 1.2")
        try vm.waitForOutput(killed, containing: "still frame at clock 1.2 s", timeout: 90)
        XCTAssertEqual(try vm.stop(killed, signal: "KILL"), 137)
        for p in try planes(vm) { XCTAssertEqual(p.int("FB_ID"), 0, "after SIGKILL: plane \(p.id) \(p.values)") }
        // What the unit runs then (ExecStopPost=): the console's text mode back, the planes still off.
        let restored = try vm.run("pulsedot console-restore")
        XCTAssertEqual(restored.status, 0, restored.output)
        for p in try planes(vm) { XCTAssertEqual(p.int("FB_ID"), 0, "after console-restore: plane \(p.id) \(p.values)") }

        // Every test commit refused (RefusedTestCommits, as a driver refusing the state):
        // software composition, said once, no overlay used.
        let pid = try vm.spawn("LD_PRELOAD=\(RefusedTestCommits.guestPath) pulsedot show --set display.composition=planes --x 100.3 --y 200.7 --at 1.2")
        let said = try vm.waitForOutput(pid, containing: "still frame at clock 1.2 s", timeout: 90)
        XCTAssertEqual(said.components(separatedBy: "using software composition").count - 1, 1, said)
        XCTAssertTrue(said.contains("composition = planes: /dev/dri/card0 (vkms) Virtual-1: the test commit with the dot on overlay plane"), said)
        XCTAssertTrue(said.contains("DRM_IOCTL_MODE_ATOMIC (test only) /dev/dri/card0: Invalid argument"), said)
        let fallback = try planes(vm)
        XCTAssertNotEqual(fallback.first { $0.type == "primary" }?.int("FB_ID"), 0)
        for o in fallback where o.type != "primary" { XCTAssertEqual(o.int("FB_ID"), 0, "plane \(o.id): \(o.values)") }
        XCTAssertEqual(try vm.stop(pid), 0)
    }
}
