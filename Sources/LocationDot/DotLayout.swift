import Raster

/// One frame of the dot in fixed point: every per-frame Double of `DotAppearance` and the position,
/// snapped once (look.md: the same picture on every CPU), and each layer's shape, paint and pixel
/// bounds. Plain values; making one allocates nothing.
struct DotLayout {
    struct Fill {
        var disc: Disc
        var paint: SolidPaint
        /// `DiscRasterizer.bounds(disc)`, worked out once.
        var bounds: Rect
    }

    struct Group {
        var ring: Disc
        var ringColor: Color
        /// The ring colour with alpha outerDotAlpha × colour alpha (used when there is no shadow).
        var ringPaint: SolidPaint
        /// At pop scale 1 the shadow comes from a precomputed phase mask; while popping it is the
        /// phase-0 mask scaled around the shadow's centre.
        var shadowPhase: SoftShadowMasks.Placement?
        var shadowSprite: SpritePlacement?
        var shadowBounds: Rect
        var bounds: Rect
        /// The shadow's centre (1/256 px), the ring's moved by the pop-scaled offset.
        var shadowX256 = 0
        var shadowY256 = 0
    }

    var accuracy: Fill?
    var heading: SpritePlacement?
    var halo: Fill?
    var group: Group?
    var dot: Fill?
    var image: SpritePlacement?
    /// annotationColor moved toward staleColor; tints `image` and `headingImage` too.
    var dotPaint: SolidPaint
    var bounds: Rect = .empty
}

extension DotPainter {
    /// Q16 pop scale limits: the entrance never exceeds 1.25; anything larger is clamped.
    static let maxPop16 = 4 * 65536

    func layout(centerX: Double, centerY: Double, appearance a: DotAppearance) -> DotLayout {
        var l = DotLayout(dotPaint: SolidPaint(.white))
        layout(into: &l, centerX: centerX, centerY: centerY, appearance: a)
        return l
    }

    /// The layout written over `l` field by field: a layout is several hundred bytes, and a frame
    /// makes one, so it is built where it is kept rather than copied there.
    func layout(into l: inout DotLayout, centerX: Double, centerY: Double, appearance a: DotAppearance) {
        let cx = Fixed.snap(centerX), cy = Fixed.snap(centerY)
        let pop16 = min(Fixed.unit(a.popScale / 4, scale: Self.maxPop16), Self.maxPop16)
        let pop = Double(pop16) / 65536
        let stale = Fixed.unit(a.staleness, scale: 256)
        let dotColor = Self.mix(style.annotationColor, style.staleColor, stale)
        let haloColor = Self.mix(style.effectivePulseColor, style.staleColor, stale)
        (l.accuracy, l.heading, l.halo, l.group, l.dot, l.image) = (nil, nil, nil, nil, nil, nil)
        l.dotPaint = SolidPaint(dotColor)

        func disc(_ radiusPx: Double) -> Disc { Disc(centerX256: cx, centerY256: cy, radius256: Fixed.snap(radiusPx)) }
        func fill(_ d: Disc, _ paint: SolidPaint) -> DotLayout.Fill? {
            if paint.alpha == 0 || d.radius256 == 0 { return nil }
            let b = discs.bounds(d)
            return b.isEmpty ? nil : DotLayout.Fill(disc: d, paint: paint, bounds: b)
        }
        /// A mask centred on the dot, scaled by `spriteScale` × pop and turned by (sin, cos). The Q16
        /// scale is Int64: imageScale has no lower bound, so it may pass 2^31.
        func sprite(_ m: SpriteMask, sin: Int = 0, cos: Int = 65536) -> SpritePlacement {
            SpritePlacement(sourceX: m.width * 128, sourceY: m.height * 128, destX: cx, destY: cy,
                            scale: Int64((scale / style.imageScale * pop * 65536).rounded()), sin: sin, cos: cos)
        }

        if a.accuracyRadiusPx > 0 {
            let paint = SolidPaint(style.effectiveAccuracyColor, opacity: UInt32(Fixed.unit(style.accuracyAlpha, scale: 255)))
            l.accuracy = fill(disc(a.accuracyRadiusPx), paint)
        }
        if let m = headingImage, let h = a.heading, pop16 > 0 {
            let (s, c) = FixedTrig.sinCos(degrees: h)
            l.heading = sprite(m, sin: s, cos: c)
        }
        if !a.ringOnly {
            let radius = DotStyle.ringDiameter / 2 * style.pulseScaleFactor * scale * max(a.haloSize, 0) * pop
            l.halo = fill(disc(radius), SolidPaint(haloColor, opacity: UInt32(Fixed.unit(a.haloOpacity, scale: 255))))
        }
        // The ring disc and its shadow.
        let ringColor = a.ringOnly ? style.staleColor : style.outerColor
        let ring = Disc(centerX256: cx, centerY256: cy, radius256: Self.popScaled(ringRadius256, pop16))
        let ringPaint = SolidPaint(ringColor, opacity: groupAlpha)
        if groupAlpha > 0 && pop16 > 0 {
            l.group = DotLayout.Group(ring: ring, ringColor: ringColor, ringPaint: ringPaint, shadowPhase: nil,
                                      shadowSprite: nil, shadowBounds: .empty, bounds: ringPaint.alpha > 0 ? discs.bounds(ring) : .empty)
            if let masks = shadow {
                let sx = cx + Self.popScaled(shadowOffsetX256, pop16)
                let sy = cy + Self.popScaled(shadowOffsetY256, pop16)
                l.group!.shadowX256 = sx
                l.group!.shadowY256 = sy
                if pop16 == 65536 {
                    let p = masks.placement(centerX: sx, centerY: sy)
                    l.group!.shadowPhase = p
                    l.group!.shadowBounds = p.box
                } else {
                    let s = SpritePlacement(sourceX: masks.margin * 256, sourceY: masks.margin * 256,
                                            destX: sx, destY: sy, scale: Int64(pop16))
                    l.group!.shadowSprite = s
                    l.group!.shadowBounds = s.bounds(width: masks.size, height: masks.size)
                }
                l.group!.bounds = l.group!.bounds.union(l.group!.shadowBounds)
            }
            if l.group!.bounds.isEmpty { l.group = nil }
        }
        if !a.ringOnly {
            if let m = image {
                if pop16 > 0 && l.dotPaint.alpha > 0 { l.image = sprite(m) }
            } else {
                let radius = style.dotDiameter / 2 * scale * max(a.dotSize, 0) * pop
                l.dot = fill(disc(radius), SolidPaint(dotColor, opacity: UInt32(Fixed.unit(a.dotOpacity, scale: 255))))
            }
        }

        var b = Rect.empty
        if let f = l.accuracy { b = b.union(f.bounds) }
        if let s = l.heading, let m = headingImage { b = b.union(s.bounds(width: m.width, height: m.height)) }
        if let f = l.halo { b = b.union(f.bounds) }
        if let g = l.group?.bounds { b = b.union(g) }
        if let f = l.dot { b = b.union(f.bounds) }
        if let s = l.image, let m = image { b = b.union(s.bounds(width: m.width, height: m.height)) }
        l.bounds = b
    }

    /// A Q8 length (|v| ≤ Fixed.limit ≈ 2^23) times a Q16 pop scale (≤ maxPop16 = 2^18), rounded
    /// back to Q8. The product reaches 2^41 — past a 32-bit Int already for a 3× ring at the
    /// clamp — so it is taken in Int64; the result (≤ 4·|v| < 2^25) fits any Int.
    @inline(__always)
    static func popScaled(_ v: Int, _ pop16: Int) -> Int {
        Int(truncatingIfNeeded: (Int64(v) * Int64(pop16) + 32768) >> 16)
    }

    /// `a` moved toward `b` by t/256, every channel (alpha too) rounded.
    static func mix(_ a: Color, _ b: Color, _ t: Int) -> Color {
        if t <= 0 { return a }
        if t >= 256 { return b }
        func m(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Int(x) * (256 - t) + Int(y) * t + 128) >> 8) }
        return Color(r: m(a.r, b.r), g: m(a.g, b.g), b: m(a.b, b.b), a: m(a.a, b.a))
    }
}
