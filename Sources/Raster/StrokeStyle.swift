/// How a polyline is painted: a line of one colour (another on the travelled part) over a wider
/// casing, both with one-pixel anti-aliased round edges.
public struct StrokeStyle: Equatable, Sendable {
    public let line: EdgeRamp
    public let casing: EdgeRamp
    public let color: Color
    public let travelledColor: Color
    public let casingColor: Color
    let linePaint: SolidPaint
    let travelledPaint: SolidPaint
    let casingPaint: SolidPaint
    /// No casing is drawn at all without a width: under the line's own soft edge it would show.
    let hasCasing: Bool

    /// `width256`: the line's full width; `casingWidth256`: the casing seen on each side of it
    /// (0: none), both in 1/256 px.
    public init(color: Color, travelledColor: Color, casingColor: Color, width256: Int32, casingWidth256: Int32) {
        // Clamped before adding: the sum of two Int32 sizes must not trap.
        let half = min(max(width256, 0), 2 * EdgeRamp.maxRadius256) / 2
        line = EdgeRamp(radius256: half)
        casing = EdgeRamp(radius256: half + min(max(casingWidth256, 0), EdgeRamp.maxRadius256))
        self.color = color
        self.travelledColor = travelledColor
        self.casingColor = casingColor
        linePaint = SolidPaint(color)
        travelledPaint = SolidPaint(travelledColor)
        casingPaint = SolidPaint(casingColor)
        hasCasing = casingWidth256 > 0 && casingPaint.alpha > 0
    }

    /// How far from the line's core a pixel centre may be and still be touched, 1/256 px.
    public var reach256: Int64 { Int64(max(casing.radius256, line.radius256)) + 128 }

    /// `pixel` with the casing, then the line, over it, for a pixel centre `d2` (1/65536 px²)
    /// from the nearest segment, that piece `travelled` 0…255 along.
    @inline(__always)
    func shade(_ pixel: UInt32, _ d2: UInt32, _ travelled: UInt8) -> UInt32 {
        let paint = travelled == 0 ? linePaint : travelled == 255 ? travelledPaint : blended(travelled)
        // Most pixels of a line are inside it: no root, no blend.
        if d2 <= line.inner2 && line.radius256 >= 128 && paint.alpha == 255 { return paint.opaquePixel }
        let root = line.needsRoot(d2) || (hasCasing && casing.needsRoot(d2)) ? Fixed.isqrt(d2) : 0
        let lineAlpha = line.alpha(d2, root: root)
        var p = pixel
        // Under an opaque line's full coverage the casing would be painted over: skip it.
        if hasCasing && (lineAlpha < 255 || paint.alpha < 255) {
            let c = casing.alpha(d2, root: root)
            if c > 0 { p = Blend.over(p, casingPaint, alpha: Blend.div255(c &* casingPaint.alpha)) }
        }
        if lineAlpha > 0 { p = Blend.over(p, paint, alpha: Blend.div255(lineAlpha &* paint.alpha)) }
        return p
    }

    /// The line's colour `t`/255 of the way to the travelled colour (the soft boundary).
    func blended(_ t: UInt8) -> SolidPaint {
        let f = UInt32(t), g = 255 - f
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8(Blend.div255(UInt32(a) &* g &+ UInt32(b) &* f)) }
        let c = color, d = travelledColor
        return SolidPaint(Color(r: mix(c.r, d.r), g: mix(c.g, d.g), b: mix(c.b, d.b), a: mix(c.a, d.a)))
    }
}
