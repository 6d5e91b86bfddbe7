import Foundation
import Geo
import PNG
import Raster
import TestSupport
import Tiles
import XCTest

/// A small real MBTiles map whose every pixel says where it is: tile (x, y) pixel (px, py) has
/// red = px, green = py, blue = 16·(x − x0) + (y − y0). Written by the project's own writer with
/// PNG tiles from the project's encoder, read back through SQLite like any map.
struct TileMapFixture {
    static let zoom = 12
    static let firstX = 1200, firstY = 1400
    static let across = 6, down = 5

    let path: String
    let missing: Set<TileID>
    let corrupt: Set<TileID>

    static func tileColor(column: Int, row: Int, px: Int, py: Int) -> UInt32 {
        0xFF00_0000 | UInt32(px & 0xFF) << 16 | UInt32(py & 0xFF) << 8 | UInt32(column * 16 + row)
    }

    /// The map's pixel at map pixel (x, y) (0, 0 at the first tile's corner); nil outside the tiles.
    static func mapPixel(x: Int, y: Int, size: Int = 256) -> UInt32? {
        guard x >= 0, y >= 0, x < across * size, y < down * size else { return nil }
        return tileColor(column: x / size, row: y / size, px: x % size, py: y % size)
    }

    static func tileBytes(column: Int, row: Int, size: Int = 256) throws -> [UInt8] {
        let tile = OwnedPixelBuffer(width: size, height: size, format: .xrgb8888)
        for py in 0..<size {
            let out = tile.buffer.row(py).assumingMemoryBound(to: UInt32.self)
            for px in 0..<size { out[px] = tileColor(column: column, row: row, px: px, py: py) }
        }
        return try PNGWrite.frame(tile.buffer)
    }

    static func make(in folder: URL, missing: Set<TileID> = [], corrupt: Set<TileID> = [], size: Int = 256) throws -> TileMapFixture {
        let nw = TileID(z: zoom, x: firstX, y: firstY).bounds
        let se = TileID(z: zoom, x: firstX + across - 1, y: firstY + down - 1).bounds
        let path = folder.appendingPathComponent("city.mbtiles").path
        let writer = try MBTilesWriter(path: path, metadata: [
            ("name", "fixture"), ("format", "png"), ("minzoom", "\(zoom)"), ("maxzoom", "\(zoom)"),
            ("bounds", "\(nw.west),\(se.south),\(se.east),\(nw.north)"),
            ("attribution", "<a href=\"https://example.org\">&copy; Fixture</a>"),
        ])
        for row in 0..<down {
            for column in 0..<across {
                let id = TileID(z: zoom, x: firstX + column, y: firstY + row)
                if missing.contains(id) { continue }
                let bytes = try tileBytes(column: column, row: row, size: size)
                try writer.add(id, bytes: corrupt.contains(id) ? Array(bytes.prefix(300)) : bytes)
            }
        }
        try writer.finish()
        return TileMapFixture(path: path, missing: missing, corrupt: corrupt)
    }
}
