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
        forEachTileRun(mapX: originX, mapY: originY, width: width, height: height, shift: shift) { run in
            let place = Rect(x: run.x, y: run.y, width: run.width, height: run.height)
            let id = TileID(z: zoom, x: firstColumn + run.column, y: firstRow + run.row)
            let inMap = run.column >= 0 && run.column < columns && run.row >= 0 && run.row < rows
            guard inMap, cache.shownPixels(of: id) != nil, let slot = cache.slot(of: id) else {
                picture.fill(place, with: mosaic.color)
                return
            }
            let into = PixelBuffer(base: picture.row(place.y) + place.x * bpp, width: place.width, height: place.height,
                                   stride: picture.stride, format: picture.format)
            if narrowed, let n = cache.narrowed(slot) {
                let from = PixelBuffer(base: n.row(run.rowInTile) + run.columnInTile * 2, width: place.width, height: place.height,
                                       stride: n.stride, format: .rgb565)
                into.copy(into.bounds, from: from)
            } else {
                let p = cache.pixels(slot)
                let from = PixelBuffer(base: p.row(run.rowInTile) + run.columnInTile * 4, width: place.width, height: place.height,
                                       stride: p.stride, format: .xrgb8888)
                from.copyOut(region: from.bounds, to: into, rotation: .r0)
            }
        }
    }

    public func forgetPicture() {
        pictureTiles = nil
        pictureOutdated = false
    }
}
