import Compositor
import Foundation
import Raster
import TestSupport
import Text
import XCTest

/// The tiled map with its credit: the credit takes an overlay of its own above the dot's, so the
/// map still pans on the primary plane; the screen the display controller composed is the tiles
/// at the view with the credit blended over them where it stands, exactly.
extension KMSPlanesTests {
    static let creditText = "Tiles-by-PulseDot"

    /// The font the credit is drawn with, at the same path in the guest.
    static func creditFiles() -> [(String, String)] {
        [(AttributionLabel.defaultFontPath, AttributionLabel.defaultFontPath)]
    }

    func checkACreditedTiledMapPansOnThePrimaryPlane(_ vm: QEMUMachine, file: StaticString = #filePath, line: UInt = #line) throws {
        let pid = try vm.spawn("STATE_DIRECTORY=/tmp pulsedot run --set display.output=kms --set display.composition=planes "
            + "--set display.fps=20 --set map.tiles=/tiles/town.mbtiles --set map.zoom=17 --set map.attribution=\(Self.creditText) "
            + "--set scale=1 --set metrics.textfile=/tmp/planes.prom "
            + "--set map.follow=center --set source.replay=/tiles/drive.nmea --set source.replaySpeed=2")
        let log = try vm.waitForOutput(pid, containing: "the map scrolls on primary plane")
        let decided = try vm.waitForOutput(pid, containing: ", the credit on overlay plane ")
        guard let said = decided.split(separator: "\n").first(where: { $0.contains("planes: the map on primary plane") }) else {
            throw TestFailure("no plane decision said:\n\(decided)")
        }
        XCTAssertTrue(said.contains("(a window over its pictures), the dot on overlay plane "), String(said), file: file, line: line)
        XCTAssertFalse(log.contains("composited"), log, file: file, line: line)
        let dotPlane = try XCTUnwrap(Self.plane(in: said, after: "the dot on overlay plane "), String(said), file: file, line: line)
        let creditPlane = try XCTUnwrap(Self.plane(in: said, after: "the credit on overlay plane "), String(said), file: file, line: line)
        XCTAssertGreaterThan(creditPlane, dotPlane, "vkms stacks overlays by id: the credit above the dot", file: file, line: line)

        let label = try AttributionLabel.make(text: Self.creditText, canvasWidth: 1024, canvasHeight: 768, scale: 1)
        XCTAssertGreaterThan(label.width, 50, file: file, line: line)
        // A second client watches the planes while the view follows the drive: the window moves,
        // the credit's overlay holds still at the bottom-right corner.
        var windows: [[Int]] = []
        var credits: Set<[Int]> = []
        _ = try vm.waitForOutput(pid, "the replay's end", timeout: 60) { output in
            if let shown = try? self.planes(vm) {
                if let p = shown.first(where: { $0.type == "primary" }), p.int("FB_ID") != 0 {
                    windows.append([p.int("SRC_X") ?? -1, p.int("SRC_Y") ?? -1, p.int("SRC_W") ?? -1])
                }
                if let c = shown.first(where: { $0.id == creditPlane }) {
                    credits.insert([c.int("FB_ID") == 0 ? 0 : 1, c.int("CRTC_X") ?? -1, c.int("CRTC_Y") ?? -1, c.int("CRTC_W") ?? -1,
                                    c.int("CRTC_H") ?? -1])
                }
            }
            return output.contains("/tiles/drive.nmea ended after")
        }
        XCTAssertGreaterThanOrEqual(Set(windows.map { $0[0] }).count, 4, "the window moves: \(windows)", file: file, line: line)
        XCTAssertTrue(windows.allSatisfy { $0[2] == 1024 << 16 }, "\(windows)", file: file, line: line)
        XCTAssertEqual(credits, [[1, label.x, label.y, label.width, label.height]], "the credit's overlay never moves", file: file, line: line)

        // The metrics say which layers hold planes.
        try vm.waitForOutput(pid, "the layers in the metrics", timeout: 30) { _ in
            ((try? vm.run("cat /tmp/planes.prom").output) ?? "").contains("pulsedot_layer_on_plane{layer=\"credit\"}")
        }
        let prom = try vm.run("cat /tmp/planes.prom").output
        for layer in ["map", "dot", "credit"] {
            XCTAssertTrue(prom.contains("pulsedot_layer_on_plane{layer=\"\(layer)\"} 1"), "\(layer):\n\(prom)", file: file, line: line)
        }

        // What the controller composed: the tiles at the view, the credit blended over them.
        let shot = try writebackSnapshot(vm, pid: pid).shot
        XCTAssertEqual(try vm.stop(pid), 0, file: file, line: line)
        let corner = shot.pixel(0, 0)
        let ox = (corner.b >> 4) * 256 + corner.r, oy = (corner.b & 15) * 256 + corner.g
        XCTAssertTrue(ox > 400 && oy < 300 && ox + 1024 <= 8 * 256 && oy >= 0, "the view at map (\(ox), \(oy)) moved north-east",
                      file: file, line: line)
        let model = OwnedPixelBuffer(width: 1024, height: 768, format: .xrgb8888)
        for y in 0..<768 {
            for x in 0..<1024 {
                let mx = ox + x, my = oy + y
                let p = UInt32(mx & 255) << 16 | UInt32(my & 255) << 8 | UInt32((mx >> 8) * 16 + (my >> 8))
                model.buffer.row(y).storeBytes(of: p, toByteOffset: x * 4, as: UInt32.self)
            }
        }
        // Blended as a plane blends (DotSprite's model of vkms: each channel rounded).
        let picture = OwnedPixelBuffer(width: label.width, height: label.height, format: .xrgb8888)
        for y in 0..<label.height {
            for x in 0..<label.width { picture.buffer.row(y).storeBytes(of: label.pixel(x: x, y: y), toByteOffset: x * 4, as: UInt32.self) }
        }
        DotSprite.blend(picture.buffer, over: model.buffer, atX: label.x, y: label.y)
        var wrong = 0, inCredit = 0, first: (Int, Int)?
        for y in 0..<768 {
            for x in 0..<1024 where abs(x - 512) > 150 || abs(y - 384) > 150 {
                let p = shot.pixel(x, y), m = model.buffer.pixel(x: x, y: y)
                if p.r != Int(m >> 16 & 255) || p.g != Int(m >> 8 & 255) || p.b != Int(m & 255) {
                    wrong += 1
                    if first == nil { first = (x, y) }
                }
                if label.frame.contains(x: x, y: y) { inCredit += 1 }
            }
        }
        XCTAssertEqual(inCredit, label.width * label.height, file: file, line: line)
        XCTAssertEqual(wrong, 0, "screen pixels off the model (tiles at (\(ox), \(oy)), the credit over them); the first at \(String(describing: first))",
                       file: file, line: line)
        for p in try planes(vm) { XCTAssertEqual(p.int("FB_ID"), 0, "after exit: plane \(p.id) \(p.values)", file: file, line: line) }
    }
}
