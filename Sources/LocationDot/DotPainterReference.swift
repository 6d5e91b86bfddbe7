import Raster

/// The dot drawn the plain way, for `pulsedot bench --verify`: every layer pixel by pixel over its
/// whole bounds, each disc's coverage row asked of the rasterizer afresh, the shadow sampled from
/// the blurred silhouette itself (no phase masks), one `Blend.over` per pixel. No spans, no clip,
/// no scratch shared between layers. It shares only the frame's geometry (`DotLayout`) with
/// `DotPainter`, so any speed-up in the painter that changes a pixel shows up as a difference.
/// Slow on purpose; never on the frame path.
public final class ReferenceDotPainter {
    private let painter: DotPainter
    private let discs = DiscRasterizer()
    private let knockout: [UInt8]
    private var row: [UInt8] = []
    private var shadowRow: [UInt8] = []

    public init(style: DotStyle, scale: Double) {
        painter = DotPainter(style: style, scale: scale)
        knockout = GroupBlend.knockoutTable(groupAlpha: Int(painter.groupAlpha))
    }

    /// Draws the whole dot centred at (centerX, centerY) into `target` (XRGB8888).
    public func paint(into target: PixelBuffer, centerX: Double, centerY: Double, appearance: DotAppearance) {
        let l = painter.layout(centerX: centerX, centerY: centerY, appearance: appearance)
        if let f = l.accuracy { disc(f.disc, f.paint, target) }
        if let s = l.heading, let m = painter.headingImage { sprite(m, s, l.dotPaint, target) }
        if let f = l.halo { disc(f.disc, f.paint, target) }
        if let g = l.group { group(g, target) }
        if let f = l.dot { disc(f.disc, f.paint, target) }
        if let s = l.image, let m = painter.image { sprite(m, s, l.dotPaint, target) }
    }

    /// `paint` at each pixel's coverage: a = paint alpha × coverage.
    private static func over(_ p: UnsafeMutablePointer<UInt32>, _ paint: SolidPaint, _ coverage: UInt8) {
        p.pointee = Blend.over(p.pointee, paint, alpha: Blend.div255(paint.alpha * UInt32(coverage)))
    }

    private func disc(_ d: Disc, _ paint: SolidPaint, _ target: PixelBuffer) {
        let box = discs.bounds(d).intersection(target.bounds)
        if box.isEmpty { return }
        discs.reserve(width: box.width)
        row = [UInt8](repeating: 0, count: box.width)
        for y in box.y..<box.maxY {
            row.withUnsafeMutableBufferPointer { discs.coverageRow(d, y: y, clipX0: box.x, clipX1: box.maxX, into: $0.baseAddress!) }
            let pixels = target.row(y).assumingMemoryBound(to: UInt32.self)
            for x in box.x..<box.maxX { Self.over(pixels + x, paint, row[x - box.x]) }
        }
    }

    private func sprite(_ m: SpriteMask, _ s: SpritePlacement, _ paint: SolidPaint, _ target: PixelBuffer) {
        let box = s.bounds(width: m.width, height: m.height).intersection(target.bounds)
        if box.isEmpty { return }
        row = [UInt8](repeating: 0, count: box.width)
        for y in box.y..<box.maxY {
            row.withUnsafeMutableBufferPointer { s.sampleRow(m, y: y, x0: box.x, x1: box.maxX, into: $0.baseAddress!) }
            let pixels = target.row(y).assumingMemoryBound(to: UInt32.self)
            for x in box.x..<box.maxX { Self.over(pixels + x, paint, row[x - box.x]) }
        }
    }

    /// The ring and its shadow by the group formula at every pixel of the group's bounds.
    private func group(_ g: DotLayout.Group, _ target: PixelBuffer) {
        let box = g.bounds.intersection(target.bounds)
        if box.isEmpty { return }
        let style = painter.style
        let shadowPaint = SolidPaint(Color(r: style.shadowColor.r, g: style.shadowColor.g, b: style.shadowColor.b))
        discs.reserve(width: box.width)
        row = [UInt8](repeating: 0, count: box.width)
        shadowRow = [UInt8](repeating: 0, count: box.width)
        let ringVisible = g.ringPaint.alpha > 0
        for y in box.y..<box.maxY {
            row.withUnsafeMutableBufferPointer {
                if ringVisible {
                    discs.coverageRow(g.ring, y: y, clipX0: box.x, clipX1: box.maxX, into: $0.baseAddress!)
                } else {
                    $0.update(repeating: 0)
                }
            }
            shadowRow.withUnsafeMutableBufferPointer { out in
                for x in box.x..<box.maxX { out[x - box.x] = 0 }
                guard let masks = painter.shadow else { return }
                if g.shadowPhase != nil {
                    for x in box.x..<box.maxX {
                        out[x - box.x] = masks.referenceSample(x: x, y: y, centerX: g.shadowX256, centerY: g.shadowY256)
                    }
                } else if let s = g.shadowSprite {
                    s.sampleRow(masks.sprite, y: y, x0: box.x, x1: box.maxX, into: out.baseAddress!)
                }
            }
            let pixels = target.row(y).assumingMemoryBound(to: UInt32.self)
            knockout.withUnsafeBufferPointer { k in
                for x in box.x..<box.maxX {
                    let i = x - box.x
                    if painter.shadow == nil {
                        Self.over(pixels + x, g.ringPaint, row[i])
                    } else {
                        pixels[x] = GroupBlend.pixel(pixels[x], shadow: UInt32(shadowRow[i]), disc: UInt32(row[i]),
                                                     shadowPaint: shadowPaint, discPaint: g.ringPaint,
                                                     discAlpha: UInt32(g.ringColor.a), groupAlpha: painter.groupAlpha,
                                                     knockout: k.baseAddress!)
                    }
                }
            }
        }
    }
}
