import Compositor
import Raster
import Tiles

/// The tiles drawn into a map picture for a display plane that pans the map: the same pixels the
/// mosaic restores into the canvas for the same map pixels (a tile not decoded yet, or none
/// there, in the map's colour), narrowed to RGB565 as a copy-out narrows them. While a picture is
/// shown its tiles are kept and asked for as the view's are, and one arriving inside it marks the
/// picture outdated.
extension TiledMap: MapPicturePainter {
    /// Views go past the last tile (the map's colour shows there).
    public var edges: (width: Int, height: Int)? { nil }

    public func drawPicture(originX: Int, originY: Int, width: Int, height: Int, into picture: PixelBuffer) {
        let size = tileSet.tileSize, shift = size.trailingZeroBitCount
        let tiles = TileRange(column: originX >> shift, row: originY >> shift,
                              columns: ((originX + width - 1) >> shift) - (originX >> shift) + 1,
                              rows: ((originY + height - 1) >> shift) - (originY >> shift) + 1)
        pictureOutdated = false
        if tiles != pictureTiles {
            pictureTiles = tiles
            planRequests()
        }
        let bpp = picture.format.bytesPerPixel
        let narrowed = picture.format == .rgb565 && cache.narrowedStorage != nil
        for row in tiles.row..<(tiles.row + tiles.rows) {
            let top = max(row << shift, originY), bottom = min((row + 1) << shift, originY + height)
            for column in tiles.column..<(tiles.column + tiles.columns) {
                let left = max(column << shift, originX), right = min((column + 1) << shift, originX + width)
                let place = Rect(x: left - originX, y: top - originY, width: right - left, height: bottom - top)
                let id = TileID(z: zoom, x: firstColumn + column, y: firstRow + row)
                let inMap = column >= 0 && column < columns && row >= 0 && row < rows
                guard inMap, cache.shownPixels(of: id) != nil, let slot = cache.slot(of: id) else {
                    picture.fill(place, with: mosaic.color)
                    continue
                }
                let x = left - (column << shift), y = top - (row << shift)
                let into = PixelBuffer(base: picture.row(place.y) + place.x * bpp, width: place.width, height: place.height,
                                       stride: picture.stride, format: picture.format)
                if narrowed, let n = cache.narrowed(slot) {
                    let from = PixelBuffer(base: n.row(y) + x * 2, width: place.width, height: place.height,
                                           stride: n.stride, format: .rgb565)
                    into.copy(into.bounds, from: from)
                } else {
                    let p = cache.pixels(slot)
                    let from = PixelBuffer(base: p.row(y) + x * 4, width: place.width, height: place.height,
                                           stride: p.stride, format: .xrgb8888)
                    from.copyOut(region: from.bounds, to: into, rotation: .r0)
                }
            }
        }
    }

    public func forgetPicture() {
        pictureTiles = nil
        pictureOutdated = false
    }
}
