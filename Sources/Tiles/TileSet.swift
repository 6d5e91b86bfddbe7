import Geo
import Syscall

/// A tiled map as configured and checked when the configuration is loaded: where it is, what it
/// holds, and its tile size. The tiles themselves are read later, on the tile worker, from a store
/// this opens again (`openStore`), so the settings never hold an open file.
public struct TileSet: Equatable, Sendable {
    public enum Kind: String, Equatable, Sendable {
        case mbtiles, folder
    }

    public let path: String
    public let kind: Kind
    /// Rows of a folder; MBTiles is TMS inside whatever this says.
    public let scheme: TileScheme
    public let metadata: MBTilesMetadata
    /// Pixels along a tile's side (256 or 512), from the first tile's header.
    public let tileSize: Int
    /// The file or folder opened, to tell at a reload whether a new map was renamed over the path.
    public let identity: FileIdentity

    /// Opens `path` (an `.mbtiles` file, or a folder of `{z}/{x}/{y}` tiles), reads what it holds
    /// and measures one tile with `measure` (width and height from a tile's header).
    public static func open(path: String, scheme: TileScheme,
                            measure: ([UInt8]) -> (width: Int, height: Int)?) throws(TileSetError) -> TileSet {
        let status: FileStatus
        do { status = try FileStatus(path: path) } catch { throw TileSetError("\(path): \(error)") }
        let kind: Kind = status.kind == .directory ? .folder : .mbtiles
        let store = try openStore(path: path, kind: kind, scheme: scheme)
        defer { store.close() }
        let metadata = store.metadata
        // Readers list WebP among raster formats, but no decoder here takes it: say so, rather
        // than that no tile could be read.
        guard metadata.format != .webp else {
            throw TileSetError("\(path): holds WebP tiles; PulseDot decodes PNG and JPEG tiles")
        }
        guard let size = sampleSize(store, measure: measure) else {
            throw TileSetError("\(path): no tile near the centre of its bounds could be read to learn the tile size")
        }
        guard size.width == size.height, size.width == 256 || size.width == 512 else {
            throw TileSetError("\(path): tiles of \(size.width)x\(size.height) px (PulseDot draws 256- and 512-px square tiles)")
        }
        return TileSet(path: path, kind: kind, scheme: scheme, metadata: metadata, tileSize: size.width,
                       identity: status.identity)
    }

    /// The same tiles with `bounds` in place of the file's (to show part of a larger map).
    public func restricted(to bounds: GeoBounds) -> TileSet {
        var m = metadata
        m.bounds = bounds
        return TileSet(path: path, kind: kind, scheme: scheme, metadata: m, tileSize: tileSize, identity: identity)
    }

    /// Tiles in a view of `canvasWidth`×`canvasHeight` at most, plus the ring around it: what a
    /// tile cache must hold at least. Here, so the configuration can refuse a cache too small for
    /// a frame size it already knows.
    public func slotsNeeded(canvasWidth: Int, canvasHeight: Int) -> Int {
        ((canvasWidth + tileSize - 1) / tileSize + 3) * ((canvasHeight + tileSize - 1) / tileSize + 3)
    }

    /// Why a cache of `cacheBytes` cannot serve a view of this size, or nil when it can.
    public func cacheProblem(cacheBytes: Int, canvasWidth: Int, canvasHeight: Int) -> String? {
        let slots = cacheBytes / slotBytes
        let needed = slotsNeeded(canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        guard slots < needed else { return nil }
        return "a tile cache of \(cacheBytes >> 20) MiB holds \(slots) tiles of \(tileSize) px; a \(canvasWidth)x\(canvasHeight) view and the ring around it need \(needed) (cacheMegabytes ≥ \((needed * slotBytes + (1 << 20) - 1) >> 20))"
    }

    /// Bytes of one decoded tile (XRGB8888).
    public var slotBytes: Int { tileSize * tileSize * 4 }

    /// A store reading this tile set, for one thread.
    public func openStore() throws(TileSetError) -> any TileStore {
        try Self.openStore(path: path, kind: kind, scheme: scheme)
    }

    static func openStore(path: String, kind: Kind, scheme: TileScheme) throws(TileSetError) -> any TileStore {
        switch kind {
        case .mbtiles:
            do { return try MBTiles(path: path) } catch { throw TileSetError("\(error)") }
        case .folder:
            do { return try TileFolder(path: path, scheme: scheme) } catch { throw TileSetError("\(error)") }
        }
    }

    /// The block of tiles at `zoom` that covers the bounds: first column and row (XYZ), and how
    /// many across and down. Bounds that cross the antimeridian keep the eastern part only.
    public func tileRange(zoom: Int) -> (firstColumn: Int, firstRow: Int, columns: Int, rows: Int) {
        let b = metadata.bounds
        let east = b.crossesAntimeridian ? 180 : b.east
        let n = 1 << zoom
        let nw = Self.tile(containing: GeoPoint(latitude: b.north, longitude: b.west), zoom: zoom)
        // The far edges belong to the last tile inside, not the next one.
        let se = Self.tile(containing: GeoPoint(latitude: b.south, longitude: east), zoom: zoom, edge: true)
        let x0 = min(max(nw.x, 0), n - 1), y0 = min(max(nw.y, 0), n - 1)
        let x1 = min(max(se.x, x0), n - 1), y1 = min(max(se.y, y0), n - 1)
        return (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }

    /// The tile under `point` at `zoom`; with `edge`, a point on a tile's west or north edge
    /// counts as the tile before it.
    public static func tile(containing point: GeoPoint, zoom: Int, edge: Bool = false) -> (x: Int, y: Int) {
        let n = 1 << zoom
        guard let grid = try? MapProjection.tileGrid(zoom: zoom, tileSize: 1, firstColumn: 0, firstRow: 0, columns: n, rows: n) else {
            return (0, 0)
        }
        let p = grid.point(for: point)
        func index(_ v: Double) -> Int {
            let clamped = min(max(v, 0), Double(n))
            let whole = clamped.rounded(.down)
            // Bounds written with a few decimals land a hair past the edge they mean.
            let onEdge = clamped - whole < 1e-6 || whole + 1 - clamped < 1e-6
            let nearest = Int(clamped.rounded())
            if onEdge { return edge ? nearest - 1 : nearest }
            return Int(whole)
        }
        return (index(p.x), index(p.y))
    }

    /// One tile's size: the tile under the centre of the bounds, at the highest zoom and then
    /// lower ones (a sparse set may lack the centre at some zooms).
    static func sampleSize(_ store: any TileStore, measure: ([UInt8]) -> (width: Int, height: Int)?) -> (width: Int, height: Int)? {
        let m = store.metadata
        let b = m.bounds
        let centre = m.center?.point ?? b.middle
        // Then the corners: a centre can fall in a hole of a map that is not a rectangle.
        let places = [centre, GeoPoint(latitude: b.north, longitude: b.west), GeoPoint(latitude: b.south, longitude: b.west),
                      GeoPoint(latitude: b.north, longitude: b.east), GeoPoint(latitude: b.south, longitude: b.east)]
        for (k, place) in places.enumerated() {
            for zoom in stride(from: m.maxZoom, through: m.minZoom, by: -1) {
                let t = tile(containing: place, zoom: zoom, edge: k == 4)
                if case .bytes(let bytes) = store.read(TileID(z: zoom, x: t.x, y: t.y)), let size = measure(bytes) {
                    return size
                }
            }
        }
        return nil
    }
}

/// Why a tile set cannot be used, in one line naming it.
public struct TileSetError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
