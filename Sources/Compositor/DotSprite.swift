import LocationDot
import Raster

/// The dot as a premultiplied ARGB8888 picture of its own, for a display plane that composes it
/// over the map. The renderer's own painter draws it in one pass over transparent black: its blend
/// kernels treat the fourth byte as the destination's alpha, so every "over" leaves the colour
/// premultiplied and the alpha accumulated, and the plane's premultiplied blend then gives the
/// map's pixels what the painter would have given them, within rounding (3/255 at most, measured
/// in BenchPlanesTests; BENCHMARKS.md).
///
/// The dot's position keeps its fraction: the picture's corner is the dot's bounds' whole-pixel
/// corner, and the dot is painted at the centre less that corner, so its sub-pixel place is the
/// same as on the map. Allocates only in init.
public final class DotSprite {
    public let width: Int
    public let height: Int
    private let painter: DotPainter
    /// Transparent black: all four bytes zero.
    private let clear: OwnedPixelBuffer

    /// A sprite of at most `width`×`height` pixels for the dot in `style` at `scale`.
    public init(style: DotStyle, scale: Double, width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a sprite needs a positive size")
        self.width = width
        self.height = height
        painter = DotPainter(style: style, scale: scale)
        painter.reserve(width: width, height: height)
        clear = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
    }

    /// The side a sprite needs for the dot of `style` at `scale` without an accuracy disc: the
    /// halo at its largest, the entrance pop's overshoot and the shadow's blur with room to spare.
    public static func side(style: DotStyle, scale: Double) -> Int {
        let halo = max(style.haloDiameter, DotStyle.ringDiameter + 2 * (style.shadowRadius * 3 + abs(style.shadowOffsetY) + abs(style.shadowOffsetX)))
        return Int((halo * scale * 1.25).rounded(.up)) + 8
    }

    /// Where the picture of the dot at (`centerX`, `centerY`) (canvas pixels) goes: its top-left
    /// canvas pixel and size; nil when it does not fit the sprite (a large accuracy disc).
    public func placement(_ appearance: DotAppearance, centerX: Double, centerY: Double) -> Rect? {
        let b = painter.bounds(centerX: centerX, centerY: centerY, appearance: appearance)
        if b.isEmpty || b.width > width || b.height > height { return nil }
        return b
    }

    /// Paints the dot placed at `place` (from `placement`) into the top-left of `target`, a
    /// premultiplied ARGB8888 buffer of at least `place`'s size. Only that rectangle is written.
    public func paint(_ appearance: DotAppearance, centerX: Double, centerY: Double, at place: Rect, into target: PixelBuffer) {
        precondition(target.width >= place.width && target.height >= place.height && target.format == .xrgb8888,
                     "a sprite buffer of \(target.width)x\(target.height) cannot hold \(place.width)x\(place.height)")
        let x = centerX - Double(place.x), y = centerY - Double(place.y)
        let area = Rect(x: 0, y: 0, width: place.width, height: place.height)
        painter.paint(into: target, over: clear.buffer, centerX: x, centerY: y, appearance: appearance, clip: area)
    }

    /// Blends the premultiplied `picture` over `target` (XRGB8888) with its top-left at (x, y), as a
    /// display plane does: colour + target × (1 − alpha), each rounded; clipped at the edges.
    public static func blend(_ picture: PixelBuffer, over target: PixelBuffer, atX x: Int, y: Int) {
        let area = Rect(x: x, y: y, width: picture.width, height: picture.height).intersection(target.bounds)
        if area.isEmpty { return }
        for ty in area.y..<area.maxY {
            let src = picture.row(ty - y).assumingMemoryBound(to: UInt32.self)
            let dst = target.row(ty).assumingMemoryBound(to: UInt32.self)
            for tx in area.x..<area.maxX {
                let s = src[tx - x], d = dst[tx]
                let keep = 255 &- (s >> 24)
                var out: UInt32 = 0
                for shift: UInt32 in [0, 8, 16] {
                    let c = (s >> shift) & 0xFF, m = (d >> shift) & 0xFF
                    out |= min(255, c &+ (m &* keep &+ 127) / 255) << shift
                }
                dst[tx] = out
            }
        }
    }
}
