/// RGB565 narrowing of whole rows, four pixels per vector, equal to `RGB565.narrow` on every input.
///
/// The formula look.md states, r5 = (r·31 + 127) / 255, is the same as (r·249 + 1014) >> 11 for
/// every 8-bit r (and g6 = (g·253 + 505) >> 10): multiplies and shifts that fit 16-bit lanes
/// (checked on all 256 values by the tests). A row seen as 16-bit lanes is [g·256+b, x·256+r, …],
/// so masking to the low byte gives [b, r] and shifting right by 8 gives [g, x]: both take one
/// multiply-add, and red lands in place as (r·249 + 1014) & 0xF800.
extension RGB565 {
    /// dst[i] = narrow(src[i]) for i in 0..<count.
    @inline(never)
    public static func narrowRow(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt16>, _ count: Int) {
        let s = UnsafeRawPointer(src), d = UnsafeMutableRawPointer(dst)
        var i = 0
        while i &+ 8 <= count {
            let a = narrow4(s.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<UInt16>.self))
            let b = narrow4(s.loadUnaligned(fromByteOffset: i &* 4 &+ 16, as: SIMD8<UInt16>.self))
            // Lane by lane, which the compiler turns into one signed pack (a generic conversion
            // would stay a call).
            let packed = SIMD8<Int16>(Int16(truncatingIfNeeded: a[0]), Int16(truncatingIfNeeded: a[1]),
                                      Int16(truncatingIfNeeded: a[2]), Int16(truncatingIfNeeded: a[3]),
                                      Int16(truncatingIfNeeded: b[0]), Int16(truncatingIfNeeded: b[1]),
                                      Int16(truncatingIfNeeded: b[2]), Int16(truncatingIfNeeded: b[3]))
            d.storeBytes(of: packed, toByteOffset: i &* 2, as: SIMD8<Int16>.self)
            i &+= 8
        }
        let t = tables
        while i < count {
            dst[i] = narrow(src[i], t)
            i &+= 1
        }
    }

    /// Four pixels: each one's 565 value in the high half of its 32-bit lane, as a signed number
    /// shifted back down (so that a signed pack keeps every bit).
    @inline(__always)
    static func narrow4(_ v: SIMD8<UInt16>) -> SIMD4<Int32> {
        let br = (v & 0xFF) &* 249 &+ 1014  // [b', r']
        let gx = (v &>> 8) &* 253 &+ 505    // [g', x']
        let t = unsafeBitCast(br, to: SIMD4<UInt32>.self), u = unsafeBitCast(gx, to: SIMD4<UInt32>.self)
        let o = (t & 0xF800_0000) | ((t &<< 5) & 0x001F_0000) | ((u &<< 11) & 0x07E0_0000)
        return unsafeBitCast(o, to: SIMD4<Int32>.self) &>> 16
    }
}
