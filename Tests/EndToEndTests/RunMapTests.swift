import Foundation
import PNG
import TestSupport
import XCTest

/// A georeferenced map image under the dot, headless: the frame shows the map's own pixels,
/// scrolled so that `follow = center` keeps the dot in the middle, and the log says what the
/// decoded map costs in memory.
final class RunMapTests: XCTestCase {
    func testTheFrameShowsTheMapScrolledToTheDot() throws {
        let dir = try TestEnvironment.temporaryDirectory("run-map")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Every pixel of the 1200x900 map says where it is: red x mod 256, green y mod 256, blue
        // the 256-pixel block.
        let (w, h) = (1200, 900)
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h { for x in 0..<w {
            let i = (y * w + x) * 3
            rgb[i] = UInt8(x & 255); rgb[i + 1] = UInt8(y & 255); rgb[i + 2] = UInt8((x >> 8) << 4 | (y >> 8))
        } }
        try PNGWrite.rgb(width: w, height: h, rgb: rgb, to: dir.appendingPathComponent("map.png").path)
        let frames = dir.appendingPathComponent("frames")
        let (west, south, east, north) = (-73.60, 45.49, -73.54, 45.52)
        let (lat, lon) = (45.505, -73.57)
        let daemon = try RunningDaemon(config: """
            [source]
            position = \(lat),\(lon)
            \(ConfigSnippet.pngDisplay(frames.path, mode: "640x400", fps: 10, pngFps: 2))
            [map]
            image = map.png
            bounds = \(west),\(south),\(east),\(north)
            follow = center
            """, in: dir)
        let seen = try daemon.waitForFrames(in: frames, "two frames") { $0.count >= 2 }
        XCTAssertTrue(daemon.log.contains("<6>map \(dir.path)/map.png: 1200x900, 4.1 MiB in memory (xrgb8888)"), daemon.log)

        // Where the position is on the image (the test's own Web Mercator), and the whole-pixel
        // scroll that centres it.
        func mx(_ lon: Double) -> Double { (lon + 180) / 360 }
        func my(_ lat: Double) -> Double { let s = sin(lat * .pi / 180); return 0.5 - log((1 + s) / (1 - s)) / (4 * .pi) }
        let px = (mx(lon) - mx(west)) / (mx(east) - mx(west)) * Double(w)
        let py = (my(lat) - my(north)) / (my(south) - my(north)) * Double(h)
        let ox = Int((px - 320).rounded()), oy = Int((py - 200).rounded())
        let line = try XCTUnwrap(seen.last)
        XCTAssertEqual(try XCTUnwrap(line.x), px - Double(ox), accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(line.y), py - Double(oy), accuracy: 0.01)
        XCTAssertEqual(line.x!, 320, accuracy: 0.5, "follow = center keeps the dot in the middle")

        let image = try PNGRead.rgba(path: frames.appendingPathComponent(line.file).path)
        XCTAssertEqual(image.width, 640)
        // Away from the dot, every canvas pixel is the map pixel at the scroll offset.
        for (x, y) in [(0, 0), (10, 390), (639, 0), (639, 399), (100, 200), (600, 50)] {
            let i = (y * 640 + x) * 4
            let mxp = x + ox, myp = y + oy
            let expected = [UInt8(mxp & 255), UInt8(myp & 255), UInt8((mxp >> 8) << 4 | (myp >> 8))]
            XCTAssertEqual(Array(image.rgba[i..<i + 3]), expected, "canvas (\(x), \(y)) should be map (\(mxp), \(myp))")
        }
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }
}
