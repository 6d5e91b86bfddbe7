/// A small picture with its own alpha laid over the frame at a fixed place: the map's attribution
/// label, drawn once (at start-up, not per frame) and composited into every frame it touches.
///
/// Pixels are 0xAARRGGBB with the colour premultiplied by alpha, so compositing is one multiply
/// per channel and a fully transparent pixel is 0 whatever its colour was. Premultiplied ARGB
/// splits into the same two 16-bit lanes as XRGB8888 (red|blue and alpha|green), so the blend
/// uses `Blend`'s lane arithmetic and rounding.
public final class Overlay {
    public let width: Int
    public let height: Int
    /// Where the top-left pixel lands on the canvas; may be partly or wholly off it.
    public var x: Int
    public var y: Int
    /// Rows of `width` premultiplied pixels, no padding. Owned; never reallocated.
    private let pixels: UnsafeMutablePointer<UInt32>

    /// A fully transparent `width`×`height` picture at (`x`, `y`).
    public init(width: Int, height: Int, x: Int = 0, y: Int = 0) {
        precondition(width >= 0 && height >= 0, "an overlay cannot be \(width)x\(height)")
        self.width = width; self.height = height; self.x = x; self.y = y
        let count = max(1, width * height)
        pixels = .allocate(capacity: count)
        pixels.initialize(repeating: 0, count: count)
    }

    deinit { pixels.deallocate() }

    /// The canvas pixels this overlay covers.
    public var frame: Rect { Rect(x: x, y: y, width: width, height: height) }

    /// The premultiplied pixel at (`px`, `py`) of the overlay (its own coordinates).
    public func pixel(x px: Int, y py: Int) -> UInt32 {
        precondition(px >= 0 && px < width && py >= 0 && py < height, "pixel (\(px), \(py)) outside a \(width)x\(height) overlay")
        return pixels[py * width + px]
    }

    /// Sets a premultiplied pixel. A colour channel above the alpha is no premultiplied colour at
    /// all, and would carry into the next channel when blended, so it is refused.
    public func setPixel(x px: Int, y py: Int, _ argb: UInt32) {
        precondition(px >= 0 && px < width && py >= 0 && py < height, "pixel (\(px), \(py)) outside a \(width)x\(height) overlay")
        precondition(Self.isPremultiplied(argb), "pixel \(argb) has a colour channel above its alpha")
        pixels[py * width + px] = argb
    }

    /// Every pixel of `rect` (clipped to the overlay) becomes `color`, premultiplied.
    public func fill(_ rect: Rect, with color: Color) {
        let r = rect.intersection(Rect(x: 0, y: 0, width: width, height: height))
        if r.isEmpty { return }
        let p = Self.premultiplied(color)
        for row in r.y..<r.maxY { (pixels + row * width + r.x).update(repeating: p, count: r.width) }
    }

    /// `color` at `coverage` (0…255) over the overlay pixel at (`px`, `py`): how glyphs are painted
    /// onto the label's box. Pixels outside the overlay are ignored, so a glyph may overhang.
    public func blend(x px: Int, y py: Int, _ color: Color, coverage: UInt8) {
        if px < 0 || px >= width || py < 0 || py >= height || coverage == 0 { return }
        let a = Blend.div255(UInt32(color.a) &* UInt32(coverage))
        let source = Self.premultiplied(Color(r: color.r, g: color.g, b: color.b, a: UInt8(truncatingIfNeeded: a)))
        let i = py * width + px
        pixels[i] = Self.over(source, pixels[i])
    }

    /// Composites the overlay onto `canvas` (XRGB8888) inside `clip`: source-over, premultiplied.
    /// Returns the canvas rectangle that may have changed. Allocation-free; integer only.
    @discardableResult
    public func draw(into canvas: PixelBuffer, clip: Rect) -> Rect {
        precondition(canvas.format == .xrgb8888, "overlays are drawn on xrgb8888 frames, not \(canvas.format)")
        let box = frame.intersection(clip).intersection(canvas.bounds)
        if box.isEmpty { return .empty }
        for cy in box.y..<box.maxY {
            let src = pixels + (cy - y) * width + (box.x - x)
            let dst = canvas.row(cy).assumingMemoryBound(to: UInt32.self) + box.x
            for i in 0..<box.width {
                let s = src[i]
                let a = s >> 24
                // Most of a label is one box colour and the glyphs' opaque cores; the two ends
                // skip the multiplies, and leave the canvas exactly as it was or exactly the source.
                if a == 0 { continue }
                dst[i] = a == 255 ? s : Self.over(s, dst[i])
            }
        }
        return box
    }

    /// Premultiplied `source` over `dest`, both 0xAARRGGBB-laid-out (an XRGB8888 pixel's X byte
    /// is its alpha): each channel is s + round(d·(255 − a)/255). With s ≤ a per channel the sum
    /// stays ≤ 255, so the lanes never carry.
    @inline(__always)
    public static func over(_ source: UInt32, _ dest: UInt32) -> UInt32 {
        let inv = 255 &- (source >> 24)
        let rb = (source & Blend.laneMask) &+ Blend.div255Lanes((dest & Blend.laneMask) &* inv)
        let ag = ((source >> 8) & Blend.laneMask) &+ Blend.div255Lanes(((dest >> 8) & Blend.laneMask) &* inv)
        return rb | (ag << 8)
    }

    /// `color` (straight alpha) as a premultiplied 0xAARRGGBB pixel, each channel round(c·a/255).
    public static func premultiplied(_ color: Color) -> UInt32 {
        let a = UInt32(color.a)
        return a << 24 | Blend.div255(UInt32(color.r) &* a) << 16
            | Blend.div255(UInt32(color.g) &* a) << 8 | Blend.div255(UInt32(color.b) &* a)
    }

    /// True when no colour channel of `argb` exceeds its alpha.
    public static func isPremultiplied(_ argb: UInt32) -> Bool {
        let a = argb >> 24
        return (argb >> 16) & 0xFF <= a && (argb >> 8) & 0xFF <= a && argb & 0xFF <= a
    }
}
