/// Whole-rectangle operations: clearing to a colour and restoring from a background frame (the
/// first step of every damaged frame: put back what the dot covered last time).
extension PixelBuffer {
    /// Fills `rect` (clipped to this buffer) with `color`: opaque colours are written, translucent
    /// ones blended over (xrgb8888 only; an rgb565 buffer takes only opaque colours, narrowed).
    public func fill(_ rect: Rect, with color: Color) {
        let r = rect.intersection(bounds)
        if r.isEmpty { return }
        switch format {
        case .xrgb8888:
            let paint = SolidPaint(color)
            for y in r.y..<r.maxY {
                Blend.fillSpan(row(y).assumingMemoryBound(to: UInt32.self), r.x, r.maxX, paint)
            }
        case .rgb565:
            precondition(color.a == 255, "an rgb565 buffer can only be filled with an opaque colour")
            let v = RGB565.narrow(SolidPaint.pixel(color))
            for y in r.y..<r.maxY {
                (row(y).assumingMemoryBound(to: UInt16.self) + r.x).update(repeating: v, count: r.width)
            }
        }
    }

    /// Copies `rect` (clipped to both) from `source`, a frame of the same format, at the same place.
    public func copy(_ rect: Rect, from source: PixelBuffer) {
        precondition(source.format == format, "copying \(source.format) pixels into a \(format) buffer")
        let r = rect.intersection(bounds).intersection(source.bounds)
        if r.isEmpty { return }
        let bpp = format.bytesPerPixel
        for y in r.y..<r.maxY {
            (row(y) + r.x * bpp).copyMemory(from: source.row(y) + r.x * bpp, byteCount: r.width * bpp)
        }
    }

    /// The XRGB8888 pixel at (x, y) (tests and PNG export; not for the frame path).
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(bounds.contains(x: x, y: y), "pixel (\(x), \(y)) outside \(bounds)")
        switch format {
        case .xrgb8888: return row(y).load(fromByteOffset: x * 4, as: UInt32.self)
        case .rgb565: return RGB565.widen(row(y).load(fromByteOffset: x * 2, as: UInt16.self))
        }
    }
}
