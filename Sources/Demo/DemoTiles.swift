import Geo
import PNG
import Raster
import Tiles

/// The demo's map as the daemon reads a city's: a raster MBTiles file of zoom-17 PNG tiles, each
/// a 256-px square cut straight out of `DemoMap`'s drawing (the town's pixel (0, 0) is a tile
/// corner, so a tile is the drawing's own pixels, not a resampling of them).
public enum DemoTiles {
    public static let name = "PulseDot demo town"
    public static let attribution = "Made-up town © PulseDot"

    /// The metadata MBTiles 1.3 asks for, `bounds` and `center` from the town itself.
    public static func metadata(_ town: DemoTown) -> [(name: String, value: String)] {
        let b = town.bounds, c = town.center
        return [
            ("name", name), ("format", "png"), ("type", "baselayer"), ("version", "1"),
            ("description", "The made-up town pulsedot demo drives through"),
            ("minzoom", "\(DemoTown.zoom)"), ("maxzoom", "\(DemoTown.zoom)"),
            ("bounds", "\(b.west),\(b.south),\(b.east),\(b.north)"),
            ("center", "\(c.longitude),\(c.latitude),\(DemoTown.zoom)"),
            ("attribution", attribution),
        ]
    }

    /// The tile at (`column`, `row`) of the town (0-based from its first tile), as the grid names it.
    public static func id(column: Int, row: Int) -> TileID {
        TileID(z: DemoTown.zoom, x: DemoTown.firstColumn + column, y: DemoTown.firstRow + row)
    }

    /// `map` (the town's drawing, `DemoTown.width`×`DemoTown.height`) within tile (`column`, `row`),
    /// without a copy: a window onto the drawing's own rows.
    public static func window(_ map: PixelBuffer, column: Int, row: Int) -> PixelBuffer {
        let size = DemoTown.tileSize
        return PixelBuffer(base: map.row(row * size) + column * size * 4, width: size, height: size,
                           stride: map.stride, format: map.format)
    }

    /// Writes every tile of `map` to `path`, installed by rename as a map should be (so a daemon
    /// still showing the previous file never sees it change under it).
    public static func write(_ map: PixelBuffer, town: DemoTown, to path: String) throws(DemoError) {
        precondition(map.width == DemoTown.width && map.height == DemoTown.height && map.format == .xrgb8888,
                     "the town's drawing is \(DemoTown.width)x\(DemoTown.height) XRGB8888")
        let writer: MBTilesWriter
        do { writer = try MBTilesWriter(path: path, metadata: metadata(town)) } catch { throw DemoError(error) }
        for row in 0..<DemoTown.rows {
            for column in 0..<DemoTown.columns {
                let bytes: [UInt8]
                do { bytes = try PNGWrite.frame(window(map, column: column, row: row)) } catch { throw DemoError(error) }
                do { try writer.add(id(column: column, row: row), bytes: bytes) } catch { throw DemoError(error) }
            }
        }
        do { try writer.finish() } catch { throw DemoError(error) }
    }
}
