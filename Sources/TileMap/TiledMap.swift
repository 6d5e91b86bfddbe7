import Compositor
import Geo
import Raster
import Syscall
import TileDecode
import Tiles

/// A tiled map shown on one canvas: the tile set, the block of tiles at the zoom shown (the
/// map's "image", pixel (0, 0) at its first tile's corner), the pool of decoded tiles, the worker
/// that decodes them and the mosaic the renderer restores rows from.
///
/// On the loop: `show` when the view's offset changes (cells filled from the pool, missing tiles
/// asked for: those in view first, nearest the centre first, then the ring around the view, ahead
/// in the direction the view moves first); `receive` when `deliveryDescriptor` polls readable
/// (tiles put in place, their area returned for redrawing). Neither decodes, reads a file or
/// allocates. A frame that must show every tile (PNG frames, the benchmark) calls `waitForView`.
public final class TiledMap {
    public let tileSet: TileSet
    /// The zoom shown, and the deepest zoom of the tile set at or above it (tiles from there are
    /// enlarged when the view is deeper).
    public let zoom: Int
    public let sourceZoom: Int
    /// The tiles at `zoom` covering the tile set's bounds.
    public let firstColumn: Int
    public let firstRow: Int
    public let columns: Int
    public let rows: Int
    public let mosaic: TileMosaic
    let cache: TileCache
    private let loader: TileLoader
    private var wanted: [TileID]
    private var ranks: [Int]
    private var deliveries: [TileDelivery]
    private var inFlight = 0
    private let maxInFlight = 8
    /// Which way the view last moved, to fetch ahead of it.
    private var heading = (x: 0, y: 0)
    private var reported: Set<String> = []
    /// Tiles the map lacks that were said (by ID: no text is made for one said before).
    private var reportedMissing: Set<TileID> = []
    /// Lines for the log (problems with tiles, each said once), taken by `takeNotes`.
    private var notes: [String] = []
    /// The tiles of the map picture a display plane shows (`drawPicture`), kept and asked for
    /// beside the view's; nil while the canvas shows the map.
    var pictureTiles: TileRange?
    /// Whether a tile arrived inside `pictureTiles` since the picture was drawn.
    public internal(set) var pictureOutdated = false
    /// The route drawn into every tile in the pool, with the map's pixels under it (`setRoute`).
    var routeUnderlay: RouteUnderlay?

    public init(tileSet: TileSet, zoom: Int, background: Color, cacheBytes: Int,
                canvasWidth: Int, canvasHeight: Int) throws(TileSetError) {
        let m = tileSet.metadata
        guard zoom >= m.minZoom, zoom <= m.maxZoom + 2 else {
            throw TileSetError("\(tileSet.path): zoom \(zoom) cannot be shown: the map has zooms \(m.minZoom)–\(m.maxZoom) (at most two levels past the deepest are enlarged)")
        }
        let size = tileSet.tileSize
        let slots = cacheBytes / tileSet.slotBytes
        if let problem = tileSet.cacheProblem(cacheBytes: cacheBytes, canvasWidth: canvasWidth, canvasHeight: canvasHeight) {
            throw TileSetError(problem)
        }
        guard let tileSize = TileSize(rawValue: size) else { throw TileSetError("\(tileSet.path): tiles of \(size) px") }
        self.tileSet = tileSet
        self.zoom = zoom
        sourceZoom = min(zoom, m.maxZoom)
        (firstColumn, firstRow, columns, rows) = tileSet.tileRange(zoom: zoom)
        do {
            mosaic = try TileMosaic(tileSize: size, color: background, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        } catch {
            throw TileSetError("\(error)")
        }
        cache = TileCache(tileSize: size, slotCount: slots)
        let store = try tileSet.openStore()
        let producer = TileProducer(store: store, decoder: TileDecoder(tileSize: tileSize, background: background),
                                    zoom: zoom, sourceZoom: sourceZoom)
        do {
            loader = try TileLoader(producer: producer, capacity: slots)
        } catch {
            store.close()
            throw TileSetError("\(tileSet.path): starting the tile worker: \(error)")
        }
        // Room for a plane's picture too: the view with a margin of up to a tile on every side.
        let wide = tileSet.slotsNeeded(canvasWidth: canvasWidth + 2 * size, canvasHeight: canvasHeight + 2 * size)
        wanted = []
        wanted.reserveCapacity(wide)
        ranks = []
        ranks.reserveCapacity(wide)
        deliveries = []
        deliveries.reserveCapacity(slots)
        reported.reserveCapacity(64)
        reportedMissing.reserveCapacity(64)
        notes.reserveCapacity(16)
        if zoom > sourceZoom {
            notes.append("map \(tileSet.path): zoom \(zoom) is drawn from zoom \(sourceZoom) tiles enlarged \(1 << (zoom - sourceZoom))x (the map's deepest zoom is \(m.maxZoom))")
        }
        // The view starts nowhere: the first `show` fills every cell.
        mosaic.move(toX: Int.min >> 2, y: Int.min >> 2)
    }

    deinit { loader.close() }

    /// The map as an image for the projection: pixel (0, 0) at the first tile's top-left.
    public func projection() throws(ProjectionError) -> MapProjection {
        try .tileGrid(zoom: zoom, tileSize: tileSet.tileSize, firstColumn: firstColumn, firstRow: firstRow,
                      columns: columns, rows: rows)
    }

    /// What the pool holds: bytes, slots.
    public var cacheBytes: Int { cache.byteCount }
    public var cacheSlots: Int { cache.slotCount }
    public var tilesDecoded: Int { loader.counts.decoded }
    public var tilesFailed: Int { loader.counts.failed }
    /// Tiles the cache holds decoded now (or knows to be missing).
    public var tilesHeld: Int { cache.readyCount }

    /// Readable when decoded tiles are waiting for `receive` (what `waitForView` blocks on).
    public var deliveryDescriptor: FileDescriptor { loader.delivered.descriptor }

    /// Whether tiles wait for `receive`: cheap enough to ask every frame.
    public var hasDeliveries: Bool { loader.hasDeliveries }

    /// Whether `takeNotes` has lines for the log.
    public var hasNotes: Bool { !notes.isEmpty }

    /// "map city.mbtiles: 4,096 tiles of 256 px at zoom 16 …", for the log at start.
    public var summary: String {
        let m = tileSet.metadata
        return "map \(tileSet.path): \(m.format.name) tiles of \(tileSet.tileSize) px, zoom \(zoom) of \(m.minZoom)–\(m.maxZoom), \(columns)x\(rows) tiles in view range, tile cache \(cache.slotCount) tiles (\(cache.byteCount >> 20) MiB)"
    }

    /// Moves the view so the map pixel `offset` is at the canvas's top-left. Returns whether the
    /// view moved (the whole canvas must be redrawn).
    @discardableResult
    public func show(offset: ViewOffset) -> Bool {
        if mosaic.wantsNarrowed && cache.narrowedStorage == nil { keepNarrowed() }
        let before = visibleRange
        let was = mosaic.offset
        guard mosaic.move(toX: offset.x, y: offset.y) else { return false }
        if visibleRange != before {
            heading = (offset.x - was.x, offset.y - was.y)
            fillCells()
            planRequests()
        }
        return true
    }

    /// From now on every tile in the pool also has an RGB565 copy, which the mosaic copies out
    /// to an RGB565 panel where the canvas shows the map.
    private func keepNarrowed() {
        cache.keepNarrowed()
        guard cache.narrowedStorage != nil else { return }
        mosaic.useNarrowed()
        fillCells()
        notes.append("map \(tileSet.path): RGB565 copies of the cached tiles for the panel (\(cache.narrowedByteCount >> 20) MiB more)")
    }

    /// Takes the tiles the worker finished: each goes into the pool and, when in view, onto the
    /// mosaic. Returns the canvas area they cover (to redraw).
    public func receive() -> Rect {
        deliveries.removeAll(keepingCapacity: true)
        loader.take(into: &deliveries)
        var damage = Rect.empty
        for d in deliveries {
            inFlight -= 1
            cache.finish(d.slot, blank: d.blank)
            // The route drawn in; the RGB565 copy made here, once, when asked for before the
            // panel wanted copies.
            if !d.blank { settle(d.slot, id: d.id, narrowedByWorker: d.narrowed) }
            if let problem = d.problem, !reported.contains(problem) {
                reported.insert(problem)
                notes.append("map \(tileSet.path): \(problem); the map's colour shows there")
            } else if d.problem == nil, d.blank {
                // A hole in the map is worth a line too (a map made from a smaller area, a tile
                // lost when it was copied), naming the tile the file lacks: at a deeper zoom, the
                // one that would have been enlarged.
                let levels = zoom - sourceZoom
                let absent = TileID(z: sourceZoom, x: d.id.x >> levels, y: d.id.y >> levels)
                if reportedMissing.insert(absent).inserted {
                    notes.append("map \(tileSet.path): tile \(absent) is not in the map; the map's colour shows there")
                }
            }
            let column = d.id.x - firstColumn, row = d.id.y - firstRow
            if !d.blank, pictureTiles?.contains(column: column, row: row) == true { pictureOutdated = true }
            if mosaic.tile(column: column, row: row) == nil, !d.blank, isInView(column: column, row: row) {
                cache.touch(d.slot)
                damage = damage.union(mosaic.setTile(column: column, row: row, pixels: cache.shownPixels(of: d.id), narrowed: cache.shownNarrowed(of: d.id)))
            }
        }
        pump()
        return damage
    }

    /// Waits (blocking) until every tile in view has been decoded or found missing, taking them
    /// as `receive` does. For outputs whose frames must not depend on timing: PNG frames, bench.
    @discardableResult
    public func waitForView() -> Rect {
        var damage = Rect.empty
        while viewPending {
            guard inFlight > 0 else { break }
            _ = try? deliveryDescriptor.waitUntilReadable(timeoutMilliseconds: 1000)
            damage = damage.union(receive())
        }
        return damage
    }

    /// Decodes (blocking) the tiles a view at `offset` will show, without showing it: what the
    /// benchmark does between frames, so the frame it counts finds them ready, as a drive does
    /// once prefetching is ahead of it. Returns the area of the current view that tiles arriving
    /// meanwhile changed.
    @discardableResult
    public func preload(offset: ViewOffset) -> Rect {
        let r = mosaic.range(atX: offset.x, y: offset.y)
        func inRange(_ id: TileID) -> Bool {
            let column = id.x - firstColumn, row = id.y - firstRow
            return column >= r.column && column < r.column + r.columns && row >= r.row && row < r.row + r.rows
        }
        var damage = Rect.empty
        while true {
            var pending = false
            for j in 0..<r.rows {
                for i in 0..<r.columns {
                    let column = r.column + i, row = r.row + j
                    guard inMap(column: column, row: row) else { continue }
                    let tile = id(column: column, row: row)
                    if let s = cache.slot(of: tile) {
                        if cache.states[s] == .loading { pending = true }
                        continue
                    }
                    pending = true
                    guard inFlight < maxInFlight,
                          let slot = cache.claim(for: tile, keep: { inRange($0) || isKept($0) }) else { continue }
                    loader.request(TileRequest(id: tile, slot: slot, pixels: cache.pixels(slot), narrowed: cache.narrowed(slot)))
                    inFlight += 1
                }
            }
            guard pending, inFlight > 0 else { return damage }
            _ = try? deliveryDescriptor.waitUntilReadable(timeoutMilliseconds: 1000)
            damage = damage.union(receive())
        }
    }

    /// The log lines gathered since the last call.
    public func takeNotes() -> [String] {
        defer { notes.removeAll(keepingCapacity: true) }
        return notes
    }

    /// Stops the worker; the pool is freed with the map.
    public func close() { loader.close() }

    // MARK: -

    /// The tiles in view: first column and row, columns and rows.
    private var visibleRange: TileRange {
        TileRange(column: mosaic.firstTile.column, row: mosaic.firstTile.row, columns: mosaic.visibleColumns, rows: mosaic.visibleRows)
    }

    struct TileRange: Equatable {
        var column: Int, row: Int, columns: Int, rows: Int

        func contains(column c: Int, row r: Int) -> Bool { c >= column && c < column + columns && r >= row && r < row + rows }
    }

    private var viewPending: Bool {
        let f = mosaic.firstTile
        for j in 0..<mosaic.visibleRows {
            for i in 0..<mosaic.visibleColumns {
                let column = f.column + i, row = f.row + j
                guard inMap(column: column, row: row) else { continue }
                guard let s = cache.slot(of: id(column: column, row: row)), cache.states[s] != .loading else { return true }
            }
        }
        return false
    }

    private func inMap(column: Int, row: Int) -> Bool { column >= 0 && column < columns && row >= 0 && row < rows }

    private func isInView(column: Int, row: Int) -> Bool {
        let f = mosaic.firstTile
        return column >= f.column && column < f.column + mosaic.visibleColumns && row >= f.row && row < f.row + mosaic.visibleRows
    }

    /// In view, in the ring around it, or in the plane's picture: what the pool keeps.
    private func isKept(_ id: TileID) -> Bool {
        isNear(id) || (pictureTiles?.contains(column: id.x - firstColumn, row: id.y - firstRow) ?? false)
    }

    /// In view or in the ring around it: what the pool keeps whatever a picture needs.
    private func isNear(_ id: TileID) -> Bool { ring.contains(column: id.x - firstColumn, row: id.y - firstRow) }

    /// The view's tiles and one more on every side.
    private var ring: TileRange {
        let f = mosaic.firstTile
        return TileRange(column: f.column - 1, row: f.row - 1, columns: mosaic.visibleColumns + 2, rows: mosaic.visibleRows + 2)
    }

    private func id(column: Int, row: Int) -> TileID { TileID(z: zoom, x: firstColumn + column, y: firstRow + row) }

    private func fillCells() {
        let f = mosaic.firstTile
        for j in 0..<mosaic.visibleRows {
            for i in 0..<mosaic.visibleColumns {
                let column = f.column + i, row = f.row + j
                guard inMap(column: column, row: row) else { continue }
                let tile = id(column: column, row: row)
                if let s = cache.slot(of: tile) { cache.touch(s) }
                mosaic.setTile(column: column, row: row, pixels: cache.shownPixels(of: tile), narrowed: cache.shownNarrowed(of: tile))
            }
        }
    }

    /// The tiles to ask for, best first: in view by distance from the centre, then the ring and
    /// the plane's picture, the side the view moves towards first.
    func planRequests() {
        wanted.removeAll(keepingCapacity: true)
        let f = mosaic.firstTile
        let w = mosaic.visibleColumns, h = mosaic.visibleRows
        // Twice the distance from the view's centre tile, in tiles; the ring's tiles come after.
        let cx = 2 * f.column + w - 1, cy = 2 * f.row + h - 1
        func collect(_ r: TileRange, besides other: TileRange?) {
            for row in r.row..<(r.row + r.rows) {
                for column in r.column..<(r.column + r.columns) {
                    guard other?.contains(column: column, row: row) != true, inMap(column: column, row: row),
                          cache.slot(of: id(column: column, row: row)) == nil else { continue }
                    wanted.append(id(column: column, row: row))
                }
            }
        }
        let near = ring
        collect(near, besides: nil)
        if let p = pictureTiles { collect(p, besides: near) }
        let hx = heading.x.signum(), hy = heading.y.signum()
        ranks.removeAll(keepingCapacity: true)
        for t in wanted {
            let column = t.x - firstColumn, row = t.y - firstRow
            let ring = column < f.column || column >= f.column + w || row < f.row || row >= f.row + h
            let dx = 2 * column - cx, dy = 2 * row - cy
            // Ahead of the motion counts as nearer, behind as farther.
            ranks.append((ring ? 1 << 20 : 0) + (abs(dx) + abs(dy)) * 4 - (dx * hx + dy * hy))
        }
        // Insertion sort: a few dozen tiles, and unlike the standard sort it needs no buffer.
        var k = 1
        while k < wanted.count {
            let tile = wanted[k], rank = ranks[k]
            var j = k - 1
            while j >= 0, ranks[j] > rank {
                wanted[j + 1] = wanted[j]
                ranks[j + 1] = ranks[j]
                j -= 1
            }
            wanted[j + 1] = tile
            ranks[j + 1] = rank
            k += 1
        }
        pump()
    }

    /// Lends slots for the best wanted tiles, keeping at most `maxInFlight` with the worker so a
    /// view that moves on is not stuck behind tiles it has left.
    private func pump() {
        var taken = 0
        while inFlight < maxInFlight, taken < wanted.count {
            let tile = wanted[taken]
            taken += 1
            guard isKept(tile), cache.slot(of: tile) == nil else { continue }
            // A pool too small for the picture as well still holds the view and its ring.
            guard let slot = cache.claim(for: tile, keep: isKept) ?? (isNear(tile) ? cache.claim(for: tile, keep: isNear) : nil)
            else { break }
            loader.request(TileRequest(id: tile, slot: slot, pixels: cache.pixels(slot), narrowed: cache.narrowed(slot)))
            inFlight += 1
        }
        wanted.removeFirst(taken)
    }
}
