import Foundation
import PNG
import Raster
import TestSupport
import Tiles
import XCTest

/// The map a tiled example names, for checking that example as `check-config` checks it on a board
/// with the map installed: a small real MBTiles file, and a copy of the example that names it
/// instead of the board's path (a configuration naming a missing map is refused, rightly, and no
/// test may write to /var/lib).
enum ExampleMap {
    /// The map the tiled examples expect, as the integrator installs it.
    static let boardPath = "/var/lib/pulsedot/maps/city.mbtiles"
    static let tilesLine = "tiles = \(boardPath)"
    static let columns = 8, rows = 6

    /// Writes an MBTiles of `columns`×`rows` PNG tiles of 256 px at zoom 17 (near Montréal), each
    /// tile a colour of its own, installed by rename as the example says.
    static func write(to path: String) throws {
        let first = TileID(z: 17, x: 38_746, y: 46_888)
        let nw = first.bounds, se = TileID(z: 17, x: first.x + columns - 1, y: first.y + rows - 1).bounds
        let writer = try MBTilesWriter(path: path, metadata: [
            ("name", "example city"), ("format", "png"), ("minzoom", "17"), ("maxzoom", "17"),
            ("bounds", "\(nw.west),\(se.south),\(se.east),\(nw.north)"), ("attribution", "Example map"),
        ])
        let tile = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)
        for row in 0..<rows {
            for column in 0..<columns {
                tile.buffer.fill(tile.buffer.bounds, with: Color(r: UInt8(0x80 + column * 8), g: UInt8(0x80 + row * 8), b: 0xC0))
                try writer.add(TileID(z: 17, x: first.x + column, y: first.y + row), bytes: try PNGWrite.frame(tile.buffer))
            }
        }
        try writer.finish()
    }

    /// Whether the example at `url` names the board's map.
    static func isTiled(_ url: URL) throws -> Bool {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").contains { $0 == tilesLine }
    }

    /// A copy of the tiled example at `url` in `directory`, its `tiles` line (and nothing else)
    /// naming a map written there.
    static func installed(_ url: URL, in directory: URL) throws -> URL {
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.filter { $0 == tilesLine }.count, 1, "\(url.path) names its map once")
        let map = directory.appendingPathComponent("city.mbtiles").path
        try write(to: map)
        let copy = directory.appendingPathComponent(url.lastPathComponent)
        try lines.map { $0 == tilesLine ? "tiles = \(map)" : String($0) }.joined(separator: "\n")
            .write(to: copy, atomically: true, encoding: .utf8)
        return copy
    }
}
