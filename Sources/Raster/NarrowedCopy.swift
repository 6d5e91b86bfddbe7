/// An RGB565 copy of an XRGB8888 frame (a decoded map), turned the way a panel is, made once.
///
/// Narrowing is a pure function of the pixel, so wherever the canvas still shows the map, the
/// narrowed map *is* the narrowed canvas: a copy-out can take those pixels from here (half the
/// bytes, no arithmetic) and narrow only what was drawn over the map. Stored in the panel's
/// orientation, so that even a turned copy-out moves those pixels as whole rows.
public final class NarrowedCopy {
    public let rotation: Rotation
    /// The source's size (logical, as the canvas sees it).
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// `rotation.physicalSize` of the source, RGB565.
    public let frame: OwnedPixelBuffer

    public init(of source: PixelBuffer, rotation: Rotation) {
        precondition(source.format == .xrgb8888, "a narrowed copy is made of an xrgb8888 frame, not \(source.format)")
        self.rotation = rotation
        sourceWidth = source.width
        sourceHeight = source.height
        let size = rotation.physicalSize(logicalWidth: source.width, logicalHeight: source.height)
        frame = OwnedPixelBuffer(width: size.width, height: size.height, format: .rgb565)
        source.copyOut(region: source.bounds, to: frame.buffer, rotation: rotation)
    }

    /// The source's pixels under `rect` changed: narrows them again.
    public func refresh(_ rect: Rect, from source: PixelBuffer) {
        precondition(source.width == sourceWidth && source.height == sourceHeight, "a narrowed copy refreshed from another frame")
        source.copyOut(region: rect, to: frame.buffer, rotation: rotation)
    }

    /// Where the panel pixel (0, 0) of a canvas of `width`×`height` showing the source from
    /// (`originX`, `originY`) lies in `frame`. A turn moves every pixel the same way in both, so
    /// the canvas's panel is one translated rectangle of the turned source.
    func offset(canvasWidth width: Int, height: Int, originX: Int, originY: Int) -> (x: Int, y: Int) {
        let canvas = rotation.map(x: 0, y: 0, logicalWidth: width, logicalHeight: height)
        let source = rotation.map(x: originX, y: originY, logicalWidth: sourceWidth, logicalHeight: sourceHeight)
        return (source.x - canvas.x, source.y - canvas.y)
    }
}

extension PixelBuffer {
    /// `copyOut(region:to:rotation:)` into an RGB565 target for a canvas that shows `narrowed`'s
    /// source from (`originX`, `originY`) everywhere but inside `fresh` (what was drawn over it):
    /// the same pixels, but only `fresh` is narrowed; the rest is copied from `narrowed`.
    @discardableResult
    public func copyOut(region: Rect, to target: PixelBuffer, rotation: Rotation, narrowed: NarrowedCopy,
                        originX: Int, originY: Int, fresh: Rect) -> Rect {
        precondition(format == .xrgb8888 && target.format == .rgb565 && narrowed.rotation == rotation,
                     "a narrowed copy-out goes from an xrgb8888 canvas to an rgb565 target in the copy's rotation")
        precondition(originX >= 0 && originY >= 0 && originX + width <= narrowed.sourceWidth
                     && originY + height <= narrowed.sourceHeight, "the canvas shows more than the narrowed frame holds")
        let logical = region.intersection(bounds)
        let phys = rotation.map(rect: logical, logicalWidth: width, logicalHeight: height).intersection(target.bounds)
        if phys.isEmpty { return .empty }
        let drawn = fresh.intersection(logical)
        let live = rotation.map(rect: drawn, logicalWidth: width, logicalHeight: height).intersection(phys)
        let o = narrowed.offset(canvasWidth: width, height: height, originX: originX, originY: originY)
        let source = narrowed.frame.buffer
        let rows = live.isEmpty ? (phys.maxY, phys.maxY) : (live.y, live.maxY)
        Self.copyRows(source, o, target, Rect(x: phys.x, y: phys.y, width: phys.width, height: rows.0 - phys.y))
        Self.copyRows(source, o, target, Rect(x: phys.x, y: rows.0, width: live.x - phys.x, height: rows.1 - rows.0))
        Self.copyRows(source, o, target, Rect(x: live.maxX, y: rows.0, width: phys.maxX - live.maxX, height: rows.1 - rows.0))
        Self.copyRows(source, o, target, Rect(x: phys.x, y: rows.1, width: phys.width, height: phys.maxY - rows.1))
        if !live.isEmpty { copyOut(region: drawn, to: target, rotation: rotation) }
        return phys
    }

    /// Panel rectangle `r` of `target` from `source` at offset `o`, row by row (one copy of a
    /// whole band would be fewer calls, but glibc moves a copy of megabytes with non-temporal
    /// stores that bypass the cache the next frame reads).
    static func copyRows(_ source: PixelBuffer, _ o: (x: Int, y: Int), _ target: PixelBuffer, _ r: Rect) {
        if r.width <= 0 || r.height <= 0 { return }
        var src = UnsafeRawPointer(source.row(r.y &+ o.y)) + (r.x &+ o.x) &* 2
        var dst = target.row(r.y) + r.x &* 2
        var n = r.height
        while n > 0 {
            n &-= 1
            copy16(src.assumingMemoryBound(to: UInt16.self), dst.assumingMemoryBound(to: UInt16.self), r.width)
            src += source.stride
            dst += target.stride
        }
    }

    /// A row piece of 16-bit pixels: the strips beside a dot are a few pixels wide, where a
    /// library call costs more than the copy.
    @inline(__always)
    static func copy16(_ src: UnsafePointer<UInt16>, _ dst: UnsafeMutablePointer<UInt16>, _ count: Int) {
        if count <= 0 { return }
        if count >= 64 { return UnsafeMutableRawPointer(dst).copyMemory(from: src, byteCount: count &* 2) }
        // Whole vectors, the last one overlapping the one before (the same pixels written twice);
        // shorter pieces as two overlapping words.
        let s = UnsafeRawPointer(src), d = UnsafeMutableRawPointer(dst), bytes = count &* 2
        if bytes >= 16 {
            var i = 0
            while i &+ 16 < bytes {
                d.storeBytes(of: s.loadUnaligned(fromByteOffset: i, as: SIMD2<UInt64>.self), toByteOffset: i, as: SIMD2<UInt64>.self)
                i &+= 16
            }
            d.storeBytes(of: s.loadUnaligned(fromByteOffset: bytes &- 16, as: SIMD2<UInt64>.self), toByteOffset: bytes &- 16,
                         as: SIMD2<UInt64>.self)
        } else if bytes >= 8 {
            let a = s.loadUnaligned(as: UInt64.self), b = s.loadUnaligned(fromByteOffset: bytes &- 8, as: UInt64.self)
            d.storeBytes(of: a, as: UInt64.self)
            d.storeBytes(of: b, toByteOffset: bytes &- 8, as: UInt64.self)
        } else if bytes >= 4 {
            let a = s.loadUnaligned(as: UInt32.self), b = s.loadUnaligned(fromByteOffset: bytes &- 4, as: UInt32.self)
            d.storeBytes(of: a, as: UInt32.self)
            d.storeBytes(of: b, toByteOffset: bytes &- 4, as: UInt32.self)
        } else {
            dst[0] = src[0]
        }
    }
}
