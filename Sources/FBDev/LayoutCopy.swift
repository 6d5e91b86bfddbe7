import Raster

extension FramebufferLayout {
    /// Copies logical `region` of the XRGB8888 `shadow` into `target` (a view of the framebuffer
    /// memory in `container` format, any stride), turned by `rotation` and converted to this
    /// layout. Like Raster's copy-out it only writes the target, row by row in the panel's order,
    /// and returns the panel rectangle written.
    @discardableResult
    public func copy(region: Rect, from shadow: PixelBuffer, to target: PixelBuffer, rotation: Rotation) -> Rect {
        precondition(target.format == container, "a \(self) framebuffer is viewed as \(container), not \(target.format)")
        if isNative { return shadow.copyOut(region: region, to: target, rotation: rotation) }
        precondition(shadow.format == .xrgb8888, "copy-out reads an xrgb8888 canvas, not \(shadow.format)")
        let logical = region.intersection(shadow.bounds)
        let phys = rotation.map(rect: logical, logicalWidth: shadow.width, logicalHeight: shadow.height)
            .intersection(target.bounds)
        if phys.isEmpty { return .empty }
        let (w, h, stride) = (shadow.width, shadow.height, shadow.stride)
        // The shadow pixel under the panel rectangle's first pixel, and the byte steps for one
        // panel pixel right and one panel row down (kms.md's clockwise convention, as Raster).
        let sx: Int, sy: Int, stepX: Int, stepY: Int
        switch rotation {
        case .r0: (sx, sy, stepX, stepY) = (phys.x, phys.y, 4, stride)
        case .r90: (sx, sy, stepX, stepY) = (phys.y, h - 1 - phys.x, -stride, 4)
        case .r180: (sx, sy, stepX, stepY) = (w - 1 - phys.x, h - 1 - phys.y, -4, -stride)
        case .r270: (sx, sy, stepX, stepY) = (w - 1 - phys.y, phys.x, stride, -4)
        }
        var src = shadow.base + sy * stride + sx * 4
        let alpha: UInt32 = hasAlpha ? 0xFF00_0000 : 0
        let tables = RGB565.tables
        for py in phys.y..<phys.maxY {
            let row = target.row(py)
            switch container {
            case .xrgb8888:
                Self.swapRow(src, stepX, row.assumingMemoryBound(to: UInt32.self) + phys.x, phys.width,
                             swap: swapsRedAndBlue, alpha: alpha)
            case .rgb565:
                Self.narrowSwappedRow(src, stepX, row.assumingMemoryBound(to: UInt16.self) + phys.x, phys.width, tables)
            }
            src += stepY
        }
        return phys
    }

    @inline(__always)
    static func swapRow(_ src: UnsafeMutableRawPointer, _ step: Int, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int,
                        swap: Bool, alpha: UInt32) {
        var s = src
        if swap {
            for i in 0..<count {
                let p = s.load(as: UInt32.self)
                dst[i] = (p & 0xFF00) | ((p & 0xFF) << 16) | ((p >> 16) & 0xFF) | alpha
                s += step
            }
        } else {
            for i in 0..<count {
                dst[i] = s.load(as: UInt32.self) | alpha
                s += step
            }
        }
    }

    /// BGR565: blue in the top five bits. Raster's tables are shifted for red on top, so blue
    /// goes through the red table and red through the blue one.
    @inline(__always)
    static func narrowSwappedRow(_ src: UnsafeMutableRawPointer, _ step: Int, _ dst: UnsafeMutablePointer<UInt16>,
                                 _ count: Int, _ t: RGB565.Tables) {
        var s = src
        for i in 0..<count {
            let p = s.load(as: UInt32.self)
            dst[i] = t.red[Int(p & 0xFF)] | t.green[Int((p >> 8) & 0xFF)] | t.blue[Int((p >> 16) & 0xFF)]
            s += step
        }
    }
}
