import Raster

/// Draws the dot (look.md's layers, bottom to top: accuracy disc, heading image, halo, the ring
/// disc with its drop shadow, the inner dot or `image`) into an XRGB8888 frame at a sub-pixel
/// position, for one frame's `DotAppearance`.
///
/// Built for the daemon's frame loop: everything that depends only on the style and `scale` (the
/// blurred shadow, padded sprite masks, the group-opacity table, scratch rows) is made in init;
/// a paint snaps the frame's Doubles to fixed point once (`DotLayout`) and then only does integer
/// work inside `clip`, layer by layer. With a background the bottom layer is drawn over the
/// background pixels as they are copied (one pass for restore and halo). Drawing a clip gives
/// exactly the pixels a full draw gives there, so a damaged region can be redrawn alone.
/// Steady-state painting does not allocate.
public final class DotPainter {
    public let style: DotStyle
    public let scale: Double

    /// Bounds and geometry only; each disc layer has its own rasterizer and row table (a layer
    /// whose size does not change keeps its polygon).
    let discs = DiscRasterizer()
    let accuracyTable = DiscRowTable(), haloTable = DiscRowTable(), ringTable = DiscRowTable(), dotTable = DiscRowTable()
    let sprites = SpritePainter()
    /// nil when the shadow is invisible (opacity, colour alpha or outerDotAlpha zero).
    let shadow: SoftShadowMasks?
    let image: SpriteMask?
    let headingImage: SpriteMask?
    /// outerDotAlpha (group opacity) and the ring's shadow knockout table for it.
    let groupAlpha: UInt32
    let knockout: UnsafeMutablePointer<UInt8>
    /// Scratch row: the shadow's alpha for one row when it is not read from a mask directly.
    @exclusivity(unchecked) var shadowRow: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) var rowCapacity: Int
    /// The inputs of the last layout made, and that layout (kept apart so that asking again
    /// compares the inputs without copying the layout out and back).
    @exclusivity(unchecked) private var lastInputs: (x: Double, y: Double, appearance: DotAppearance)?
    @exclusivity(unchecked) private var lastLayout = DotLayout(dotPaint: SolidPaint(.white))
    let shadowPaint: SolidPaint

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
        shadowPaint = SolidPaint(Color(r: style.shadowColor.r, g: style.shadowColor.g, b: style.shadowColor.b))
        image = style.image.map(SpriteMask.init)
        headingImage = style.headingImage.map(SpriteMask.init)
        knockout = .allocate(capacity: 256)
        knockout.initialize(from: GroupBlend.knockoutTable(groupAlpha: Int(groupAlpha)), count: 256)
        rowCapacity = 256
        shadowRow = .allocate(capacity: rowCapacity + 4)
        shadowRow.initialize(repeating: 0, count: rowCapacity + 4)
        // The halo's profile table, made now rather than in the first frame that needs it.
        DiscProfile.prepare()
    }

    deinit {
        knockout.deallocate()
        shadowRow.deallocate()
    }

    /// Sizes every scratch buffer for clips up to `width`×`height` (the canvas), so that no frame
    /// allocates — without it they grow, once, the first time a larger dot or clip shows up.
    public func reserve(width: Int, height: Int) {
        for t in [accuracyTable, haloTable, ringTable, dotTable] { t.reserve(rows: height + 2, width: width + 2) }
        sprites.reserve(width: width)
        reserveRows(width)
    }

    /// The rectangle `paint` would touch for this frame (unclipped): the union of every visible
    /// layer's pixels, the entrance pop's overshoot included.
    public func bounds(centerX: Double, centerY: Double, appearance: DotAppearance) -> Rect {
        remember(centerX, centerY, appearance)
        return lastLayout.bounds
    }

    /// Makes `lastLayout` the layout for these inputs unless it already is: a frame asks for its
    /// bounds, then paints (the layout is a pure function of the inputs, so this only saves the work).
    private func remember(_ x: Double, _ y: Double, _ a: DotAppearance) {
        if let m = lastInputs, m.x == x, m.y == y, m.appearance == a { return }
        layout(into: &lastLayout, centerX: x, centerY: y, appearance: a)
        lastInputs = (x, y, a)
    }

    /// Draws the dot centred at (centerX, centerY) px into `target` (XRGB8888), changing only pixels
    /// inside `clip`. Returns the rectangle that may have changed: `bounds ∩ clip ∩ target`.
    @discardableResult
    public func paint(into target: PixelBuffer, centerX: Double, centerY: Double,
                      appearance: DotAppearance, clip: Rect) -> Rect {
        precondition(target.format == .xrgb8888, "the dot is painted on an xrgb8888 frame, not \(target.format)")
        remember(centerX, centerY, appearance)
        return draw(lastLayout, into: target, background: nil, clip: clip.intersection(target.bounds))
    }

    /// Makes every pixel of `clip` the `background` pixel at the same place with the dot drawn over
    /// it (the background restore and the paint in one pass). `background` is an XRGB8888 frame at
    /// least the size of `target`. Returns the rectangle the dot itself touched (`bounds ∩ clip`).
    @discardableResult
    public func paint(into target: PixelBuffer, over background: PixelBuffer, centerX: Double, centerY: Double,
                      appearance: DotAppearance?, clip: Rect) -> Rect {
        precondition(target.format == .xrgb8888 && background.format == .xrgb8888,
                     "the dot is painted from an xrgb8888 background onto an xrgb8888 frame")
        let area = clip.intersection(target.bounds).intersection(background.bounds)
        guard let appearance else {
            for y in area.y..<area.maxY { restore(y, area.x, area.maxX, target, background) }
            return .empty
        }
        remember(centerX, centerY, appearance)
        return draw(lastLayout, into: target, background: background, clip: area)
    }

    @inline(__always)
    private func restore(_ y: Int, _ x0: Int, _ x1: Int, _ target: PixelBuffer, _ background: PixelBuffer) {
        if x1 > x0 {
            (target.row(y) + x0 * 4).copyMemory(from: background.row(y) + x0 * 4, byteCount: (x1 - x0) * 4)
        }
    }

    /// The layers over `area` (already inside the target), bottom to top.
    private func draw(_ l: DotLayout, into target: PixelBuffer, background: PixelBuffer?, clip area: Rect) -> Rect {
        let touched = l.bounds.intersection(area)
        if let background {
            // Rows and columns of the clip the dot does not reach.
            for y in area.y..<area.maxY {
                if y < touched.y || y >= touched.maxY || touched.isEmpty {
                    restore(y, area.x, area.maxX, target, background)
                } else {
                    restore(y, area.x, touched.x, target, background)
                    restore(y, touched.maxX, area.maxX, target, background)
                }
            }
        }
        if touched.isEmpty { return .empty }
        func box(_ r: Rect?) -> Rect { r?.intersection(touched) ?? .empty }
        sprites.reserve(width: touched.width)
        reserveRows(touched.width)
        // The bottom layer drawn over the background as it is restored: the accuracy disc, or the
        // halo when nothing lies beneath it; otherwise the background is restored first.
        var base = background
        if let a = l.accuracy {
            let b = base == nil ? box(a.bounds) : touched
            accuracyTable.rasterize(a.disc, rows: b.y, b.maxY, clipX0: b.x, clipX1: b.maxX)
            accuracyTable.draw(a.paint, rows: b.y, b.maxY, x0: b.x, x1: b.maxX, into: target, over: base)
            base = nil
        }
        if let p = l.heading, let m = headingImage {
            if let background = base {
                for y in touched.y..<touched.maxY { restore(y, touched.x, touched.maxX, target, background) }
                base = nil
            }
            sprites.draw(m, p, l.dotPaint, into: target, clip: touched)
        }
        if let h = l.halo {
            let b = base == nil ? box(h.bounds) : touched
            // Faint and large enough, the halo's coverage comes from the tangent-line profile
            // (within 2/255 of the exact area's colour); otherwise from the exact walk.
            if let kind = DiscProfile.kind(radius256: h.disc.radius256, paintAlpha: h.paint.alpha) {
                haloTable.rasterizeProfile(h.disc, kind, rows: b.y, b.maxY, clipX0: b.x, clipX1: b.maxX)
            } else {
                haloTable.rasterize(h.disc, rows: b.y, b.maxY, clipX0: b.x, clipX1: b.maxX)
            }
            haloTable.draw(h.paint, rows: b.y, b.maxY, x0: b.x, x1: b.maxX, into: target, over: base)
            base = nil
        }
        if let background = base {
            for y in touched.y..<touched.maxY { restore(y, touched.x, touched.maxX, target, background) }
        }
        if let g = l.group { drawGroup(g, box: box(g.bounds), into: target) }
        if let d = l.dot {
            let b = box(d.bounds)
            dotTable.rasterize(d.disc, rows: b.y, b.maxY, clipX0: b.x, clipX1: b.maxX)
            dotTable.draw(d.paint, rows: b.y, b.maxY, x0: b.x, x1: b.maxX, into: target, over: nil)
        }
        if let p = l.image, let m = image { sprites.draw(m, p, l.dotPaint, into: target, clip: touched) }
        return touched
    }

    func reserveRows(_ width: Int) {
        if width <= rowCapacity { return }
        shadowRow.deallocate()
        rowCapacity = width
        shadowRow = .allocate(capacity: width + 4)  // read four pixels at a time
        shadowRow.initialize(repeating: 0, count: width + 4)
    }
}

extension Rect {
    func intersects(_ other: Rect) -> Bool { !intersection(other).isEmpty }
}
