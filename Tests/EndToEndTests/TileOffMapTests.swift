import Foundation
import PNG
import Raster
import TestSupport
import Tiles
import XCTest

/// A stop kiosk whose surveyed position is not on its tiled map (a typo, the wrong city's file):
/// `offMap` decides what is drawn, and the log says why there is no dot — the one fix a fixed
/// position gives comes before the view exists, so it is said when the view takes it.
final class TileOffMapTests: XCTestCase {
    func testAFixedPositionOffTheTilesIsSaidAndFollowsOffMap() throws {
        let dir = try TestEnvironment.temporaryDirectory("tile-off-map")
        defer { try? FileManager.default.removeItem(at: dir) }
        // 3×3 PNG tiles at zoom 14, in Berlin.
        let (nw, se) = try SmallTileMap.write(to: dir.appendingPathComponent("map.mbtiles").path)

        let frames = dir.appendingPathComponent("frames")
        let middle = ((nw.north + se.south) / 2, (nw.west + se.east) / 2)
        let west = (middle.0, nw.west - 0.05)
        let config = { (position: (Double, Double), offMap: String) in """
            [source]
            position = \(position.0),\(position.1)
            \(ConfigSnippet.pngDisplay(frames.path, mode: "320x200", fps: 10, pngFps: 10))
            [map]
            tiles = map.mbtiles
            follow = center
            offMap = \(offMap)

            """ }
        let daemon = try RunningDaemon(config: config(west, "hide"), in: dir)
        try daemon.waitForLog("<5>fix \(west.0),\(west.1) is outside the map; the dot is hidden until it returns")
        var seen = try daemon.waitForFrames(in: frames, "three frames") { $0.count >= 3 }
        for line in seen {
            XCTAssertNil(line.x, "hidden: \(line)")
            XCTAssertNil(line.lat, "\(line)")
        }

        // The same position, pinned to the map's west edge: said again for the new view.
        try daemon.reload(config(west, "edge"), count: 1)
        try daemon.waitForLog("<5>fix \(west.0),\(west.1) is outside the map; the dot waits at the map's edge")
        var before = daemon.frames(in: frames).count
        seen = try daemon.waitForFrames(in: frames, "frames after the reload") { $0.count >= before + 3 }
        for line in seen.dropFirst(before) {
            XCTAssertEqual(line.x, 11, "the ring's radius inside the map's west edge: \(line)")
            // Drawn (and recorded) where it is pinned: 11 zoom-14 pixels east of the edge.
            XCTAssertEqual(try XCTUnwrap(line.lon), nw.west + 11 * 360 / Double(256 << 14), accuracy: 1e-9, "\(line)")
            XCTAssertEqual(try XCTUnwrap(line.lat), west.0, accuracy: 1e-9, "\(line)")
        }

        // On the map: drawn where it is, and nothing more said.
        try daemon.reload(config(middle, "edge"), count: 2)
        before = daemon.frames(in: frames).count
        seen = try daemon.waitForFrames(in: frames, "frames on the map") { $0.count >= before + 3 }
        for line in seen.dropFirst(before) {
            XCTAssertEqual(try XCTUnwrap(line.lat), middle.0, accuracy: 1e-9, "\(line)")
            XCTAssertEqual(try XCTUnwrap(line.lon), middle.1, accuracy: 1e-9, "\(line)")
        }
        XCTAssertEqual(daemon.log.components(separatedBy: "is outside the map").count - 1, 2, daemon.log)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }
}
