/// Premultiplied "over" of a colour onto opaque XRGB8888 pixels, on the 8-bit sRGB values as they
/// are (look.md: like Core Graphics, no linearisation).
///
/// A pixel is split into two 16-bit lanes per 32-bit word — red|blue and x|green — so each blend is
/// two multiplies and one exact rounding division by 255 for two channels at once (each lane holds
/// at most 255·255, so lanes never carry into each other). The X byte is treated as the
/// destination's alpha, so an opaque frame stays opaque.
public enum Blend {
    /// Mask selecting the two low bytes of each 16-bit lane.
    public static let laneMask: UInt32 = 0x00FF_00FF

    /// round(v / 255) for each 16-bit lane of `v`, every lane ≤ 255·255. Exact (tested on all inputs).
    @inline(__always)
    public static func div255Lanes(_ v: UInt32) -> UInt32 {
        let t = v &+ 0x0080_0080
        return ((t &+ ((t >> 8) & laneMask)) >> 8) & laneMask
    }

    /// round(v / 255) for 0 ≤ v ≤ 255·255.
    @inline(__always)
    public static func div255(_ v: UInt32) -> UInt32 {
        let t = v &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// round(v / 255) in every 16-bit lane (each ≤ 255·255; the sums stay below 2^16).
    @inline(__always)
    public static func div255(_ v: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let t = v &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// One pixel: `color` at `coverage` (0…255) over `dst`. The reference the span routines match.
    @inline(__always)
    public static func over(_ dst: UInt32, _ color: Color, coverage: UInt8) -> UInt32 {
        let a = div255(UInt32(color.a) &* UInt32(coverage))
        return over(dst, SolidPaint(color), alpha: a)
    }

    /// One pixel: `paint` at effective alpha `a` (0…255, colour alpha already applied) over `dst`.
    @inline(__always)
    public static func over(_ dst: UInt32, _ paint: SolidPaint, alpha a: UInt32) -> UInt32 {
        let inv = 255 &- a
        let rb = div255Lanes((dst & laneMask) &* inv &+ paint.rb &* a)
        let xg = div255Lanes(((dst >> 8) & laneMask) &* inv &+ paint.xg &* a)
        return rb | (xg << 8)
    }

    /// Pixels x0..<x1 of `row` covered fully by `paint` at its own alpha.
    public static func fillSpan(_ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int, _ paint: SolidPaint) {
        if x1 <= x0 || paint.alpha == 0 { return }
        if paint.alpha == 255 {
            (row + x0).update(repeating: paint.opaquePixel, count: x1 - x0)
            return
        }
        BlendSpans.constant(row + x0, row + x0, x1 - x0, paint, paint.alpha)
    }

    /// Pixels x0..<x1 of `row` become `paint` (at its own alpha) over the same pixels of `source`:
    /// restoring the background and drawing a layer in one pass.
    public static func fillSpan(_ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ x1: Int, _ paint: SolidPaint,
                                over source: UnsafePointer<UInt32>) {
        if x1 <= x0 { return }
        if paint.alpha == 0 { (row + x0).update(from: source + x0, count: x1 - x0); return }
        if paint.alpha == 255 {
            (row + x0).update(repeating: paint.opaquePixel, count: x1 - x0)
            return
        }
        BlendSpans.constant(source + x0, row + x0, x1 - x0, paint, paint.alpha)
    }

    /// `count` pixels of `row` from `x0`, each blended with its own coverage byte.
    public static func coverageSpan(_ row: UnsafeMutablePointer<UInt32>, _ x0: Int,
                                    _ coverage: UnsafePointer<UInt8>, _ count: Int, _ paint: SolidPaint) {
        if count <= 0 || paint.alpha == 0 { return }
        BlendSpans.coverage(row + x0, row + x0, coverage, count, paint)
    }

    /// The same over the pixels of `source` (row x0… of both), written to `row`.
    public static func coverageSpan(_ row: UnsafeMutablePointer<UInt32>, _ x0: Int,
                                    _ coverage: UnsafePointer<UInt8>, _ count: Int, _ paint: SolidPaint,
                                    over source: UnsafePointer<UInt32>) {
        if count <= 0 { return }
        if paint.alpha == 0 { (row + x0).update(from: source + x0, count: count); return }
        BlendSpans.coverage(source + x0, row + x0, coverage, count, paint)
    }
}

/// A colour prepared for blending: its channels in the two 16-bit lanes and its effective alpha.
public struct SolidPaint: Equatable, Sendable {
    /// red << 16 | blue.
    public let rb: UInt32
    /// 255 << 16 | green (the X lane acts as alpha).
    public let xg: UInt32
    /// Effective alpha 0…255.
    public let alpha: UInt32

    /// `color` with its alpha multiplied by `opacity` (0…255, rounded).
    public init(_ color: Color, opacity: UInt32 = 255) {
        rb = UInt32(color.r) << 16 | UInt32(color.b)
        xg = 0x00FF_0000 | UInt32(color.g)
        alpha = Blend.div255(UInt32(color.a) &* min(opacity, 255))
    }

    /// The pixel written where this paint is opaque.
    public var opaquePixel: UInt32 { 0xFF00_0000 | rb << 0 | (xg & 0xFF) << 8 }

    /// The XRGB8888 pixel of an opaque colour.
    public static func pixel(_ c: Color) -> UInt32 {
        0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
    }
}
