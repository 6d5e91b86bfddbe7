import Raster

/// Writing frames as RGB PNGs (no alpha: a frame on a screen is opaque).
public enum PNGWrite {
    /// Writes an XRGB8888 or RGB565 buffer to `path` as an 8-bit RGB PNG. RGB565 is widened back to
    /// 8 bits by replicating the high bits (look.md), so a 565 frame's PNG shows exactly the
    /// colours the panel shows.
    public static func frame(_ buffer: PixelBuffer, to path: String) throws(PNGError) {
        _ = try encode(width: buffer.width, height: buffer.height, channels: 3, bytes: rgbBytes(buffer), to: path)
    }

    /// The same PNG as bytes in memory.
    public static func frame(_ buffer: PixelBuffer) throws(PNGError) -> [UInt8] {
        try encode(width: buffer.width, height: buffer.height, channels: 3, bytes: rgbBytes(buffer), to: nil)
    }

    /// Straight-alpha 8-bit sRGB RGBA to a PNG with an alpha channel (sprites made by tools/tests).
    public static func rgba(_ image: RGBAImage, to path: String) throws(PNGError) {
        _ = try encode(width: image.width, height: image.height, channels: 4, bytes: image.rgba, to: path)
    }

    public static func rgba(_ image: RGBAImage) throws(PNGError) -> [UInt8] {
        try encode(width: image.width, height: image.height, channels: 4, bytes: image.rgba, to: nil)
    }

    /// 8-bit RGB without alpha (for tests: an image that must be refused as a mask).
    public static func rgb(width: Int, height: Int, rgb: [UInt8], to path: String) throws(PNGError) {
        _ = try encode(width: width, height: height, channels: 3, bytes: rgb, to: path)
    }

    /// The buffer's pixels as packed R, G, B bytes, top row first.
    public static func rgbBytes(_ buffer: PixelBuffer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: buffer.width * buffer.height * 3)
        var o = 0
        for y in 0..<buffer.height {
            let row = buffer.row(y)
            switch buffer.format {
            case .xrgb8888:
                let p = row.assumingMemoryBound(to: UInt8.self)
                for x in 0..<buffer.width {
                    out[o] = p[x * 4 + 2]; out[o + 1] = p[x * 4 + 1]; out[o + 2] = p[x * 4]
                    o += 3
                }
            case .rgb565:
                for x in 0..<buffer.width {
                    let v = row.loadUnaligned(fromByteOffset: x * 2, as: UInt16.self).littleEndian
                    let c = widen565(v)
                    out[o] = c.r; out[o + 1] = c.g; out[o + 2] = c.b
                    o += 3
                }
            }
        }
        return out
    }

    /// look.md's widening (Raster's RGB565.widen5/widen6): r8 = (r5 << 3) | (r5 >> 2),
    /// g8 = (g6 << 2) | (g6 >> 4), b like r.
    @inline(__always)
    public static func widen565(_ v: UInt16) -> (r: UInt8, g: UInt8, b: UInt8) {
        (RGB565.widen5(UInt8(truncatingIfNeeded: v >> 11) & 0x1F),
         RGB565.widen6(UInt8(truncatingIfNeeded: v >> 5) & 0x3F),
         RGB565.widen5(UInt8(truncatingIfNeeded: v) & 0x1F))
    }
}
