import Raster

/// A map made of square tiles, as seen by one canvas: for every tile the view touches, the
/// XRGB8888 pixels it shows (a slot of a tile cache, `tileSize` square, rows `tileSize`·4 bytes
/// apart), or none, where the map's colour shows until the tile is ready. Restoring a rectangle
/// copies rows straight out of the slots, so no canvas-sized copy of the map is kept or rebuilt
/// when the view moves. Whoever owns the slots fills the cells in (`setTile`) after each `move`
/// and when a tile arrives, and must keep a slot unchanged while a cell points at it.
public final class TileMosaic {
    public let tileSize: Int
    public let color: Color
    public let canvasWidth: Int
    public let canvasHeight: Int
    /// Cells across and down: enough for any view offset (a canvas never touches more tiles).
    public let columns: Int
    public let rows: Int
    let shift: Int
    /// Row-major, `columns`×`rows`: a pointer block made once (an array here would cost an
    /// exclusivity check on every access of the restore loop).
    let cells: UnsafeMutablePointer<UnsafeRawPointer?>
    /// The map pixel at the canvas's top-left corner.
    public private(set) var offset = (x: 0, y: 0)
    /// The tile (in the map's tile columns and rows) under the canvas's top-left corner: cell (0, 0).
    public private(set) var firstTile = (column: 0, row: 0)
    /// Asked for by an RGB565 panel's copy-out: the slots' owner is to keep RGB565 copies.
    public private(set) var wantsNarrowed = false
    /// Whether the slots' owner gives every cell its tile's RGB565 copy too (`useNarrowed`).
    public private(set) var hasNarrowed = false
    /// Each cell's RGB565 copy, as `cells` (nil: none, or the colour), once `hasNarrowed`.
    let narrowedCells: UnsafeMutablePointer<UnsafeRawPointer?>
    /// The colour narrowed, for cells without a tile.
    let narrowedColor: UInt16

    /// `tileSize` must be a power of two (256 or 512 for map tiles).
    public init(tileSize: Int, color: Color, canvasWidth: Int, canvasHeight: Int) throws(FrameError) {
        guard tileSize >= 16, tileSize & (tileSize - 1) == 0 else {
            throw FrameError("a tile size must be a power of two of at least 16 px, not \(tileSize)")
        }
        guard canvasWidth > 0, canvasHeight > 0 else {
            throw FrameError("a frame needs a positive size, not \(canvasWidth)x\(canvasHeight)")
        }
        guard color.a == 255 else { throw FrameError("the background must be opaque (#RRGGBB), not a colour with alpha") }
        self.tileSize = tileSize
        self.color = color
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        shift = tileSize.trailingZeroBitCount
        columns = (canvasWidth + tileSize - 1) / tileSize + 1
        rows = (canvasHeight + tileSize - 1) / tileSize + 1
        cells = .allocate(capacity: columns * rows)
        cells.initialize(repeating: nil, count: columns * rows)
        narrowedCells = .allocate(capacity: columns * rows)
        narrowedCells.initialize(repeating: nil, count: columns * rows)
        narrowedColor = Self.narrow(color)
    }

    deinit {
        cells.deallocate()
        narrowedCells.deallocate()
    }

    /// Asks the slots' owner for RGB565 copies of the tiles (an RGB565 panel is being driven).
    public func requestNarrowed() { wantsNarrowed = true }

    /// From now on the slots' owner passes every tile's RGB565 copy to `setTile` (and sets the
    /// cells already filled again), so `copyOutNarrowed` can copy the map from the copies.
    public func useNarrowed() { hasNarrowed = true }

    /// Shows the map from `(x, y)` (the map pixel at the canvas's top-left; negative where a map
    /// smaller than the canvas is centred). Returns whether the view moved; when it crossed onto
    /// other tiles every cell is emptied, to be filled in again by the slots' owner.
    @discardableResult
    public func move(toX x: Int, y: Int) -> Bool {
        guard x != offset.x || y != offset.y else { return false }
        offset = (x, y)
        // An arithmetic shift floors, also left of and above the map.
        let first = (column: x >> shift, row: y >> shift)
        if first != firstTile {
            firstTile = first
            cells.update(repeating: nil, count: columns * rows)
            narrowedCells.update(repeating: nil, count: columns * rows)
        }
        return true
    }

    /// The tiles the canvas shows now: columns `firstTile.column ..< firstTile.column + visibleColumns`.
    public var visibleColumns: Int { ((offset.x + canvasWidth - 1) >> shift) - firstTile.column + 1 }
    public var visibleRows: Int { ((offset.y + canvasHeight - 1) >> shift) - firstTile.row + 1 }

    /// The tiles a view from `(x, y)` would show: first column and row, how many across and down.
    public func range(atX x: Int, y: Int) -> (column: Int, row: Int, columns: Int, rows: Int) {
        let column = x >> shift, row = y >> shift
        return (column, row, ((x + canvasWidth - 1) >> shift) - column + 1, ((y + canvasHeight - 1) >> shift) - row + 1)
    }

    /// Puts `pixels` (a slot's first byte; nil: the colour) at map tile (`column`, `row`), with
    /// its RGB565 copy `narrowed` (rows `tileSize`·2 bytes apart) once `useNarrowed` was called.
    /// Returns the canvas rectangle that tile covers (empty when it is not in view), for the
    /// renderer's damage.
    @discardableResult
    public func setTile(column: Int, row: Int, pixels: UnsafeRawPointer?, narrowed: UnsafeRawPointer? = nil) -> Rect {
        let i = column - firstTile.column, j = row - firstTile.row
        guard i >= 0, i < columns, j >= 0, j < rows else { return .empty }
        precondition(pixels == nil || !hasNarrowed || narrowed != nil, "a tile without its RGB565 copy after useNarrowed")
        cells[j * columns + i] = pixels
        narrowedCells[j * columns + i] = narrowed
        return tileRect(column: column, row: row)
    }

    /// What cell (`column`, `row`) of the map shows now (nil: the colour, or not in view).
    public func tile(column: Int, row: Int) -> UnsafeRawPointer? {
        let i = column - firstTile.column, j = row - firstTile.row
        guard i >= 0, i < columns, j >= 0, j < rows else { return nil }
        return cells[j * columns + i]
    }

    /// Where map tile (`column`, `row`) lies on the canvas, clipped to it.
    public func tileRect(column: Int, row: Int) -> Rect {
        Rect(x: (column << shift) - offset.x, y: (row << shift) - offset.y, width: tileSize, height: tileSize)
            .intersection(Rect(x: 0, y: 0, width: canvasWidth, height: canvasHeight))
    }

    /// Writes the map under `rect` (clipped to the canvas) into `canvas`, row by row from the
    /// slots; cells without a tile get the colour.
    public func restore(_ rect: Rect, into canvas: PixelBuffer) {
        let r = rect.intersection(canvas.bounds).intersection(Rect(x: 0, y: 0, width: canvasWidth, height: canvasHeight))
        if r.isEmpty { return }
        let paint = SolidPaint(color)
        copyCells(r, cells, bytesPerPixel: 4, into: canvas) { row, x, end in
            Blend.fillSpan(canvas.row(row).assumingMemoryBound(to: UInt32.self), x, end, paint)
        }
    }

    /// Copies what `cells` (the tiles, or their RGB565 copies: `bytesPerPixel`, rows
    /// `tileSize`·`bytesPerPixel` bytes apart) hold under `r` (inside the canvas) into `target`,
    /// walking it tile by tile, so each cell is looked up once and its rows are plain copies;
    /// `colour(row, x, end)` fills a row's span where a cell has no tile.
    @inline(__always)
    func copyCells(_ r: Rect, _ cells: UnsafeMutablePointer<UnsafeRawPointer?>, bytesPerPixel bpp: Int, into target: PixelBuffer,
                   colour: (Int, Int, Int) -> Void) {
        let tileStride = tileSize * bpp
        forEachTileRun(mapX: offset.x + r.x, mapY: offset.y + r.y, width: r.width, height: r.height, shift: shift) { run in
            let x = r.x + run.x, y = r.y + run.y
            if let cell = cells[(run.row - firstTile.row) * columns + run.column - firstTile.column] {
                var from = cell + run.rowInTile * tileStride + run.columnInTile * bpp
                var to = target.row(y) + x * bpp
                let bytes = run.width * bpp
                for _ in 0..<run.height {
                    to.copyMemory(from: from, byteCount: bytes)
                    from += tileStride
                    to += target.stride
                }
            } else {
                for row in y..<(y + run.height) { colour(row, x, x + run.width) }
            }
        }
    }
}
