import Foundation
import PNG
import Raster
import TestSupport
import Tiles
import XCTest

/// A tiled map followed at its centre, with the dot on its plane: the view pans by the primary
/// plane's source rectangle over two pictures drawn from the decoded tiles, and the screen the
/// display controller composed is the tiles' own pixels at the view.
extension KMSPlanesTests {
    /// 8×6 PNG tiles of 256 px at zoom 17 (near Montréal); tile (c, r) pixel (x, y) is red x,
    /// green y, blue 16·c + r, so a screen tells which part of the map it shows.
    static let tileFirst = TileID(z: 17, x: 38_746, y: 46_888)

    /// Files for the guest: the map and a drive north-east from the corner of tile (3, 3) (map
    /// pixel 768, 768), 24 fixes about 14 px east and 12 px north apart, replayed at twice real
    /// time (12 s).
    static func tilePanFiles() throws -> [(String, String)] {
        let dir = try TestEnvironment.temporaryDirectory("planes-tiles")
        let path = dir.appendingPathComponent("town.mbtiles").path
        let f = tileFirst, nw = f.bounds, se = TileID(z: 17, x: f.x + 7, y: f.y + 5).bounds
        let writer = try MBTilesWriter(path: path, metadata: [
            ("name", "town"), ("format", "png"), ("minzoom", "17"), ("maxzoom", "17"),
            ("bounds", "\(nw.west),\(se.south),\(se.east),\(nw.north)"),
        ])
        let tile = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)
        for row in 0..<6 { for column in 0..<8 {
            for y in 0..<256 { for x in 0..<256 {
                tile.buffer.row(y).storeBytes(of: 0xFF00_0000 | UInt32(x) << 16 | UInt32(y) << 8 | UInt32(column * 16 + row),
                                              toByteOffset: x * 4, as: UInt32.self)
            } }
            try writer.add(TileID(z: 17, x: f.x + column, y: f.y + row), bytes: try PNGWrite.frame(tile.buffer))
        } }
        try writer.finish()
        let start = TileID(z: 17, x: f.x + 3, y: f.y + 3).bounds
        let drive = dir.appendingPathComponent("drive.nmea")
        try DriveNMEA.straight(from: start.north, start.west, count: 24, step: 0.00015).write(to: drive)
        return [(path, "/tiles/town.mbtiles"), (drive.path, "/tiles/drive.nmea")]
    }

    func checkTheTiledMapPansOnThePrimaryPlane(_ vm: QEMUMachine, file: StaticString = #filePath, line: UInt = #line) throws {
        let pid = try vm.spawn("STATE_DIRECTORY=/tmp pulsedot run --set display.output=kms --set display.composition=planes "
            + "--set display.fps=20 --set map.tiles=/tiles/town.mbtiles --set map.zoom=17 --set map.attribution=none "
            + "--set map.follow=center --set source.replay=/tiles/drive.nmea --set source.replaySpeed=2")
        let log = try vm.waitForOutput(pid, containing: "the map scrolls on primary plane")
        XCTAssertTrue(log.contains("two 1280x1024 xrgb8888 pictures"), log, file: file, line: line)

        // A second client watches the primary plane while the view follows the drive, to its end.
        var windows: [[Int]] = []
        var framebuffers: Set<Int> = []
        let ended = try vm.waitForOutput(pid, "the replay's end", timeout: 60) { output in
            if let p = try? self.planes(vm).first(where: { $0.type == "primary" }), let fb = p.int("FB_ID"), fb != 0 {
                framebuffers.insert(fb)
                windows.append([p.int("SRC_X") ?? -1, p.int("SRC_Y") ?? -1, p.int("SRC_W") ?? -1])
            }
            return output.contains("/tiles/drive.nmea ended after")
        }
        XCTAssertFalse(ended.contains("moves in the canvas"), ended, file: file, line: line)
        XCTAssertTrue(windows.allSatisfy { $0[2] == 1024 << 16 }, "the screen's width of the picture: \(windows)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(Set(windows.map { $0[0] }).count, 4, "the window moves: \(windows)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(framebuffers.count, 2, "a re-centre puts the other picture on the plane: \(windows)", file: file, line: line)

        // What the controller composed: the tiles at the view, every one of them decoded.
        let shot = try writebackSnapshot(vm, pid: pid).shot
        XCTAssertEqual(try vm.stop(pid), 0, file: file, line: line)
        let corner = shot.pixel(0, 0)
        let ox = (corner.b >> 4) * 256 + corner.r, oy = (corner.b & 15) * 256 + corner.g
        XCTAssertTrue(ox > 400 && oy < 300 && ox + 1024 <= 8 * 256 && oy >= 0,
                      "the view at map (\(ox), \(oy)) has moved north-east along the drive from (256, 384)", file: file, line: line)
        var wrong = 0, first: (Int, Int)?
        for y in 0..<768 {
            for x in 0..<1024 where abs(x - 512) > 150 || abs(y - 384) > 150 {
                let p = shot.pixel(x, y), mx = ox + x, my = oy + y
                if p.r != mx & 255 || p.g != my & 255 || p.b != (mx >> 8) * 16 + (my >> 8) {
                    wrong += 1
                    if first == nil { first = (x, y) }
                }
            }
        }
        XCTAssertEqual(wrong, 0, "screen pixels that are not the tiles at (\(ox), \(oy)); the first at \(String(describing: first))",
                       file: file, line: line)
    }
}
