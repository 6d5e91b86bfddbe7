import Raster

/// Copy-out to an RGB565 panel from the tiles' RGB565 copies. Narrowing is a pure function of the
/// pixel, so wherever the canvas shows the map, the narrowed tile *is* the narrowed canvas: those
/// pixels are moved as they are, and only what was drawn over the map is narrowed.
extension TileMosaic {
    /// `copyOut(region:to:rotation:)` of `canvas` into the unturned RGB565 `target`, for a canvas
    /// that shows this mosaic everywhere but inside `fresh`. Returns the rectangle written.
    @discardableResult
    public func copyOutNarrowed(_ region: Rect, from canvas: PixelBuffer, to target: PixelBuffer, fresh: Rect) -> Rect {
        precondition(canvas.format == .xrgb8888 && target.format == .rgb565 && hasNarrowed,
                     "a narrowed copy-out goes from an xrgb8888 canvas to an rgb565 target, with the tiles' copies kept")
        let r = region.intersection(canvas.bounds).intersection(target.bounds)
            .intersection(Rect(x: 0, y: 0, width: canvasWidth, height: canvasHeight))
        if r.isEmpty { return .empty }
        let live = fresh.intersection(r)
        let rows = live.isEmpty ? (r.maxY, r.maxY) : (live.y, live.maxY)
        copyNarrowed(Rect(x: r.x, y: r.y, width: r.width, height: rows.0 - r.y), to: target)
        copyNarrowed(Rect(x: r.x, y: rows.0, width: live.x - r.x, height: rows.1 - rows.0), to: target)
        copyNarrowed(Rect(x: live.maxX, y: rows.0, width: r.maxX - live.maxX, height: rows.1 - rows.0), to: target)
        copyNarrowed(Rect(x: r.x, y: rows.1, width: r.width, height: r.maxY - rows.1), to: target)
        if !live.isEmpty { canvas.copyOut(region: live, to: target, rotation: .r0) }
        return r
    }

    /// The map under `rect` (inside the canvas) into `target`, from the tiles' RGB565 copies;
    /// cells without a tile get the colour.
    func copyNarrowed(_ rect: Rect, to target: PixelBuffer) {
        guard hasNarrowed, rect.width > 0, rect.height > 0 else { return }
        copyCells(rect, narrowedCells, bytesPerPixel: 2, into: target) { row, x, end in
            (target.row(row).assumingMemoryBound(to: UInt16.self) + x).update(repeating: narrowedColor, count: end - x)
        }
    }

    /// The colour as RGB565, narrowed the way every copy-out narrows.
    static func narrow(_ color: Color) -> UInt16 {
        let one = OwnedPixelBuffer(width: 1, height: 1, format: .xrgb8888)
        one.buffer.fill(one.buffer.bounds, with: color)
        let out = OwnedPixelBuffer(width: 1, height: 1, format: .rgb565)
        one.buffer.copyOut(region: one.buffer.bounds, to: out.buffer, rotation: .r0)
        return out.buffer.row(0).load(as: UInt16.self)
    }
}
