import Geo
import Raster
import TileDecode
import Tiles
import XCTest

/// The demo's `town.mbtiles` read as the daemon reads it, to compare frames with: the tile block
/// it covers, the projection of that block, and any map pixel, decoded from the file's own tiles.
final class DemoTownFile {
    let set: TileSet
    let file: MBTiles
    let range: (firstColumn: Int, firstRow: Int, columns: Int, rows: Int)
    let projection: MapProjection
    private let decoder: TileDecoder
    private var decoded: [TileID: OwnedPixelBuffer] = [:]

    init(path: String) throws {
        set = try TileSet.open(path: path, scheme: .xyz, measure: TileDimensions.of)
        file = try MBTiles(path: path)
        range = set.tileRange(zoom: 17)
        projection = try MapProjection.tileGrid(zoom: 17, tileSize: set.tileSize, firstColumn: range.firstColumn,
                                                firstRow: range.firstRow, columns: range.columns, rows: range.rows)
        decoder = TileDecoder(tileSize: .px256, background: Color(r: 0, g: 0, b: 0))
    }

    deinit { file.close() }

    /// The map's pixel at (`x`, `y`) (pixel (0, 0) at the first tile's corner) as 0xRRGGBB.
    func pixel(_ x: Int, _ y: Int) throws -> UInt32 {
        let id = TileID(z: 17, x: range.firstColumn + x / 256, y: range.firstRow + y / 256)
        if decoded[id] == nil {
            let bytes = try XCTUnwrap(try file.tile(id), "no tile \(id) in \(file.path)")
            let slot = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)
            try decoder.decode(bytes, into: slot.buffer)
            decoded[id] = slot
        }
        let slot = decoded[id]!
        return withExtendedLifetime(slot) { slot.buffer.pixel(x: x % 256, y: y % 256) & 0xFF_FFFF }
    }

    /// The map pixel at a frame's top-left corner: where the frame put the position it drew at
    /// canvas point (`x`, `y`), as whole pixels (a view is scrolled by whole pixels).
    func offset(latitude: Double, longitude: Double, x: Double, y: Double) -> (x: Int, y: Int) {
        let p = projection.point(for: GeoPoint(latitude: latitude, longitude: longitude))
        return (Int((p.x - x).rounded()), Int((p.y - y).rounded()))
    }
}
