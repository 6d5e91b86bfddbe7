/// Drawing a rasterized disc (a `DiscRowTable`): each row is the background or the frame's own
/// pixels, the anti-aliased edges blended pixel by pixel with their coverage, and the interior one
/// constant-alpha vector span.
extension DiscRowTable {
    /// Draws rows y0..<y1 of the last rasterized disc in `paint` on pixels x0..<x1 of `target` (the
    /// clip it was rasterized with). With `source`, every pixel of those rows and columns is
    /// written: the disc over `source` where it covers, `source` itself elsewhere — restoring the
    /// background and drawing in one pass. Without, pixels outside the disc are left alone.
    public func draw(_ paint: SolidPaint, rows y0: Int, _ y1: Int, x0: Int, x1: Int,
                     into target: PixelBuffer, over source: PixelBuffer?) {
        if x1 <= x0 || y1 <= y0 { return }
        let visible = paint.alpha != 0
        for y in y0..<y1 {
            let row = target.row(y).assumingMemoryBound(to: UInt32.self)
            let r = visible ? span(y) : .empty
            let cover = bytes + r.bytes, cover2 = cover + (r.interiorStart - r.edgeStart)
            if let source {
                let src = UnsafePointer(source.row(y).assumingMemoryBound(to: UInt32.self))
                if r.isEmpty {
                    BlendSpans.copy(src + x0, row + x0, x1 - x0)
                    continue
                }
                BlendSpans.copy(src + x0, row + x0, r.edgeStart - x0)
                BlendSpans.coverage(src + r.edgeStart, row + r.edgeStart, cover, r.interiorStart - r.edgeStart, paint)
                BlendSpans.constant(src + r.interiorStart, row + r.interiorStart, r.interiorEnd - r.interiorStart, paint)
                BlendSpans.coverage(src + r.interiorEnd, row + r.interiorEnd, cover2, r.edgeEnd - r.interiorEnd, paint)
                BlendSpans.copy(src + r.edgeEnd, row + r.edgeEnd, x1 - r.edgeEnd)
            } else if !r.isEmpty {
                BlendSpans.coverage(row + r.edgeStart, row + r.edgeStart, cover, r.interiorStart - r.edgeStart, paint)
                BlendSpans.constant(row + r.interiorStart, row + r.interiorStart, r.interiorEnd - r.interiorStart, paint)
                BlendSpans.coverage(row + r.interiorEnd, row + r.interiorEnd, cover2, r.edgeEnd - r.interiorEnd, paint)
            }
        }
    }
}
