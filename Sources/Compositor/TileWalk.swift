/// A rectangle of map pixels cut where square tiles meet: the one walk behind every copy from
/// tiles (restoring the canvas, the RGB565 copy-out, a map picture), so that each tile is looked
/// up once per rectangle and what is left is plain row copies.
@frozen
public struct TileRun {
    /// The map tile (column, row) this part of the rectangle lies on.
    public let column: Int
    public let row: Int
    /// Where in that tile the part starts.
    public let columnInTile: Int
    public let rowInTile: Int
    /// Where the part starts, relative to the rectangle's top-left corner, and its size.
    public let x: Int
    public let y: Int
    public let width: Int
    public let height: Int

    @inlinable
    init(column: Int, row: Int, columnInTile: Int, rowInTile: Int, x: Int, y: Int, width: Int, height: Int) {
        self.column = column
        self.row = row
        self.columnInTile = columnInTile
        self.rowInTile = rowInTile
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// Calls `body` for each part of the `width`×`height` rectangle of map pixels whose top-left is
/// map pixel (`mapX`, `mapY`), band by band from the top, left to right; tiles are 1 << `shift`
/// pixels square. Negative map pixels (left of or above the map) floor to negative tiles.
@inlinable @inline(__always)
public func forEachTileRun(mapX: Int, mapY: Int, width: Int, height: Int, shift: Int, _ body: (TileRun) -> Void) {
    guard width > 0, height > 0 else { return }
    let size = 1 << shift, mask = size - 1
    var y = 0
    while y < height {
        let rowInTile = (mapY + y) & mask
        let bandHeight = min(height - y, size - rowInTile)
        let row = (mapY + y) >> shift
        var x = 0
        while x < width {
            let columnInTile = (mapX + x) & mask
            let runWidth = min(width - x, size - columnInTile)
            body(TileRun(column: (mapX + x) >> shift, row: row, columnInTile: columnInTile, rowInTile: rowInTile,
                         x: x, y: y, width: runWidth, height: bandHeight))
            x += runWidth
        }
        y += bandHeight
    }
}
