/// The span kernels behind `Blend`: the same exact arithmetic as `Blend.over`, four pixels at a
/// time on SIMD8<UInt16> (SSE2 on x86-64, NEON on ARM, no -march flags needed).
///
/// A row of XRGB8888 pixels seen as 16-bit lanes is [g·256+b, x·256+r, …]: masking each lane to its
/// low byte gives the [b, r] channels, shifting it right by 8 gives [g, x] — two channels per pixel
/// per vector with no shuffles — and the results go back with one shift and one or. The division by
/// 255 is a multiply-high: round(v/255) = ((v + 128)·257) >> 16 for every v ≤ 255·255 (the same
/// nested floors as `div255Lanes`; equal on all inputs, tested), which is one pmulhuw / umull.
enum BlendSpans {
    /// Written lane by lane: the compiler makes one pmulhuw (or umull) of it wherever it is
    /// inlined, where the standard library's generic vector conversions can stay calls.
    @inline(__always)
    static func mulhi257(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> {
        @inline(__always) func h(_ x: UInt16) -> UInt16 { UInt16(truncatingIfNeeded: (UInt32(x) &* 257) &>> 16) }
        return SIMD8<UInt16>(h(t[0]), h(t[1]), h(t[2]), h(t[3]), h(t[4]), h(t[5]), h(t[6]), h(t[7]))
    }

    /// Four coverage bytes as [c0, c0, c1, c1, c2, c2, c3, c3]: each pixel's alpha in both of its
    /// lanes (punpcklbw + punpcklwd).
    @inline(__always)
    static func spread(_ c: SIMD4<UInt8>) -> SIMD8<UInt16> {
        let a = UInt16(c[0]), b = UInt16(c[1]), d = UInt16(c[2]), e = UInt16(c[3])
        return SIMD8<UInt16>(a, a, b, b, d, d, e, e)
    }

    @inline(__always) static var low: SIMD8<UInt16> { SIMD8<UInt16>(repeating: 0xFF) }

    /// Per-lane paint terms for a constant alpha `a`: [b·a+128, r·a+128] and [g·a+128, 255·a+128].
    @inline(__always)
    static func constantTerms(_ paint: SolidPaint, _ a: UInt32) -> (rb: SIMD8<UInt16>, xg: SIMD8<UInt16>) {
        let rb = paint.rb &* a &+ 0x0080_0080, xg = paint.xg &* a &+ 0x0080_0080
        return (unsafeBitCast(SIMD4<UInt32>(repeating: rb), to: SIMD8<UInt16>.self),
                unsafeBitCast(SIMD4<UInt32>(repeating: xg), to: SIMD8<UInt16>.self))
    }

    /// Four pixels under a constant alpha (`inv` = 255 − a, terms from `constantTerms`).
    @inline(__always)
    static func constant4(_ d: SIMD8<UInt16>, _ inv: SIMD8<UInt16>, _ k: (rb: SIMD8<UInt16>, xg: SIMD8<UInt16>)) -> SIMD8<UInt16> {
        let rb = mulhi257((d & low) &* inv &+ k.rb)
        let xg = mulhi257((d &>> 8) &* inv &+ k.xg)
        return rb | (xg &<< 8)
    }

    /// Four pixels' bytes, one 16-bit lane each: [b0, g0, r0, x0, b1, …] and the same for pixels
    /// 2 and 3 (punpcklbw / punpckhbw with zero, or two NEON widenings).
    @inline(__always)
    static func widen(_ v: SIMD16<UInt8>) -> (SIMD8<UInt16>, SIMD8<UInt16>) {
        (SIMD8<UInt16>(UInt16(v[0]), UInt16(v[1]), UInt16(v[2]), UInt16(v[3]),
                       UInt16(v[4]), UInt16(v[5]), UInt16(v[6]), UInt16(v[7])),
         SIMD8<UInt16>(UInt16(v[8]), UInt16(v[9]), UInt16(v[10]), UInt16(v[11]),
                       UInt16(v[12]), UInt16(v[13]), UInt16(v[14]), UInt16(v[15])))
    }

    /// The inverse of `widen` for lanes that hold bytes.
    @inline(__always)
    static func bytes(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD16<UInt8> {
        @inline(__always) func t(_ x: UInt16) -> UInt8 { UInt8(truncatingIfNeeded: x) }
        return SIMD16<UInt8>(t(a[0]), t(a[1]), t(a[2]), t(a[3]), t(a[4]), t(a[5]), t(a[6]), t(a[7]),
                             t(b[0]), t(b[1]), t(b[2]), t(b[3]), t(b[4]), t(b[5]), t(b[6]), t(b[7]))
    }

    /// Four pixels under a constant alpha, every channel in its own lane: the same
    /// ((c·(255 − a) + p·a + 128)·257) >> 16 per channel as `constant4`, with one multiply, add
    /// and multiply-high per eight channels and no shifts or masks. `channelTerms` from
    /// `ConstantPaint`: [b·a+128, g·a+128, r·a+128, 255·a+128] twice.
    @inline(__always)
    static func constantChannels4(_ v: SIMD16<UInt8>, _ inv: SIMD8<UInt16>, _ k: SIMD8<UInt16>) -> SIMD16<UInt8> {
        let (lo, hi) = widen(v)
        return bytes(mulhi257(lo &* inv &+ k), mulhi257(hi &* inv &+ k))
    }

    /// dst[i] = `paint` (at its own alpha) over src[i]: an opaque paint is a plain fill.
    @inline(__always)
    static func constant(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int,
                         _ paint: SolidPaint) {
        if count <= 0 { return }
        if paint.alpha == 255 { return fill(dst, count, paint.opaquePixel) }
        constant(src, dst, count, paint, paint.alpha)
    }

    /// The same from a source that is not the destination (see `constantFrom`).
    @inline(__always)
    static func constantFrom(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int,
                             _ paint: ConstantPaint) {
        if count <= 0 { return }
        if paint.paint.alpha == 255 { return fill(dst, count, paint.paint.opaquePixel) }
        constantFromVector(src, dst, count, paint)
    }

    /// dst[i] = `paint` at alpha `a` over src[i] for i in 0..<count (src may equal dst). Short spans
    /// (anti-aliased edges) stay inline; long ones go to the vector loop, kept out of line so that
    /// its SIMD conversions are compiled as single instructions whatever the caller's size.
    @inline(__always)
    static func constant(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int,
                         _ paint: SolidPaint, _ a: UInt32) {
        if count >= 4 { return constantVector(src, dst, count, paint, a) }
        var i = 0
        while i < count {
            dst[i] = Blend.over(src[i], paint, alpha: a)
            i &+= 1
        }
    }

    /// A constant-alpha paint as the vector kernels use it, worked out once per layer.
    struct ConstantPaint {
        let inv: SIMD8<UInt16>
        let terms: (rb: SIMD8<UInt16>, xg: SIMD8<UInt16>)
        #if arch(x86_64)
        let channelTerms: SIMD8<UInt16>
        #endif
        let paint: SolidPaint

        init(_ paint: SolidPaint) {
            self.paint = paint
            inv = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: 255 &- paint.alpha))
            terms = constantTerms(paint, paint.alpha)
            #if arch(x86_64)
            channelTerms = BlendSpans.channelTerms(paint, paint.alpha)
            #endif
        }
    }

    /// [b·a+128, g·a+128, r·a+128, 255·a+128] twice: `constantChannels4`'s paint terms.
    @inline(__always)
    static func channelTerms(_ paint: SolidPaint, _ a: UInt32) -> SIMD8<UInt16> {
        let b = UInt16(truncatingIfNeeded: (paint.rb & 0xFF) &* a &+ 128)
        let g = UInt16(truncatingIfNeeded: (paint.xg & 0xFF) &* a &+ 128)
        let r = UInt16(truncatingIfNeeded: (paint.rb >> 16) &* a &+ 128)
        let x = UInt16(truncatingIfNeeded: (paint.xg >> 16) &* a &+ 128)
        return SIMD8<UInt16>(b, g, r, x, b, g, r, x)
    }

    /// dst[i] = the paint over src[i] for a source that is not the destination: the last four
    /// pixels may be done twice (the same result), so no pixel is left to a scalar tail.
    @inline(never)
    static func constantFromVector(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int,
                                   _ c: ConstantPaint) {
        if count < 4 { return constant(src, dst, count, c.paint, c.paint.alpha) }
        let s = UnsafeRawPointer(src), d = UnsafeMutableRawPointer(dst)
        let last = (count &- 4) &* 4
        var i = 0
        #if arch(x86_64)
        // Every channel in its own lane (`constantChannels4`): SSE2 has a 16-bit multiply-high and
        // byte packs, 31 instructions per eight pixels against 35. NEON runs the two-channels-per-
        // lane form (`constant4`) in fewer, so ARM keeps it. The same bytes either way.
        let inv = c.inv, k = c.channelTerms
        while i &+ 16 <= last {
            let v0 = s.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let v1 = s.loadUnaligned(fromByteOffset: i &+ 16, as: SIMD16<UInt8>.self)
            d.storeBytes(of: constantChannels4(v0, inv, k), toByteOffset: i, as: SIMD16<UInt8>.self)
            d.storeBytes(of: constantChannels4(v1, inv, k), toByteOffset: i &+ 16, as: SIMD16<UInt8>.self)
            i &+= 32
        }
        // A span of a multiple of eight leaves the pair loop just past `last`: step back, or the
        // next four pixels — outside the span, past the clip — would be written too.
        i = min(i, last)
        while true {
            let v = s.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            d.storeBytes(of: constantChannels4(v, inv, k), toByteOffset: i, as: SIMD16<UInt8>.self)
            if i == last { return }
            i = min(i &+ 16, last)
        }
        #else
        while i &+ 16 <= last {
            let v0 = s.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt16>.self)
            let v1 = s.loadUnaligned(fromByteOffset: i &+ 16, as: SIMD8<UInt16>.self)
            d.storeBytes(of: constant4(v0, c.inv, c.terms), toByteOffset: i, as: SIMD8<UInt16>.self)
            d.storeBytes(of: constant4(v1, c.inv, c.terms), toByteOffset: i &+ 16, as: SIMD8<UInt16>.self)
            i &+= 32
        }
        // A span of a multiple of eight leaves the pair loop just past `last`: step back, or the
        // next four pixels — outside the span, past the clip — would be written too.
        i = min(i, last)
        while true {
            let v = s.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt16>.self)
            d.storeBytes(of: constant4(v, c.inv, c.terms), toByteOffset: i, as: SIMD8<UInt16>.self)
            if i == last { return }
            i = min(i &+ 16, last)
        }
        #endif
    }

    /// `blocks` blocks of four pixels from src into dst, each pixel under its own coverage byte
    /// (all 4·blocks bytes readable): `paint` at coverage × its alpha over src.
    @inline(never)
    static func coverageBlocks(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>,
                               _ coverage: UnsafePointer<UInt8>, _ blocks: Int, _ paint: SolidPaint) {
        var i = 0
        while i < blocks {
            coverage4(src + i &* 4, dst + i &* 4, coverage + i &* 4, paint)
            i &+= 1
        }
    }

    /// An opaque disc over its shadow at full group opacity, `blocks` blocks of four pixels in
    /// place: the shadow at its alpha where the disc is not opaque, then the disc at its coverage.
    @inline(never)
    static func groupBlocks(_ pixels: UnsafeMutablePointer<UInt32>, _ shadow: UnsafePointer<UInt8>,
                            _ coverage: UnsafePointer<UInt8>, _ blocks: Int,
                            _ shadowPaint: SolidPaint, _ discPaint: SolidPaint) {
        let opaque = SIMD4<UInt8>(repeating: 255)
        var i = 0
        while i < blocks {
            let p = pixels + i &* 4
            let c = UnsafeRawPointer(coverage + i &* 4).loadUnaligned(as: SIMD4<UInt8>.self)
            let s = UnsafeRawPointer(shadow + i &* 4).loadUnaligned(as: SIMD4<UInt8>.self)
            let y = s.replacing(with: 0, where: c .== opaque)
            blend4(p, p, y, shadowPaint)
            blend4(p, p, c, discPaint)
            i &+= 1
        }
    }

    /// Four pixels of src, each under its own alpha (`paint`'s own alpha is taken as 255), into dst.
    @inline(__always)
    static func blend4(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>,
                       _ alpha: SIMD4<UInt8>, _ paint: SolidPaint) {
        blendSpread(src, dst, spread(alpha), paint)
    }

    /// Four pixels over `src` into `dst` with `paint` at the spread alphas `a` (0…255 per lane).
    @inline(__always)
    static func blendSpread(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>,
                            _ a: SIMD8<UInt16>, _ paint: SolidPaint) {
        let prb = unsafeBitCast(SIMD4<UInt32>(repeating: paint.rb), to: SIMD8<UInt16>.self)
        let pxg = unsafeBitCast(SIMD4<UInt32>(repeating: paint.xg), to: SIMD8<UInt16>.self)
        let v = UnsafeRawPointer(src).loadUnaligned(as: SIMD8<UInt16>.self)
        let inv = low &- a
        let rb = mulhi257((v & low) &* inv &+ prb &* a &+ 128)
        let xg = mulhi257((v &>> 8) &* inv &+ pxg &* a &+ 128)
        UnsafeMutableRawPointer(dst).storeBytes(of: rb | (xg &<< 8), as: SIMD8<UInt16>.self)
    }

    @inline(__always)
    static func coverage4(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>,
                          _ coverage: UnsafePointer<UInt8>, _ paint: SolidPaint) {
        var a = spread(UnsafeRawPointer(coverage).loadUnaligned(as: SIMD4<UInt8>.self))
        if paint.alpha != 255 {
            a = mulhi257(a &* SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: paint.alpha)) &+ 128)
        }
        blendSpread(src, dst, a, paint)
    }

    @inline(never)
    static func constantVector(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int,
                               _ paint: SolidPaint, _ a: UInt32) {
        let k = constantTerms(paint, a)
        let inv = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: 255 &- a))
        let s = UnsafeRawPointer(src), d = UnsafeMutableRawPointer(dst)
        var i = 0
        while i &+ 8 <= count {
            let v0 = s.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt16>.self)
            let v1 = s.loadUnaligned(fromByteOffset: i &* 4 &+ 16, as: SIMD8<UInt16>.self)
            d.storeBytes(of: constant4(v0, inv, k), toByteOffset: i &* 4, as: SIMD8<UInt16>.self)
            d.storeBytes(of: constant4(v1, inv, k), toByteOffset: i &* 4 &+ 16, as: SIMD8<UInt16>.self)
            i &+= 8
        }
        if i &+ 4 <= count {
            let v = s.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt16>.self)
            d.storeBytes(of: constant4(v, inv, k), toByteOffset: i &* 4, as: SIMD8<UInt16>.self)
            i &+= 4
        }
        while i < count {
            dst[i] = Blend.over(src[i], paint, alpha: a)
            i &+= 1
        }
    }

    /// dst[i] = `paint` at coverage[i] × its alpha over src[i] (src may equal dst).
    @inline(__always)
    static func coverage(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>,
                         _ coverage: UnsafePointer<UInt8>, _ count: Int, _ paint: SolidPaint) {
        if count >= 4 { return coverageVector(src, dst, coverage, count, paint) }
        let ca = paint.alpha
        var i = 0
        while i < count {
            let c = UInt32(coverage[i])
            dst[i] = Blend.over(src[i], paint, alpha: ca == 255 ? c : Blend.div255(ca &* c))
            i &+= 1
        }
    }

    @inline(never)
    static func coverageVector(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>,
                               _ coverage: UnsafePointer<UInt8>, _ count: Int, _ paint: SolidPaint) {
        let ca = paint.alpha
        let prb = unsafeBitCast(SIMD4<UInt32>(repeating: paint.rb), to: SIMD8<UInt16>.self)
        let pxg = unsafeBitCast(SIMD4<UInt32>(repeating: paint.xg), to: SIMD8<UInt16>.self)
        let ca16 = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: ca))
        let s = UnsafeRawPointer(src), d = UnsafeMutableRawPointer(dst)
        var i = 0
        while i &+ 4 <= count {
            var a = spread(UnsafeRawPointer(coverage + i).loadUnaligned(as: SIMD4<UInt8>.self))
            if ca != 255 { a = mulhi257(a &* ca16 &+ 128) }
            let inv = low &- a
            let v = s.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt16>.self)
            let rb = mulhi257((v & low) &* inv &+ prb &* a &+ 128)
            let xg = mulhi257((v &>> 8) &* inv &+ pxg &* a &+ 128)
            d.storeBytes(of: rb | (xg &<< 8), toByteOffset: i &* 4, as: SIMD8<UInt16>.self)
            i &+= 4
        }
        while i < count {
            let c = UInt32(coverage[i])
            dst[i] = Blend.over(src[i], paint, alpha: ca == 255 ? c : Blend.div255(ca &* c))
            i &+= 1
        }
    }
}

extension BlendSpans {
    /// dst[0..<count] = src[0..<count] for a source that is not the destination: a short copy is
    /// one or two possibly overlapping vectors.
    @inline(__always)
    static func copyFrom(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int) {
        if count < 4 { return copy(src, dst, count) }
        let s = UnsafeRawPointer(src), d = UnsafeMutableRawPointer(dst)
        var i = 0
        while i &+ 16 < count {
            let v0 = s.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<UInt32>.self)
            let v1 = s.loadUnaligned(fromByteOffset: i &* 4 &+ 16, as: SIMD4<UInt32>.self)
            let v2 = s.loadUnaligned(fromByteOffset: i &* 4 &+ 32, as: SIMD4<UInt32>.self)
            let v3 = s.loadUnaligned(fromByteOffset: i &* 4 &+ 48, as: SIMD4<UInt32>.self)
            d.storeBytes(of: v0, toByteOffset: i &* 4, as: SIMD4<UInt32>.self)
            d.storeBytes(of: v1, toByteOffset: i &* 4 &+ 16, as: SIMD4<UInt32>.self)
            d.storeBytes(of: v2, toByteOffset: i &* 4 &+ 32, as: SIMD4<UInt32>.self)
            d.storeBytes(of: v3, toByteOffset: i &* 4 &+ 48, as: SIMD4<UInt32>.self)
            i &+= 16
        }
        while i &+ 4 < count {
            d.storeBytes(of: s.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<UInt32>.self), toByteOffset: i &* 4, as: SIMD4<UInt32>.self)
            i &+= 4
        }
        let j = (count &- 4) &* 4
        d.storeBytes(of: s.loadUnaligned(fromByteOffset: j, as: SIMD4<UInt32>.self), toByteOffset: j, as: SIMD4<UInt32>.self)
    }

    /// dst[0..<count] = src[0..<count], inline (spans are short; a library call costs more).
    @inline(__always)
    static func copy(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int) {
        let s = UnsafeRawPointer(src), d = UnsafeMutableRawPointer(dst)
        var i = 0
        while i &+ 8 <= count {
            let a = s.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<UInt32>.self)
            let b = s.loadUnaligned(fromByteOffset: i &* 4 &+ 16, as: SIMD4<UInt32>.self)
            d.storeBytes(of: a, toByteOffset: i &* 4, as: SIMD4<UInt32>.self)
            d.storeBytes(of: b, toByteOffset: i &* 4 &+ 16, as: SIMD4<UInt32>.self)
            i &+= 8
        }
        if i &+ 4 <= count {
            d.storeBytes(of: s.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<UInt32>.self), toByteOffset: i &* 4, as: SIMD4<UInt32>.self)
            i &+= 4
        }
        while i < count {
            dst[i] = src[i]
            i &+= 1
        }
    }

    /// dst[0..<count] = `pixel`.
    @inline(__always)
    static func fill(_ dst: UnsafeMutablePointer<UInt32>, _ count: Int, _ pixel: UInt32) {
        let v = SIMD4<UInt32>(repeating: pixel), d = UnsafeMutableRawPointer(dst)
        var i = 0
        while i &+ 4 <= count {
            d.storeBytes(of: v, toByteOffset: i &* 4, as: SIMD4<UInt32>.self)
            i &+= 4
        }
        while i < count {
            dst[i] = pixel
            i &+= 1
        }
    }
}
