import Geo
import PNG
import Raster
import Tiles

/// A made-up city as a raster MBTiles file, for the `drive` benchmark and the tests that drive
/// through a large tiled map: square blocks between streets every 128 px, avenues every 1024 px,
/// a river winding west to east, every block's colour from a hash of where it is — so each tile
/// differs and a tile drawn in the wrong place shows. The same file on every machine.
public enum BenchCity {
    public static let zoom = 17
    /// Tile (0, 0) of the city: central Berlin at zoom 17.
    public static let firstColumn = 70_400
    public static let firstRow = 42_960
    public static let land = Color(r: 0xEE, g: 0xE9, b: 0xE0)

    public enum Format: String, CaseIterable, Sendable {
        case png, jpeg
    }

    /// Writes `columns`×`rows` 256-px tiles (zoom 17, and one level above it, zoom 16, so the file
    /// has a pyramid as real ones do) to `path`, installed by rename. `skip` tiles are left out
    /// and `damage` tiles written truncated (to test what a reader does with them).
    public static func write(to path: String, format: Format, columns: Int, rows: Int,
                             skip: Set<TileID> = [], damage: Set<TileID> = []) throws(BenchError) {
        let nw = TileID(z: zoom, x: firstColumn, y: firstRow).bounds
        let se = TileID(z: zoom, x: firstColumn + columns - 1, y: firstRow + rows - 1).bounds
        let centre = GeoPoint(latitude: (nw.north + se.south) / 2, longitude: (nw.west + se.east) / 2)
        let writer: MBTilesWriter
        do { writer = try MBTilesWriter(path: path, metadata: [
            ("name", "PulseDot bench city"), ("format", format == .png ? "png" : "jpg"), ("type", "baselayer"),
            ("minzoom", "\(zoom - 1)"), ("maxzoom", "\(zoom)"),
            ("bounds", "\(nw.west),\(se.south),\(se.east),\(nw.north)"),
            ("center", "\(centre.longitude),\(centre.latitude),\(zoom)"),
            ("attribution", "Made-up city © PulseDot"),
        ]) } catch { throw BenchError(error) }
        let tile = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)
        let jpeg: JPEGTileEncoder?
        do { jpeg = format == .jpeg ? try JPEGTileEncoder() : nil } catch { throw BenchError(error) }
        func encode() throws(BenchError) -> [UInt8] {
            if let jpeg {
                do { return try jpeg.encode(tile.buffer) } catch { throw BenchError(error) }
            }
            do { return try PNGWrite.frame(tile.buffer) } catch { throw BenchError(error) }
        }
        for row in 0..<rows {
            for column in 0..<columns {
                let id = TileID(z: zoom, x: firstColumn + column, y: firstRow + row)
                if skip.contains(id) { continue }
                draw(into: tile.buffer, worldX: (firstColumn + column) * 256, worldY: (firstRow + row) * 256, scale: 1)
                var bytes = try encode()
                if damage.contains(id) { bytes = Array(bytes.prefix(bytes.count / 3)) }
                do { try writer.add(id, bytes: bytes) } catch { throw BenchError(error) }
            }
        }
        // Zoom 16: the same city at half the pixels (a tile of it covers four of zoom 17).
        for row in stride(from: 0, to: rows, by: 2) {
            for column in stride(from: 0, to: columns, by: 2) {
                let x = (firstColumn + column) >> 1, y = (firstRow + row) >> 1
                draw(into: tile.buffer, worldX: x * 512, worldY: y * 512, scale: 2)
                let bytes = try encode()
                do { try writer.add(TileID(z: zoom - 1, x: x, y: y), bytes: bytes) } catch { throw BenchError(error) }
            }
        }
        do { try writer.finish() } catch { throw BenchError(error) }
    }

    /// The city's pixels for one tile whose top-left is zoom-17 world pixel (`worldX`, `worldY`),
    /// `scale` zoom-17 pixels per tile pixel.
    public static func draw(into tile: PixelBuffer, worldX: Int, worldY: Int, scale: Int) {
        let n = tile.width
        tile.fill(tile.bounds, with: land)
        let span = n * scale
        // Blocks: 128 px apart, each tinted by a hash of its block number.
        var by = (worldY >> 7) << 7
        while by < worldY + span {
            var bx = (worldX >> 7) << 7
            while bx < worldX + span {
                let h = hash(bx >> 7, by >> 7)
                let tint = Color(r: UInt8(0xD8 + Int(h & 0x1F)), g: UInt8(0xD4 + Int((h >> 5) & 0x1F)), b: UInt8(0xCC + Int((h >> 10) & 0x1F)))
                let park = h % 11 == 0
                let colour = park ? Color(r: 0xC8, g: 0xE6, b: 0xB4) : tint
                let inset = park ? 4 : 14
                rect(tile, worldX, worldY, scale, x: bx + inset, y: by + inset, width: 128 - 2 * inset, height: 128 - 2 * inset, colour)
                bx += 128
            }
            by += 128
        }
        // Streets on the block edges (white with a grey casing), avenues wider and yellow.
        let casing = Color(r: 0xC0, g: 0xBA, b: 0xB0), street = Color(r: 0xFF, g: 0xFF, b: 0xFF)
        let avenue = Color(r: 0xF8, g: 0xD8, b: 0x8A)
        var sx = (worldX >> 7) << 7
        while sx < worldX + span + 128 {
            let wide = sx % 1024 == 0
            rect(tile, worldX, worldY, scale, x: sx - (wide ? 9 : 6), y: worldY, width: wide ? 18 : 12, height: span, casing)
            rect(tile, worldX, worldY, scale, x: sx - (wide ? 7 : 4), y: worldY, width: wide ? 14 : 8, height: span, wide ? avenue : street)
            sx += 128
        }
        var sy = (worldY >> 7) << 7
        while sy < worldY + span + 128 {
            let wide = sy % 1024 == 0
            rect(tile, worldX, worldY, scale, x: worldX, y: sy - (wide ? 9 : 6), width: span, height: wide ? 18 : 12, casing)
            rect(tile, worldX, worldY, scale, x: worldX, y: sy - (wide ? 7 : 4), width: span, height: wide ? 14 : 8, wide ? avenue : street)
            sy += 128
        }
        // The river: a band whose centre line wanders by a triangle wave, drawn column by column.
        let water = Color(r: 0xAA, g: 0xD3, b: 0xDF)
        let riverY = (firstRow + 20) * 256
        var x = worldX
        while x < worldX + span {
            let phase = (x >> 2) % 1024
            let centre = riverY + (phase < 512 ? phase : 1024 - phase) - 256
            rect(tile, worldX, worldY, scale, x: x, y: centre - 40, width: 4 * scale, height: 80, water)
            x += 4 * scale
        }
    }

    /// Fills a rectangle given in zoom-17 world pixels.
    private static func rect(_ tile: PixelBuffer, _ worldX: Int, _ worldY: Int, _ scale: Int,
                             x: Int, y: Int, width: Int, height: Int, _ c: Color) {
        let x0 = floorDiv(x - worldX, scale), y0 = floorDiv(y - worldY, scale)
        let x1 = floorDiv(x + width - worldX + scale - 1, scale), y1 = floorDiv(y + height - worldY + scale - 1, scale)
        tile.fill(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), with: c)
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    static func hash(_ a: Int, _ b: Int) -> UInt32 {
        var h = UInt32(truncatingIfNeeded: a &* 73_856_093) ^ UInt32(truncatingIfNeeded: b &* 19_349_663)
        h ^= h >> 13
        h = h &* 0x5BD1_E995
        h ^= h >> 15
        return h
    }
}
