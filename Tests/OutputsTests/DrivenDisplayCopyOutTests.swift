@testable import Config
import DisplayCore
import DisplayDoubles
import Foundation
@testable import Geo
import Location
import Outputs
import PNG
import Raster
@testable import Scene
import Syscall
import TestSupport
import XCTest

/// A driven display copies out through its view's renderer: on an RGB565 panel every pixel that
/// still shows the map comes from the renderer's narrowed map, and the panel must hold exactly
/// what narrowing the whole canvas gives — while the dot moves, while the view follows it across
/// a larger map, and after a reload's new view.
final class DrivenDisplayCopyOutTests: XCTestCase {
    /// Two RGB565 screens in turn, each written with the damage of the frames since it was last
    /// shown, as the KMS and framebuffer outputs do; the copy goes through the canvas's route.
    private final class PanelDisplay: TestDisplay {
        private var damage: Damage
        let screens: [OwnedPixelBuffer]
        private(set) var front = 0
        private(set) var routed = false
        init(width: Int, height: Int) {
            damage = Damage(bounds: Rect(x: 0, y: 0, width: width, height: height))
            screens = [OwnedPixelBuffer(width: width, height: height, format: .rgb565),
                       OwnedPixelBuffer(width: width, height: height, format: .rgb565)]
            super.init(name: "panel", width: width, height: height, scanoutFormat: .rgb565)
        }
        override func route(copyOut copier: CanvasCopier) { frame.route(through: copier); routed = true }
        override func start() {
            let all = Rect(x: 0, y: 0, width: canvasWidth, height: canvasHeight)
            for s in screens { canvas.copyOut(region: all, to: s.buffer, rotation: .r0) }
        }
        override func present(damage rect: DamageRegion) {
            damage.add(rect)
            let back = 1 - front
            frame.copyOut(region: damage.union, to: screens[back].buffer, rotation: .r0)
            damage.endFrame()
            front = back
        }
    }

    private func bytes(_ b: PixelBuffer) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<b.height { out += UnsafeRawBufferPointer(start: b.row(y), count: b.width * b.format.bytesPerPixel) }
        return out
    }

    /// A 480×360 textured map spanning 0…0.02° E, 0…0.015° N.
    private func mapSettings(follow: FollowMode) throws -> (Settings, MapImage) {
        let dir = try TestEnvironment.temporaryDirectory("driven-copy-out")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let (w, h) = (480, 360)
        var rgb: [UInt8] = []
        rgb.reserveCapacity(w * h * 3)
        for y in 0..<h { for x in 0..<w { rgb += [UInt8((x * 7 + y) & 0xFF), UInt8((y * 5) & 0xFF), UInt8((x ^ y) & 0xFF)] } }
        let path = dir.appendingPathComponent("map.png").path
        try PNGWrite.rgb(width: w, height: h, rgb: rgb, to: path)
        var s = Settings()
        s.map.imagePath = path
        s.map.bounds = GeoBounds(west: 0, south: 0, east: 0.02, north: 0.015)
        s.map.follow = follow
        return (s, try MapImage(path: path, background: s.map.background))
    }

    private func view(_ s: Settings, _ map: MapImage, _ w: Int, _ h: Int) throws(SceneView.SetupError) -> SceneView {
        try SceneView(settings: s, files: MapFiles(imageSize: (map.width, map.height)), canvasWidth: w, canvasHeight: h, physicalHeight: h, map: map, staleAfter: 30, center: nil)
    }

    func testThePanelIsTheNarrowedCanvasWhileTheDotMovesFollowedAndAfterAReload() throws {
        for follow in [FollowMode.off, .center] {
            let (settings, map) = try mapSettings(follow: follow)
            let panel = PanelDisplay(width: 200, height: 150)
            let driven = try DrivenDisplay.start(panel, now: 0) { w, h, _ throws(SceneView.SetupError) in
                try view(settings, map, w, h)
            }.get()
            XCTAssertTrue(panel.routed, "the display was not given the renderer's copy-out")
            let plain = OwnedPixelBuffer(width: 200, height: 150, format: .rgb565)
            for n in 0..<40 {
                let t = 1 + Double(n) * 0.1
                if n == 25 {
                    // A reload: a new view with its own frame, whose damage is copied over.
                    driven.view = try view(settings, map, 200, 150)
                }
                let fix = Fix(latitude: 0.006 + Double(n) * 0.00007, longitude: 0.009 + Double(n) * 0.00011, mode: .threeD,
                              horizontalError: nil, receivedAt: MonotonicInstant(nanoseconds: Int64(t * 1e9)))
                driven.view.add(fix)
                try driven.present(driven.view.draw(at: t), frame: FrameStamp(sinceStart: t, monotonic: t))
                let centre = try XCTUnwrap(driven.view.last.center, "\(follow) frame \(n): no dot")
                XCTAssertTrue(centre.x > 20 && centre.x < 180 && centre.y > 20 && centre.y < 130, "\(follow) frame \(n): the dot at \(centre)")
                driven.view.renderer.wholeCanvas().copyOut(region: driven.view.renderer.bounds, to: plain.buffer, rotation: .r0)
                let a = bytes(panel.screens[panel.front].buffer), b = bytes(plain.buffer)
                XCTAssertTrue(a == b, "\(follow) frame \(n): first difference at byte \((0..<a.count).first { a[$0] != b[$0] } ?? -1)")
            }
            XCTAssertEqual(driven.view.renderer.narrowedBytes, 480 * 360 * 2, "\(follow): copy-out narrowed every pixel")
        }
    }
}
