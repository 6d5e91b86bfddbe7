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

extension GroupBlend {
    /// One row of a disc and its shadow over pixels x0..<x1 of `pixels`: the shadow alone where the
    /// disc is not, the group formula on the disc's anti-aliased edges, and the disc's interior —
    /// one constant span when the disc is opaque (it hides the shadow). `shadow` holds the shadow's
    /// alpha for x0..<x1 (index 0 is x0) and is zero outside shadowStart..<shadowEnd; `disc` is the
    /// disc's row (clip x0..<x1) with the coverage of its two edges at `leftEdge` and `rightEdge`.
    public static func drawRow(_ pixels: UnsafeMutablePointer<UInt32>, x0: Int, x1: Int,
                               shadow: UnsafePointer<UInt8>, shadowStart: Int, shadowEnd: Int,
                               disc r: DiscSpan, leftEdge: UnsafePointer<UInt8>, rightEdge: UnsafePointer<UInt8>,
                               shadowPaint: SolidPaint, discPaint: SolidPaint, discAlpha: UInt32,
                               groupAlpha: UInt32, knockout: UnsafePointer<UInt8>) {
        let s0 = max(x0, shadowStart), s1 = min(x1, shadowEnd)
        @inline(__always) func shadowOnly(_ a: Int, _ b: Int) {
            if b <= a { return }
            // Whole blocks of four where the row allows: the span grows into columns whose shadow
            // alpha is zero (past s1 or before s0, inside the clip), whose pixels a zero alpha
            // leaves exactly as they are, so no pixel of it takes the one-at-a-time tail.
            var a = a, b = b
            let rest = (b - a) & 3
            if rest != 0 {
                let grow = 4 - rest
                if b == s1 && b + grow <= x1 {
                    b += grow
                } else if a == s0 && a - grow >= x0 {
                    a -= grow
                }
            }
            BlendSpans.coverage(pixels + a, pixels + a, shadow + (a - x0), b - a, shadowPaint)
        }
        @inline(__always) func group(_ a: Int, _ b: Int, _ c: UnsafePointer<UInt8>?) {
            var x = a
            while x < b {
                pixels[x] = pixel(pixels[x], shadow: UInt32(shadow[x - x0]), disc: c.map { UInt32($0[x - a]) } ?? 255,
                                  shadowPaint: shadowPaint, discPaint: discPaint, discAlpha: discAlpha,
                                  groupAlpha: groupAlpha, knockout: knockout)
                x += 1
            }
        }
        if r.isEmpty {
            shadowOnly(s0, s1)
            return
        }
        if discAlpha == 255 && groupAlpha == 255 && discPaint.alpha == 255 && r.interiorEnd - r.interiorStart >= 4 {
            // An opaque disc at full group opacity (the stock ring): the knockout is all or
            // nothing, so each edge pixel is the shadow at its own alpha (none where the disc is
            // opaque), then the disc at its coverage — two vector blends per four pixels. The
            // edges go in blocks of four that may run into the interior (coverage 255 there: the
            // disc's colour, as the fill gives); `shadow` and the edge coverage are readable four
            // bytes past their ends.
            let a = r.edgeStart, b = r.interiorStart, c = r.interiorEnd, d = r.edgeEnd
            let leftBlocks = (b - a + 3) >> 2, rightBlocks = (d - c + 3) >> 2
            let x = a + 4 * leftBlocks, z = d - 4 * rightBlocks
            if z >= x {
                shadowOnly(s0, min(s1, a))
                BlendSpans.groupBlocks(pixels + a, shadow + (a - x0), leftEdge, leftBlocks, shadowPaint, discPaint)
                BlendSpans.fill(pixels + x, z - x, discPaint.opaquePixel)
                BlendSpans.groupBlocks(pixels + z, shadow + (z - x0), rightEdge + (z - c), rightBlocks, shadowPaint, discPaint)
                shadowOnly(max(s0, d), s1)
                return
            }
        }
        shadowOnly(s0, min(s1, r.edgeStart))
        group(r.edgeStart, r.interiorStart, leftEdge)
        if discAlpha == 255 {
            BlendSpans.constant(pixels + r.interiorStart, pixels + r.interiorStart, r.interiorEnd - r.interiorStart, discPaint)
        } else {
            group(r.interiorStart, r.interiorEnd, nil)
        }
        group(r.interiorEnd, r.edgeEnd, rightEdge)
        shadowOnly(max(s0, r.edgeEnd), s1)
    }
}
