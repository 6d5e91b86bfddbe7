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
    private let shift: Int
    /// Row-major, `columns`×`rows`: a pointer block made once (an array here would cost an
    /// exclusivity check on every access of the restore loop).
    private let cells: UnsafeMutablePointer<UnsafeRawPointer?>
    /// The map pixel at the canvas's top-left corner.
    public private(set) var offset = (x: 0, y: 0)
    /// The tile (in the map's tile columns and rows) under the canvas's top-left corner: cell (0, 0).
    public private(set) var firstTile = (column: 0, row: 0)
    /// Asked for by an RGB565 panel's copy-out: the slots' owner is to keep RGB565 copies.
    public private(set) var wantsNarrowed = false
    /// Where the slots' RGB565 copies are, once kept: a slot's copy is at `narrowedBase` plus
    /// half the slot's distance from `pixelsBase` (two bytes a pixel for four).
    private(set) var narrowedSlots: (pixelsBase: UnsafeRawPointer, narrowedBase: UnsafeRawPointer)?
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
        narrowedColor = Self.narrow(color)
    }

    deinit { cells.deallocate() }

    /// Asks the slots' owner for RGB565 copies of the tiles (an RGB565 panel is being driven).
    public func requestNarrowed() { wantsNarrowed = true }

    /// Every slot a cell may point at has an RGB565 copy from now on, laid out as the slots are.
    public func useNarrowed(pixelsBase: UnsafeRawPointer, narrowedBase: UnsafeRawPointer) {
        narrowedSlots = (pixelsBase, narrowedBase)
    }

    /// Whether `copyOutNarrowed` can copy the map from RGB565 copies.
    public var hasNarrowed: Bool { narrowedSlots != nil }

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

    /// Puts `pixels` (a slot's first byte; nil: the colour) at map tile (`column`, `row`). Returns
    /// the canvas rectangle that tile covers (empty when it is not in view), for the renderer's damage.
    @discardableResult
    public func setTile(column: Int, row: Int, pixels: UnsafeRawPointer?) -> Rect {
        let i = column - firstTile.column, j = row - firstTile.row
        guard i >= 0, i < columns, j >= 0, j < rows else { return .empty }
        cells[j * columns + i] = pixels
        return tileRect(column: column, row: row)
    }

    /// What cell (`column`, `row`) of the map shows now (nil: the colour, or not in view).
    public func tile(column: Int, row: Int) -> UnsafeRawPointer? {
        let i = column - firstTile.column, j = row - firstTile.row
        guard i >= 0, i < columns, j >= 0, j < rows else { return nil }
        return cells[j * columns + i]
    }

    /// The slot under canvas pixel (x, y) (nil: the colour).
    @inline(__always)
    func tile(atCanvasX x: Int, y: Int) -> UnsafeRawPointer? {
        cells[(((offset.y + y) >> shift) - firstTile.row) * columns + ((offset.x + x) >> shift) - firstTile.column]
    }

    /// Where map tile (`column`, `row`) lies on the canvas, clipped to it.
    public func tileRect(column: Int, row: Int) -> Rect {
        Rect(x: (column << shift) - offset.x, y: (row << shift) - offset.y, width: tileSize, height: tileSize)
            .intersection(Rect(x: 0, y: 0, width: canvasWidth, height: canvasHeight))
    }

    /// Writes the map under `rect` (clipped to the canvas) into `canvas`, row by row from the
    /// slots; cells without a tile get the colour. Walks the rectangle cell by cell, so each
    /// cell is looked up once and its rows are plain copies.
    public func restore(_ rect: Rect, into canvas: PixelBuffer) {
        let r = rect.intersection(canvas.bounds).intersection(Rect(x: 0, y: 0, width: canvasWidth, height: canvasHeight))
        if r.isEmpty { return }
        let paint = SolidPaint(color)
        let mask = tileSize - 1, tileStride = tileSize * 4
        var y = r.y
        while y < r.maxY {
            let mapY = offset.y + y
            let rowInTile = mapY & mask
            let yEnd = min(r.maxY, y + tileSize - rowInTile)
            let cellRow = cells + ((mapY >> shift) - firstTile.row) * columns
            var x = r.x
            while x < r.maxX {
                let mapX = offset.x + x
                let columnInTile = mapX & mask
                let xEnd = min(r.maxX, x + tileSize - columnInTile)
                if let slot = cellRow[(mapX >> shift) - firstTile.column] {
                    var from = slot + rowInTile * tileStride + columnInTile * 4
                    var to = canvas.row(y) + x * 4
                    let bytes = (xEnd - x) * 4
                    for _ in y..<yEnd {
                        to.copyMemory(from: from, byteCount: bytes)
                        from += tileStride
                        to += canvas.stride
                    }
                } else {
                    for row in y..<yEnd {
                        Blend.fillSpan(canvas.row(row).assumingMemoryBound(to: UInt32.self), x, xEnd, paint)
                    }
                }
                x = xEnd
            }
            y = yEnd
        }
    }
}
