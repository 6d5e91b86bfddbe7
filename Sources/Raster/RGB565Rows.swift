/// RGB565 narrowing of whole rows, eight pixels per step, equal to `RGB565.narrow` on every input.
///
/// The formula look.md states, r5 = (r·31 + 127) / 255, is the same as (r·249 + 1014) >> 11 for
/// every 8-bit r (and g6 = (g·253 + 505) >> 10): multiplies and shifts that fit 16-bit lanes
/// (checked on all 256 values by the tests). With eight pixels' red in one vector of 16-bit lanes
/// and their g·256 + b in another, each channel takes one multiply-add for all eight, and red
/// lands in place as (r·249 + 1014) & 0xF800.
extension RGB565 {
    /// Each of `rows` rows: dst[i] = narrow(src[i]) for i in 0..<count, rows `srcStride` and
    /// `dstStride` bytes apart (a damage rectangle in one call: the constants and the call are paid
    /// once, not per row). Eight pixels per step; a row that does not divide by eight ends with one
    /// step over its last eight pixels (some written twice, the same value), so only rows under
    /// eight pixels take the tables. Source and destination must not overlap.
    @inline(never)
    public static func narrowRows(_ src: UnsafeRawPointer, srcStride: Int, _ dst: UnsafeMutableRawPointer, dstStride: Int,
                                  count: Int, rows: Int) {
        var s = src, d = dst, n = rows
        while n > 0 {
            narrowOne(s, d, count)
            s += srcStride
            d += dstStride
            n &-= 1
        }
    }

    @inline(__always)
    static func narrowOne(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ count: Int) {
        if count < 8 {
            let t = tables
            var i = 0
            while i < count {
                d.storeBytes(of: narrow(s.load(fromByteOffset: i &* 4, as: UInt32.self), t), toByteOffset: i &* 2, as: UInt16.self)
                i &+= 1
            }
            return
        }
        let last = count &- 8
        var i = 0
        while i &+ 16 <= count {
            let a = s.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Int32>.self)
            let b = s.loadUnaligned(fromByteOffset: i &* 4 &+ 16, as: SIMD4<Int32>.self)
            let c = s.loadUnaligned(fromByteOffset: i &* 4 &+ 32, as: SIMD4<Int32>.self)
            let e = s.loadUnaligned(fromByteOffset: i &* 4 &+ 48, as: SIMD4<Int32>.self)
            d.storeBytes(of: narrow8(a, b), toByteOffset: i &* 2, as: SIMD8<UInt16>.self)
            d.storeBytes(of: narrow8(c, e), toByteOffset: i &* 2 &+ 16, as: SIMD8<UInt16>.self)
            i &+= 16
        }
        if i == count { return }
        i = min(i, last)
        while true {
            let a = s.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Int32>.self)
            let b = s.loadUnaligned(fromByteOffset: i &* 4 &+ 16, as: SIMD4<Int32>.self)
            d.storeBytes(of: narrow8(a, b), toByteOffset: i &* 2, as: SIMD8<UInt16>.self)
            if i == last { return }
            i = min(i &+ 8, last)
        }
    }

    /// dst[i] = narrow(pixel at src + i·step bytes) for i in 0..<count: a turned copy-out reads the
    /// canvas down a column. Eight pixels are gathered into two vectors and narrowed as a row's are
    /// (the tables cost three loads and a dozen instructions a pixel); the last step overlaps.
    @inline(never)
    public static func narrowRowStrided(_ src: UnsafeRawPointer, step: Int, _ dst: UnsafeMutablePointer<UInt16>, _ count: Int) {
        if count < 8 {
            let t = tables
            var s = src
            for i in 0..<count {
                dst[i] = narrow(s.load(as: UInt32.self), t)
                s += step
            }
            return
        }
        let d = UnsafeMutableRawPointer(dst)
        let s1 = step, s2 = step &* 2, s3 = step &* 3, s4 = step &* 4
        let last = count &- 8
        var i = 0
        while true {
            let p = src + i &* step, q = p + s4
            @inline(__always) func at(_ r: UnsafeRawPointer, _ o: Int) -> Int32 { r.load(fromByteOffset: o, as: Int32.self) }
            let a = SIMD4<Int32>(at(p, 0), at(p, s1), at(p, s2), at(p, s3))
            let b = SIMD4<Int32>(at(q, 0), at(q, s1), at(q, s2), at(q, s3))
            d.storeBytes(of: narrow8(a, b), toByteOffset: i &* 2, as: SIMD8<UInt16>.self)
            if i == last { return }
            i = min(i &+ 8, last)
        }
    }

    /// Eight pixels, each channel in its own 16-bit lane: the pixels' high halves [x·256 + r] and
    /// low halves [g·256 + b] gathered by two signed packs (each half sign-extended first, so the
    /// packs never saturate), then every channel's formula once for all eight.
    @inline(__always)
    static func narrow8(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD8<UInt16> {
        let high = pack(a &>> 16, b &>> 16)
        let low = pack((a &<< 16) &>> 16, (b &<< 16) &>> 16)
        let r = (high & 0xFF) &* 249 &+ 1014
        let bl = (low & 0xFF) &* 249 &+ 1014
        let g = (low &>> 8) &* 253 &+ 505
        return (r & 0xF800) | (bl &>> 11) | ((g &>> 5) & 0x07E0)
    }

    /// Lane by lane, which the compiler turns into one signed pack (a generic conversion would
    /// stay a call); every lane is already in Int16's range.
    @inline(__always)
    static func pack(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD8<UInt16> {
        let p = SIMD8<Int16>(Int16(truncatingIfNeeded: a[0]), Int16(truncatingIfNeeded: a[1]),
                             Int16(truncatingIfNeeded: a[2]), Int16(truncatingIfNeeded: a[3]),
                             Int16(truncatingIfNeeded: b[0]), Int16(truncatingIfNeeded: b[1]),
                             Int16(truncatingIfNeeded: b[2]), Int16(truncatingIfNeeded: b[3]))
        return unsafeBitCast(p, to: SIMD8<UInt16>.self)
    }
}
