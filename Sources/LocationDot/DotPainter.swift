import Raster

/// Draws the dot (look.md's layers, bottom to top: accuracy disc, heading image, halo, the ring
/// disc with its drop shadow, the inner dot or `image`) into an XRGB8888 frame at a sub-pixel
/// position, for one frame's `DotAppearance`.
///
/// Built for the daemon's frame loop: everything that depends only on the style and `scale` (the
/// blurred shadow, padded sprite masks, the group-opacity table, scratch rows) is made in init;
/// a paint snaps the frame's Doubles to fixed point once (`DotLayout`) and then only does integer
/// work, row by row, inside `clip`. Drawing a clip gives exactly the pixels a full draw gives
/// there, so a damaged region can be redrawn alone. Steady-state painting does not allocate.
public final class DotPainter {
    public let style: DotStyle
    public let scale: Double

    let discs = DiscRasterizer()
    let sprites = SpritePainter()
    /// nil when the shadow is invisible (opacity, colour alpha or outerDotAlpha zero).
    let shadow: SoftShadowMasks?
    let image: SpriteMask?
    let headingImage: SpriteMask?
    /// outerDotAlpha (group opacity) and the ring's shadow knockout table for it.
    let groupAlpha: UInt32
    let knockout: UnsafeMutablePointer<UInt8>
    /// Scratch rows: the shadow's alpha for one row, and 255s (a ring interior that is not opaque).
    var shadowRow: UnsafeMutablePointer<UInt8>
    var fullRow: UnsafeMutablePointer<UInt8>
    var rowCapacity: Int

    // Style × scale, in 1/256 px at pop scale 1.
    let ringRadius256: Int
    let shadowOffsetX256: Int
    let shadowOffsetY256: Int

    public init(style: DotStyle, scale: Double) {
        precondition(scale > 0 && scale.isFinite, "scale must be a positive number of pixels per point, not \(scale)")
        self.style = style
        self.scale = scale
        groupAlpha = UInt32(Fixed.unit(style.outerDotAlpha, scale: 255))
        ringRadius256 = Fixed.snap(DotStyle.ringDiameter / 2 * scale)
        shadowOffsetX256 = Fixed.snap(style.shadowOffsetX * scale)
        shadowOffsetY256 = Fixed.snap(style.shadowOffsetY * scale)
        let shadowAlpha = Fixed.unit(style.shadowOpacity * style.outerDotAlpha * Double(style.shadowColor.a) / 255, scale: 255)
        shadow = shadowAlpha > 0
            ? SoftShadowMasks(radius: ringRadius256, sigma: Fixed.snap(style.shadowRadius * scale), alpha: shadowAlpha)
            : nil
        image = style.image.map(SpriteMask.init)
        headingImage = style.headingImage.map(SpriteMask.init)
        knockout = .allocate(capacity: 256)
        knockout.initialize(from: GroupBlend.knockoutTable(groupAlpha: Int(groupAlpha)), count: 256)
        rowCapacity = 256
        fullRow = .allocate(capacity: rowCapacity)
        fullRow.initialize(repeating: 255, count: rowCapacity)
        shadowRow = .allocate(capacity: rowCapacity)
        shadowRow.initialize(repeating: 0, count: rowCapacity)
    }

    deinit {
        knockout.deallocate()
        fullRow.deallocate()
        shadowRow.deallocate()
    }

    /// The rectangle `paint` would touch for this frame (unclipped): the union of every visible
    /// layer's pixels, the entrance pop's overshoot included.
    public func bounds(centerX: Double, centerY: Double, appearance: DotAppearance) -> Rect {
        layout(centerX: centerX, centerY: centerY, appearance: appearance).bounds
    }

    /// Draws the dot centred at (centerX, centerY) px into `target` (XRGB8888), changing only pixels
    /// inside `clip`. Returns the rectangle that may have changed: `bounds ∩ clip ∩ target`.
    @discardableResult
    public func paint(into target: PixelBuffer, centerX: Double, centerY: Double,
                      appearance: DotAppearance, clip: Rect) -> Rect {
        precondition(target.format == .xrgb8888, "the dot is painted on an xrgb8888 frame, not \(target.format)")
        let l = layout(centerX: centerX, centerY: centerY, appearance: appearance)
        let area = clip.intersection(target.bounds)
        let touched = l.bounds.intersection(area)
        if touched.isEmpty { return .empty }
        if let accuracy = l.accuracy { discs.fill(accuracy.disc, accuracy.paint, into: target, clip: area) }
        if let heading = l.heading, let sprite = headingImage {
            sprites.draw(sprite, heading, l.dotPaint, into: target, clip: area)
        }
        if let halo = l.halo { discs.fill(halo.disc, halo.paint, into: target, clip: area) }
        if let group = l.group { paintGroup(group, into: target, clip: area) }
        if let dot = l.dot { discs.fill(dot.disc, dot.paint, into: target, clip: area) }
        if let placement = l.image, let sprite = image {
            sprites.draw(sprite, placement, l.dotPaint, into: target, clip: area)
        }
        return touched
    }

    /// The ring disc and its shadow, composited as one group faded by outerDotAlpha. Row by row,
    /// each row split in spans: shadow alone (a plain coverage blend), the ring's anti-aliased
    /// edges (the group formula), and the ring's interior, where an opaque ring hides the shadow
    /// and is one constant-alpha span.
    private func paintGroup(_ g: DotLayout.Group, into target: PixelBuffer, clip: Rect) {
        let box = g.bounds.intersection(clip)
        if box.isEmpty { return }
        guard let masks = shadow, g.shadowBounds.intersects(box) else {
            discs.fill(g.ring, g.ringPaint, into: target, clip: box)
            return
        }
        reserveRows(box.width)
        discs.reserve(width: box.width)
        let x0 = box.x, width = box.width
        let shadowAlone = SolidPaint(Color(r: style.shadowColor.r, g: style.shadowColor.g, b: style.shadowColor.b))
        let ringAlpha = UInt32(g.ringColor.a)
        let opaqueRing = ringAlpha == 255
        let shadowRow = self.shadowRow, fullRow = self.fullRow
        for y in box.y..<box.maxY {
            // This row of the shadow, zero outside its mask.
            if let p = g.shadowPhase {
                shadowRow.update(repeating: 0, count: width)
                let my = y - p.originY
                if my >= 0 && my < p.size {
                    let a = max(x0, p.originX), b = min(box.maxX, p.originX + p.size)
                    if a < b { (shadowRow + (a - x0)).update(from: p.mask + (my * p.size + a - p.originX), count: b - a) }
                }
            } else if let s = g.shadowSprite {
                s.sampleRow(masks.sprite, y: y, x0: x0, x1: box.maxX, into: shadowRow)
            }
            let pixels = target.row(y).assumingMemoryBound(to: UInt32.self)
            let ring = g.ringPaint.alpha == 0 ? DiscRow.empty : discs.coverRow(g.ring, y: y, clipX0: x0, clipX1: box.maxX)
            if ring.isEmpty {
                Blend.coverageSpan(pixels, x0, shadowRow, width, shadowAlone)
                continue
            }
            let coverage = discs.coverage
            func group(_ a: Int, _ b: Int, _ disc: UnsafePointer<UInt8>) {
                if b <= a { return }
                GroupBlend.row(pixels, a, b - a, shadow: shadowRow + (a - x0), disc: disc,
                               shadowPaint: shadowAlone, discPaint: g.ringPaint, discAlpha: ringAlpha,
                               groupAlpha: groupAlpha, knockout: knockout)
            }
            Blend.coverageSpan(pixels, x0, shadowRow, ring.edgeStart - x0, shadowAlone)
            group(ring.edgeStart, ring.interiorStart, coverage + (ring.edgeStart - x0))
            if opaqueRing {
                Blend.fillSpan(pixels, ring.interiorStart, ring.interiorEnd, g.ringPaint)
            } else {
                group(ring.interiorStart, ring.interiorEnd, fullRow)
            }
            group(ring.interiorEnd, ring.edgeEnd, coverage + (ring.interiorEnd - x0))
            Blend.coverageSpan(pixels, ring.edgeEnd, shadowRow + (ring.edgeEnd - x0), box.maxX - ring.edgeEnd, shadowAlone)
        }
    }

    private func reserveRows(_ width: Int) {
        if width <= rowCapacity { return }
        fullRow.deallocate(); shadowRow.deallocate()
        rowCapacity = width
        fullRow = .allocate(capacity: width)
        fullRow.initialize(repeating: 255, count: width)
        shadowRow = .allocate(capacity: width)
        shadowRow.initialize(repeating: 0, count: width)
    }
}

extension Rect {
    func intersects(_ other: Rect) -> Bool { !intersection(other).isEmpty }
}
