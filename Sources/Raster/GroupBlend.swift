/// A disc and its drop shadow composited as one group with a group opacity g (look.md:
/// `outerDotAlpha` fades ring and shadow together). Inside the group the disc hides the shadow
/// beneath it, so where the disc has alpha A the shadow must reach the frame with
/// g·S·(1 − A)/(1 − g·A) for the result to equal "group, then fade". That factor depends only on
/// A (g is a style constant), so it is a 256-entry table made once — no division per pixel.
public enum GroupBlend {
    /// knockout[A] = 255·(1 − A)/(1 − g·A) for A, g in 0…255 (0 where A is opaque).
    public static func knockoutTable(groupAlpha g: Int) -> [UInt8] {
        (0..<256).map { a in
            let num = 255 * (255 - a) * 255, den = 255 * 255 - g * a
            return den == 0 ? 0 : UInt8(min(255, (2 * num + den) / (2 * den)))
        }
    }

    /// One row: `shadow` holds the shadow's alpha (g already applied) and `disc` the disc's
    /// coverage for pixels x0..<x0+count. `discPaint` carries the disc colour with alpha g·colour
    /// alpha; `discAlpha` is the colour alpha alone (its alpha inside the group).
    public static func row(_ pixels: UnsafeMutablePointer<UInt32>, _ x0: Int, _ count: Int,
                           shadow: UnsafePointer<UInt8>, disc: UnsafePointer<UInt8>,
                           shadowPaint: SolidPaint, discPaint: SolidPaint, discAlpha: UInt32,
                           groupAlpha: UInt32, knockout: UnsafePointer<UInt8>) {
        var p = pixels + x0
        for i in 0..<count {
            p.pointee = pixel(p.pointee, shadow: UInt32(shadow[i]), disc: UInt32(disc[i]),
                              shadowPaint: shadowPaint, discPaint: discPaint, discAlpha: discAlpha,
                              groupAlpha: groupAlpha, knockout: knockout)
            p += 1
        }
    }

    /// One pixel of the group: shadow alpha `s` and disc coverage `c` (both 0…255) over `d`.
    @inline(__always)
    public static func pixel(_ d: UInt32, shadow s: UInt32, disc c: UInt32,
                             shadowPaint: SolidPaint, discPaint: SolidPaint, discAlpha: UInt32,
                             groupAlpha: UInt32, knockout: UnsafePointer<UInt8>) -> UInt32 {
        let a = discAlpha == 255 ? c : Blend.div255(discAlpha &* c)
        var d = d
        if s != 0 {
            let k = UInt32(knockout[Int(a)])
            let y = Blend.div255(s &* k)
            if y != 0 { d = Blend.over(d, shadowPaint, alpha: y) }
        }
        if a != 0 {
            let ga = groupAlpha == 255 ? a : Blend.div255(groupAlpha &* a)
            d = Blend.over(d, discPaint, alpha: ga)
        }
        return d
    }
}
