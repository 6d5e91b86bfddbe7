import Compositor
import FrameBench
import Raster
import XCTest

/// The benchmark's frames through the daemon's frame step and a flipping scan-out: every frame's
/// buffer holds exactly the canvas (each buffer gets the previous frame's damage it missed), and
/// the view that follows the dot redraws the whole canvas when it moves, only the dot's damage
/// when it does not — as the daemon draws it.
final class BenchFramesTests: XCTestCase {
    private static func options(_ scene: BenchOptions.Scene) -> BenchOptions {
        var o = BenchOptions()
        (o.width, o.height, o.frames, o.scene) = (320, 240, 60, scene)
        return o
    }

    func testEveryScanOutBufferHoldsTheCanvas() throws {
        for scene in [BenchOptions.Scene.moving, .static, .pan] {
            let frames = try BenchFrames(Self.options(scene))
            let canvas = frames.renderer.canvas.buffer
            for n in 0..<60 {
                let r = frames.step(n)
                XCTAssertGreaterThan(r.copied, 0, "\(scene) frame \(n): the halo animates")
                let target = frames.scanout.shown(n)
                var differing = 0
                for y in 0..<240 { for x in 0..<320 where target.pixel(x: x, y: y) != canvas.pixel(x: x, y: y) { differing += 1 } }
                XCTAssertEqual(differing, 0, "\(scene) frame \(n)")
            }
        }
    }

    func testThePanRedrawsWholeFramesOnlyWhenTheViewMoves() throws {
        let frames = try BenchFrames(Self.options(.pan))
        var moves = 0, still = 0
        for n in 0..<60 {
            let r = frames.step(n)
            let now = frames.scene.frame(n), before = frames.scene.frame(max(0, n - 1))
            if n == 0 || (now.originX, now.originY) != (before.originX, before.originY) {
                moves += 1
                XCTAssertEqual(r.touched, 320 * 240, "frame \(n): the view moved")
            } else {
                still += 1
                XCTAssertLessThan(r.touched, 320 * 240, "frame \(n): only the dot's damage")
            }
        }
        XCTAssertGreaterThan(moves, 5)
        XCTAssertGreaterThan(still, 5)
    }
}
