import Bench
import Compositor
import FrameBench
import Raster
import TestSupport
import XCTest

/// `pulsedot bench --route`: the route is in the frames (they differ from the same scene without
/// it) and, moved once a second, every frame still equals the reference painter's over the map
/// that carries it; the drive's frames hold the route's colour along the dot's path.
final class BenchRouteTests: XCTestCase {
    func testFramesWithTheRouteEqualTheReferenceAndDifferFromThoseWithout() throws {
        for format in [PixelFormat.xrgb8888, .rgb565] {
            var o = BenchOptions()
            (o.width, o.height, o.frames, o.format) = (320, 240, 150, format)
            let plain = try BenchRun(o)
            try plain.run()
            o.route = true
            let routed = try BenchRun(o, verify: true)
            try routed.run()
            XCTAssertEqual(routed.mismatches, 0, "\(format): frame \(routed.firstMismatch ?? -1) differs from the reference")
            XCTAssertEqual(zip(plain.hashes, routed.hashes).filter { $0 == $1 }.count, 0, "\(format): frames without the route")
        }
    }

    func testTheDriveShowsTheRouteAlongItsPath() throws {
        let dir = try TestEnvironment.temporaryDirectory("bench-route-drive")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("city.mbtiles").path
        try BenchCity.write(to: path, format: .png, columns: 12, rows: 10)
        var o = BenchOptions()
        (o.width, o.height, o.frames, o.route) = (320, 240, 130, true)
        let drive = try BenchRun(o, drive: path)
        let blue = SolidPaint.pixel(Color(r: 0, g: 102, b: 204)) & 0xFF_FFFF
        for n in 0..<130 {
            _ = try drive.nextFrame()
            // Ahead of the dot, on its way (4 px a frame at 60°), is the route not yet travelled.
            if n % 10 == 9 {
                let frame = drive.shown(n)
                var found = 0
                for ahead in [90, 100, 110] {
                    let x = 160 + Int(Double(ahead) * 0.866), y = 120 + ahead / 2
                    for dy in -1...1 { for dx in -1...1 where frame.pixel(x: x + dx, y: y + dy) & 0xFF_FFFF == blue { found += 1 } }
                }
                XCTAssertGreaterThan(found, 0, "frame \(n): no route ahead of the dot")
            }
        }
    }
}
