/// Copy-out: the one place a finished XRGB8888 canvas reaches a scan-out buffer (a dumb
/// buffer, an fbdev mapping, a PNG frame). The target is only ever written, never read — scan-out
/// memory is often uncached or write-combined — and it is written row by row in its own order, so
/// rotated copies read the canvas sideways rather than scatter writes.
extension PixelBuffer {
    /// Copies logical `region` of this XRGB8888 frame into `target` (any stride, xrgb8888 or
    /// rgb565), turned by `rotation`; the panel is `rotation.physicalSize` of this frame.
    /// Returns the panel rectangle written (what a DirtyFB clip needs), clipped to `target`.
    @discardableResult
    public func copyOut(region: Rect, to target: PixelBuffer, rotation: Rotation = .r0) -> Rect {
        precondition(format == .xrgb8888, "copy-out reads an xrgb8888 canvas, not \(format)")
        let logical = region.intersection(bounds)
        let phys = rotation.map(rect: logical, logicalWidth: width, logicalHeight: height)
            .intersection(target.bounds)
        if phys.isEmpty { return .empty }
        // Logical position of the panel rectangle's first pixel, and the source step for one panel
        // pixel to the right and one panel row down (in bytes).
        let sx: Int, sy: Int, stepX: Int, stepY: Int
        switch rotation {
        case .r0: (sx, sy, stepX, stepY) = (phys.x, phys.y, 4, stride)
        case .r90: (sx, sy, stepX, stepY) = (phys.y, height - 1 - phys.x, -stride, 4)
        case .r180: (sx, sy, stepX, stepY) = (width - 1 - phys.x, height - 1 - phys.y, -4, -stride)
        case .r270: (sx, sy, stepX, stepY) = (width - 1 - phys.y, phys.x, stride, -4)
        }
        var src = base + sy * stride + sx * 4
        // Unturned, a rectangle is one loop of rows with nothing decided per row.
        if rotation == .r0 {
            var dst = target.row(phys.y) + phys.x * target.format.bytesPerPixel
            if target.format == .rgb565 {
                RGB565.narrowRows(src, srcStride: stride, dst, dstStride: target.stride, count: phys.width, rows: phys.height)
            } else if phys.width <= 256 {
                // Damage rows: a library call costs more than the copy.
                for _ in 0..<phys.height {
                    BlendSpans.copyFrom(UnsafePointer(src.assumingMemoryBound(to: UInt32.self)),
                                        dst.assumingMemoryBound(to: UInt32.self), phys.width)
                    src += stride
                    dst += target.stride
                }
            } else {
                for _ in 0..<phys.height {
                    dst.copyMemory(from: src, byteCount: phys.width * 4)
                    src += stride
                    dst += target.stride
                }
            }
            return phys
        }
        for py in phys.y..<phys.maxY {
            let dstRow = target.row(py)
            switch (target.format, rotation) {
            case (_, .r0):
                preconditionFailure("unturned copy-out is taken above")
            case (.xrgb8888, _):
                Self.copyRowTurned(src, stepX, dstRow.assumingMemoryBound(to: UInt32.self) + phys.x, phys.width)
            case (.rgb565, _):
                RGB565.narrowRowStrided(UnsafeRawPointer(src), step: stepX, dstRow.assumingMemoryBound(to: UInt16.self) + phys.x,
                                        phys.width)
            }
            src += stepY
        }
        return phys
    }

    @inline(__always)
    static func copyRowTurned(_ src: UnsafeMutableRawPointer, _ step: Int,
                              _ dst: UnsafeMutablePointer<UInt32>, _ count: Int) {
        var s = src
        for i in 0..<count {
            dst[i] = s.load(as: UInt32.self)
            s += step
        }
    }
}

/// What copying a damage region out wrote: the panel rectangle holding it (a DirtyFB clip) and
/// the pixels written.
public struct Copied: Equatable, Sendable {
    public private(set) var bounds = Rect.empty
    public private(set) var area = 0

    public init() {}

    public mutating func add(_ written: Rect) {
        bounds = bounds.union(written)
        area += written.area
    }

    /// Every part of `region` through `copy`, which copies one logical rectangle out and returns
    /// the panel rectangle it wrote.
    public init(_ region: DamageRegion, _ copy: (Rect) -> Rect) {
        for i in 0..<region.count { add(copy(region[i])) }
    }
}

extension PixelBuffer {
    /// Every part of logical `region` copied out as `copyOut(region:to:rotation:)` copies one.
    @discardableResult
    public func copyOut(region: DamageRegion, to target: PixelBuffer, rotation: Rotation = .r0) -> Copied {
        Copied(region) { copyOut(region: $0, to: target, rotation: rotation) }
    }
}
