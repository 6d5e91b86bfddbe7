import Bench
import Compositor
import FrameBench
import Raster
import TestSupport
import XCTest

/// `pulsedot bench --scene drive --composition planes`: the map panned over tiles on the primary
/// plane — the window of a map picture drawn from the tiles, the canvas untouched, the map drawn
/// anew only at a re-centre — and the sprite blended over it is the software drive's frame
/// within 3/255 (the sprite is the dot painted over black and over white; RGB565: one step, the
/// sprite is not narrowed), the map outside it exact, in both formats.
final class BenchDrivePlanesTests: XCTestCase {
    func testThePannedTilesWithTheSpriteOverThemAreTheSoftwareDrive() throws {
        let dir = try TestEnvironment.temporaryDirectory("bench-drive-planes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("city.mbtiles").path
        try BenchCity.write(to: path, format: .png, columns: 12, rows: 10)
        for format in [PixelFormat.xrgb8888, .rgb565] {
            var o = BenchOptions()
            (o.width, o.height, o.frames, o.format) = (320, 240, 100, format)
            let software = try BenchRun(o, drive: path)
            o.composition = .planes
            let planes = try BenchRun(o, drive: path)
            let composed = OwnedPixelBuffer(width: 320, height: 240, format: .xrgb8888)
            let expected = OwnedPixelBuffer(width: 320, height: 240, format: .xrgb8888)
            var redraws = 0
            for n in 0..<100 {
                _ = try software.nextFrame()
                let r = try planes.nextFrame()
                XCTAssertEqual(r.touched, 0, "\(format) frame \(n): the canvas untouched")
                if r.copied > 0 { redraws += 1 }
                let place = try XCTUnwrap(planes.planes?.spritePlace, "\(format) frame \(n)")
                let shown = planes.shown(n)
                XCTAssertEqual(shown.format, format)
                for y in 0..<240 { for x in 0..<320 {
                    composed.buffer.row(y).storeBytes(of: shown.pixel(x: x, y: y), toByteOffset: x * 4, as: UInt32.self)
                    expected.buffer.row(y).storeBytes(of: software.shown(n).pixel(x: x, y: y), toByteOffset: x * 4, as: UInt32.self)
                } }
                let picture = try XCTUnwrap(planes.planes).spritePicture
                DotSprite.blend(PixelBuffer(base: picture.base, width: place.width, height: place.height, stride: picture.stride, format: .xrgb8888),
                                over: composed.buffer, atX: place.x, y: place.y)
                var worst = 0, outside = 0
                for y in 0..<240 { for x in 0..<320 {
                    let a = composed.buffer.pixel(x: x, y: y), b = expected.buffer.pixel(x: x, y: y)
                    if a & 0xFF_FFFF == b & 0xFF_FFFF { continue }
                    if !place.contains(x: x, y: y) { outside += 1 }
                    for shift: UInt32 in [0, 8, 16] { worst = max(worst, abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF))) }
                } }
                // RGB565: the software frame narrows the dot, the plane's sprite is not narrowed.
                XCTAssertLessThanOrEqual(worst, format == .rgb565 ? 8 : 3, "\(format) frame \(n)")
                XCTAssertEqual(outside, 0, "\(format) frame \(n): the map exactly, outside the dot's picture")
            }
            XCTAssertGreaterThanOrEqual(redraws, 3, "\(format): the first picture and re-centres (4 px a frame, every 128 px)")
            XCTAssertLessThanOrEqual(redraws, 6, "\(format): no more than the re-centres")
        }
    }
}
