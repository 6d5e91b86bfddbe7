/// Moving the whole picture inside a buffer: what a view that pans by a few pixels needs, since
/// every pixel but a thin strip is already drawn, one place over.
extension PixelBuffer {
    /// Moves the picture by (`dx`, `dy`) pixels (positive: right and down). What moves out is lost;
    /// the strips it uncovers keep stale pixels, for the caller to redraw. Rows are whole
    /// contiguous copies, in the order that never reads a row already overwritten.
    public func scrollContents(byX dx: Int, y dy: Int) {
        let w = width - abs(dx), h = height - abs(dy)
        guard w > 0, h > 0, dx != 0 || dy != 0 else { return }
        let bpp = format.bytesPerPixel
        let fromX = max(0, -dx) * bpp, toX = max(0, dx) * bpp, bytes = w * bpp
        if dy > 0 {
            var i = h - 1
            while i >= 0 {
                (row(i + dy) + toX).copyMemory(from: row(i) + fromX, byteCount: bytes)
                i -= 1
            }
        } else {
            for i in 0..<h {
                (row(i) + toX).copyMemory(from: row(i - dy) + fromX, byteCount: bytes)
            }
        }
    }
}
