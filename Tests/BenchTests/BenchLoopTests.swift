import Bench
import FrameBench
import Raster
import XCTest

/// `pulsedot bench` runs the daemon's frame loop on virtual time against its in-memory display:
/// each frame is asked for at its own tick, handed over once, flipped into the buffer not on
/// screen, and is bit for bit the frame the bare step draws and copies out.
final class BenchLoopTests: XCTestCase {
    private static func options(_ scene: BenchOptions.Scene, _ format: PixelFormat, frames: Int = 24) -> BenchOptions {
        var o = BenchOptions()
        o.width = 320
        o.height = 240
        o.frames = frames
        o.scene = scene
        o.format = format
        return o
    }

    func testTheLoopsFramesAreTheStepsFramesEachPresentedOnceAtItsTick() throws {
        for scene in [BenchOptions.Scene.moving, .pan, .copy] {
            for format in [PixelFormat.xrgb8888, .rgb565] {
                let o = Self.options(scene, format)
                let looped = try BenchRun(o)
                try looped.run()
                let bare = try BenchFrames(o)
                for n in 0..<o.frames {
                    let r = bare.step(n)
                    XCTAssertEqual(looped.hashes[n], bare.hash(n), "\(scene) \(format) frame \(n)")
                    XCTAssertEqual(looped.copied[n], r.copied, "\(scene) \(format) frame \(n): pixels copied")
                    XCTAssertEqual(looped.touched[n], r.touched, "\(scene) \(format) frame \(n): pixels redrawn")
                }
                let stats = looped.scanoutStatistics
                XCTAssertEqual(stats.presents, o.frames, "\(scene) \(format): one present a frame")
                XCTAssertEqual(stats.queued, o.frames, "\(scene) \(format): every frame flipped")
                XCTAssertEqual(stats.pixelsCopied, looped.copied.reduce(0, +))
                XCTAssertEqual(looped.elapsed, Double(o.frames) / BenchScene.frameRate, accuracy: 1e-6,
                               "\(scene) \(format): a frame at each 1/60 s tick of virtual time")
            }
        }
    }

    func testCountedFramesRunThroughTheSameLoopAsTheWarmUp() throws {
        var o = Self.options(.moving, .rgb565, frames: 20)
        let whole = try BenchRun(o)
        try whole.run()
        let split = try BenchRun(o, countFrom: 7)
        try split.run()
        XCTAssertEqual(split.hashes, whole.hashes)
        XCTAssertEqual(split.scanoutStatistics, whole.scanoutStatistics)
        o.composition = .planes
        let planes = try BenchRun(o)
        try planes.run()
        XCTAssertEqual(planes.scanoutStatistics.presents, 20, "a frame on the planes is handed over too")
        XCTAssertLessThan(planes.scanoutStatistics.queued, 20, "but with nothing changed in the canvas it is not flipped")
    }
}
