import Foundation
import Glibc
import PNG
import Raster
import TestSupport
import Tiles
import XCTest

/// A tiled map configured wrongly, as an operator would: `check-config` (the unit's ExecReload)
/// and `run` refuse it with exit 1 and one line naming file, line, key and what to change — at
/// once, not after waiting for a display that will never come. A tile set that is not there (yet)
/// is no mistake in the configuration: it is warned of, and the daemon runs without it.
final class TileConfigErrorTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("tile-config")
        try writeSmallMap()
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    /// 2×2 PNG tiles at zoom 14 only, in Berlin.
    static let zoom = 14, firstX = 8_800, firstY = 5_373

    private var small: String { dir.appendingPathComponent("small.mbtiles").path }

    private func bounds(_ x: Int, _ y: Int, _ columns: Int, _ rows: Int) -> String {
        let nw = TileID(z: Self.zoom, x: x, y: y).bounds, se = TileID(z: Self.zoom, x: x + columns - 1, y: y + rows - 1).bounds
        return "\(nw.west),\(se.south),\(se.east),\(nw.north)"
    }

    private func writeSmallMap() throws {
        let writer = try MBTilesWriter(path: small, metadata: [
            ("name", "small"), ("format", "png"), ("minzoom", "\(Self.zoom)"), ("maxzoom", "\(Self.zoom)"),
            ("bounds", bounds(Self.firstX, Self.firstY, 2, 2)),
        ])
        let tile = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)
        tile.buffer.fill(tile.buffer.bounds, with: Color(r: 40, g: 120, b: 200))
        let bytes = try PNGWrite.frame(tile.buffer)
        for x in 0..<2 { for y in 0..<2 { try writer.add(TileID(z: Self.zoom, x: Self.firstX + x, y: Self.firstY + y), bytes: bytes) } }
        try writer.finish()
    }

    /// An MBTiles of another kind: `format` as written, one tile of `bytes`.
    private func writeMap(_ name: String, format: String, bytes: [UInt8]) throws -> String {
        let path = dir.appendingPathComponent(name).path
        let writer = try MBTilesWriter(path: path, metadata: [
            ("name", name), ("format", format), ("minzoom", "\(Self.zoom)"), ("maxzoom", "\(Self.zoom)"),
            ("bounds", bounds(Self.firstX, Self.firstY, 1, 1)),
        ])
        try writer.add(TileID(z: Self.zoom, x: Self.firstX, y: Self.firstY), bytes: bytes)
        try writer.finish()
        return path
    }

    private func write(_ text: String) throws -> String {
        let path = dir.appendingPathComponent("bad.conf").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func assertRefused(_ text: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = try write(text)
        let run = try runProgram(try TestEnvironment.pulsedotBinary(), ["check-config", path])
        XCTAssertEqual(run.status, 1, text, file: file, line: line)
        XCTAssertEqual(run.stdout, "", "nothing is printed for a refused configuration", file: file, line: line)
        XCTAssertEqual(run.stderr, "pulsedot: \(path)\(message)\n", file: file, line: line)
    }

    /// A tile set that is not there is no configuration error: check-config warns and passes (the
    /// daemon runs without the map and takes it up when it appears).
    func testATilesFileThatIsNotThereIsNamedAndLeftOut() throws {
        let path = try write("[map]\n\ntiles = gone.mbtiles\n")
        let run = try runProgram(try TestEnvironment.pulsedotBinary(), ["check-config", path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("tiles = \(dir.path)/gone.mbtiles"), "shown as written: \(run.stdout)")
        XCTAssertTrue(run.stderr.hasPrefix("pulsedot: warning: \(path):3: map.tiles = \(dir.path)/gone.mbtiles: stat \(dir.path)/gone.mbtiles: No such file or directory (errno 2); "
                                           + "the daemon would draw the dot on the background colour and take the map up when it can be read\n"), run.stderr)
    }

    func testVectorAndWebPTilesAreRefusedInOneLine() throws {
        let vector = try writeMap("vector.mbtiles", format: "pbf", bytes: [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03])
        try assertRefused("[map]\ntiles = vector.mbtiles\n",
                          ":2: map.tiles = \(vector): holds vector tiles (format=pbf); PulseDot draws raster tiles (png, jpg)")
        let webp = try writeMap("photo.mbtiles", format: "webp", bytes: Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [UInt8](repeating: 0, count: 16))
        try assertRefused("[map]\ntiles = photo.mbtiles\n",
                          ":2: map.tiles = \(webp): holds WebP tiles; PulseDot decodes PNG and JPEG tiles")
    }

    func testAnImageAndTilesTogetherAreRefused() throws {
        try PNGWrite.rgb(width: 4, height: 4, rgb: [UInt8](repeating: 90, count: 48), to: dir.appendingPathComponent("map.png").path)
        try assertRefused("[map]\nimage = map.png\nbounds = \(bounds(Self.firstX, Self.firstY, 2, 2))\ntiles = small.mbtiles\n",
                          ":4: map.tiles = \(small): a map is either an image or tiles: remove image (or tiles)")
    }

    func testTheZoomIsAWholeLevelTheFileCanShow() throws {
        try assertRefused("[map]\ntiles = small.mbtiles\nzoom = 14.5\n",
                          ":3: map.zoom = 14.5: a tiled map is shown at a whole zoom level, not 14.5")
        for zoom in [13, 17] {
            try assertRefused("[map]\ntiles = small.mbtiles\nzoom = \(zoom)\n",
                              ":3: map.zoom = \(zoom): \(small) has zooms 14–14; zoom \(zoom) is outside them (up to two levels past the deepest are drawn enlarged)")
        }
        // Two levels past the deepest: enlarged, accepted.
        let ok = try runProgram(try TestEnvironment.pulsedotBinary(), ["check-config", try write("[map]\ntiles = small.mbtiles\nzoom = 16\n")])
        XCTAssertEqual(ok.status, 0, ok.stderr)
    }

    /// A pool that cannot hold the frame's tiles and their ring is refused where the frame size is
    /// known (png: and none), naming the key that was set: the pool's size, else the frame's.
    func testATileCacheTooSmallForTheFrameIsRefused() throws {
        let frames = "[display]\noutput = png:\(dir.path)/frames\nmode = 1920x1080\n"
        try assertRefused(frames + "[map]\ntiles = small.mbtiles\ncacheMegabytes = 21\n",
                          ":6: map.cacheMegabytes = 21: a tile cache of 21 MiB holds 84 tiles of 256 px; a 1920x1080 view and the ring around it need 88 (cacheMegabytes ≥ 22)")
        let enough = try runProgram(try TestEnvironment.pulsedotBinary(), ["check-config", try write(frames + "[map]\ntiles = small.mbtiles\ncacheMegabytes = 22\n")])
        XCTAssertEqual(enough.status, 0, enough.stderr)
        try assertRefused("[display]\noutput = none\nmode = 3840x2160\n[map]\ntiles = small.mbtiles\n",
                          ":3: display.mode = 3840x2160: a tile cache of 24 MiB holds 96 tiles of 256 px; a 3840x2160 view and the ring around it need 216 (cacheMegabytes ≥ 54)")

        // `run` says the same and stops, rather than waiting for the display.
        let path = try write(frames + "[map]\ntiles = small.mbtiles\ncacheMegabytes = 4\n")
        let started = Date()
        let run = try runProgram(try TestEnvironment.pulsedotBinary(), ["run", "--config", path], timeout: 20)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertTrue(run.stderr.contains("\(path):6: map.cacheMegabytes = 4: a tile cache of 4 MiB holds 16 tiles of 256 px; a 1920x1080 view and the ring around it need 88 (cacheMegabytes ≥ 22)"), run.stderr)
        XCTAssertFalse(run.stderr.contains("waiting for display"), run.stderr)
    }

    /// The same checks guard a reload: the running map stays; a tile set that is gone is left out.
    func testAReloadToABadTilesConfigurationIsRejected() throws {
        let good = """
            [source]
            position = \(TileID(z: Self.zoom, x: Self.firstX + 1, y: Self.firstY + 1).bounds.north),\(TileID(z: Self.zoom, x: Self.firstX + 1, y: Self.firstY + 1).bounds.west)
            \(ConfigSnippet.pngDisplay("\(dir.path)/frames", mode: "320x200", fps: 10, pngFps: 5))
            [map]
            tiles = small.mbtiles

            """
        let daemon = try RunningDaemon(config: good, in: dir)
        try daemon.waitForFrames(in: dir.appendingPathComponent("frames"), "a frame") { !$0.isEmpty }
        // A tile set that is gone is left out, not refused: the reload is taken, the map said missing.
        try daemon.rewrite(good.replacingOccurrences(of: "tiles = small.mbtiles", with: "tiles = gone.mbtiles"))
        daemon.child.signal(SIGHUP)
        let leftOut = try daemon.waitForLog("map: \(daemon.configPath):9: map.tiles = \(dir.path)/gone.mbtiles: stat ")
        XCTAssertTrue(leftOut.contains("configuration reloaded"), leftOut)
        try daemon.rewrite(good)
        daemon.child.signal(SIGHUP)
        _ = try daemon.waitForLog("configuration reloaded", occurrences: 2)
        for (i, (text, message)) in [
            (good + "zoom = 12\n", ":10: map.zoom = 12: \(small) has zooms 14–14"),
            (good.replacingOccurrences(of: "mode = 320x200", with: "mode = 2560x1600"), ":5: display.mode = 2560x1600: a tile cache of 24 MiB"),
        ].enumerated() {
            try daemon.rewrite(text)
            daemon.child.signal(SIGHUP)
            let log = try daemon.waitForLog("reload rejected", occurrences: i + 1)
            let rejected = log.split(separator: "\n").filter { $0.contains("reload rejected") }
            XCTAssertTrue(rejected.last?.contains("\(daemon.configPath)\(message)") ?? false, "\(rejected.last ?? "")")
        }
        XCTAssertTrue(daemon.isRunning, daemon.log)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }
}
