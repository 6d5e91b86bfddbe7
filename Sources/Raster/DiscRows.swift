/// Drawing a rasterized disc (a `DiscRowTable`): each row is the background or the frame's own
/// pixels, the anti-aliased edges blended four pixels at a time with their coverage (read with the
/// table's padding, so a block may run past an edge), and the interior one constant-alpha vector
/// span.
extension DiscRowTable {
    /// Draws rows y0..<y1 of the last rasterized disc in `paint` on pixels x0..<x1 of `target` (the
    /// clip it was rasterized with). With `source`, every pixel of those rows and columns is
    /// written: the disc over `source` where it covers, `source` itself elsewhere — restoring the
    /// background and drawing in one pass. Without, pixels outside the disc are left alone.
    public func draw(_ paint: SolidPaint, rows y0: Int, _ y1: Int, x0: Int, x1: Int,
                     into target: PixelBuffer, over source: PixelBuffer?) {
        if x1 <= x0 || y1 <= y0 { return }
        let visible = paint.alpha != 0
        let constant = BlendSpans.ConstantPaint(paint)
        for y in y0..<y1 {
            let row = target.row(y).assumingMemoryBound(to: UInt32.self)
            let r = visible ? span(y) : .empty
            if let source {
                let src = UnsafePointer(source.row(y).assumingMemoryBound(to: UInt32.self))
                if r.isEmpty {
                    BlendSpans.copyFrom(src + x0, row + x0, x1 - x0)
                } else {
                    drawRow(r, paint, constant, src, row, x0, x1)
                }
            } else if !r.isEmpty {
                drawRow(r, paint, constant, UnsafePointer(row), row, x0, x1)
            }
        }
    }

    /// One row; `src` is the background or `row` itself (then only the disc's pixels are written,
    /// each once).
    @inline(__always)
    private func drawRow(_ r: DiscSpan, _ paint: SolidPaint, _ constant: BlendSpans.ConstantPaint, _ src: UnsafePointer<UInt32>,
                         _ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int) {
        let a = r.edgeStart, b = r.interiorStart, c = r.interiorEnd, d = r.edgeEnd
        let fused = src != UnsafePointer(row)
        let left = bytes + r.left, right = bytes + r.right
        if fused { BlendSpans.copyFrom(src + x0, row + x0, a - x0) }
        if c - b >= 4 {
            // Left edge in blocks of four from its start (the last may run into the interior,
            // whose padding reads 255); the right edge in blocks ending at its end (the first may
            // start in the interior); the interior between.
            let leftBlocks = (b - a + 3) >> 2, rightBlocks = (d - c + 3) >> 2
            let x = a + 4 * leftBlocks, z = d - 4 * rightBlocks
            if z >= x {
                BlendSpans.coverageBlocks(src + a, row + a, left, leftBlocks, paint)
                if fused {
                    BlendSpans.constantFrom(src + x, row + x, z - x, constant)
                } else {
                    BlendSpans.constant(src + x, row + x, z - x, paint)
                }
                BlendSpans.coverageBlocks(src + z, row + z, right + (z - c), rightBlocks, paint)
                if fused { BlendSpans.copyFrom(src + d, row + d, x1 - d) }
                return
            }
        }
        BlendSpans.coverage(src + a, row + a, left, b - a, paint)
        BlendSpans.constant(src + b, row + b, c - b, paint)
        BlendSpans.coverage(src + c, row + c, right, d - c, paint)
        if fused { BlendSpans.copyFrom(src + d, row + d, x1 - d) }
    }
}
