/// An alpha mask prepared for bilinear sampling: a copy with a transparent 1-pixel border, so the
/// sampler needs no bounds checks beyond one range test per pixel. Made once (init time), never
/// per frame.
public final class SpriteMask {
    public let width: Int
    public let height: Int
    /// Row length of the padded copy (width + 2).
    public let stride: Int
    /// Padded pixels: (x, y) of the mask is at (y + 1)·stride + x + 1.
    public let padded: UnsafeMutablePointer<UInt8>

    public init(_ mask: AlphaMask) {
        width = mask.width; height = mask.height; stride = mask.width + 2
        let count = stride * (height + 2)
        padded = .allocate(capacity: count)
        padded.initialize(repeating: 0, count: count)
        for y in 0..<height { for x in 0..<width {
            padded[(y + 1) * stride + x + 1] = mask.alpha[y * width + x]
        } }
    }

    deinit { padded.deallocate() }
}

/// Where a sprite goes in one frame: the sprite point (sourceX, sourceY) lands on the frame point
/// (destX, destY) (all in 1/256 px), the sprite is scaled by `scale` (Q16) and turned clockwise by
/// the angle whose sine and cosine (Q16) are given (FixedTrig; y grows downward). Everything here
/// is integer, computed once per frame; the per-pixel work is two adds and a bilinear fetch.
public struct SpritePlacement: Equatable, Sendable {
    public let sourceX: Int, sourceY: Int
    public let destX: Int, destY: Int
    /// Q16; Int64 because a sprite may be magnified past 2^15 (imageScale has no lower bound).
    public let scale: Int64
    public let sin: Int, cos: Int
    // Inverse map, Q16 source px per destination px: cos·2^16/scale is up to 2^32 (scale 1 is
    // allowed), past a 32-bit Int, and its products with Q8 offsets (~2^25) need 64 bits anyway.
    let dudx: Int64, dudy: Int64, dvdx: Int64, dvdy: Int64

    public init(sourceX: Int, sourceY: Int, destX: Int, destY: Int, scale: Int64, sin: Int = 0, cos: Int = 65536) {
        self.sourceX = sourceX; self.sourceY = sourceY; self.destX = destX; self.destY = destY
        self.scale = max(scale, 1); self.sin = sin; self.cos = cos
        // source = R(−θ)·(dest − d)/scale + s.
        dudx = (Int64(cos) << 16) / self.scale; dudy = (Int64(sin) << 16) / self.scale
        dvdx = -dudy; dvdy = dudx
    }

    /// Pixels that may receive a non-zero sample of a `width`×`height` sprite: the frame image of
    /// the sprite's support (bilinear reaches half a texel beyond its edge), one pixel wider for
    /// fixed-point rounding.
    public func bounds(width: Int, height: Int) -> Rect {
        if width == 0 || height == 0 { return .empty }
        // Corners relative to the anchor, in 1/256 px of the sprite; forward map: d + scale·R(θ)·v.
        // Four corners, no array: this runs every frame a sprite is drawn.
        let xs = (-128 - sourceX, width * 256 + 128 - sourceX)
        let ys = (-128 - sourceY, height * 256 + 128 - sourceY)
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for corner in 0..<4 {
            let vx = corner & 1 == 0 ? xs.0 : xs.1, vy = corner & 2 == 0 ? ys.0 : ys.1
            // (scale·(cos·vx − sin·vy)) in Q16·Q16·Q8 → Q8 after >> 32, in Int64: cos·vx alone
            // is 2^16 · (sprite size in Q8) and passes 2^31 for a 128 px sprite. The result, a
            // corner's offset in Q8, fits any Int for a sprite below 2^23 px on screen.
            let fx = Int((scale * (Int64(cos) * Int64(vx) - Int64(sin) * Int64(vy))) >> 32)
            let fy = Int((scale * (Int64(sin) * Int64(vx) + Int64(cos) * Int64(vy))) >> 32)
            minX = min(minX, fx); maxX = max(maxX, fx); minY = min(minY, fy); maxY = max(maxY, fy)
        }
        let x0 = Fixed.floorShift(destX + minX, 8) - 1, x1 = Fixed.ceilShift(destX + maxX, 8) + 1
        let y0 = Fixed.floorShift(destY + minY, 8) - 1, y1 = Fixed.ceilShift(destY + maxY, 8) + 1
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Bilinear samples of `sprite` for frame pixels x0..<x1 of row y into `out` (0…255).
    public func sampleRow(_ sprite: SpriteMask, y: Int, x0: Int, x1: Int, into out: UnsafeMutablePointer<UInt8>) {
        // Source position of the first pixel centre, Q16, minus half a texel so that the integer
        // part names the upper-left texel of the bilinear quad. Int64 throughout: dudx·dx is Q16 ×
        // Q8 (2^32 · 2^25 at the extremes, about 2^24 · sprite px in use), and u, v step by dudx
        // from there; once inside the sprite the integer parts are small and truncate exactly.
        let dx = (Int64(x0) << 8) + 128 - Int64(destX), dy = (Int64(y) << 8) + 128 - Int64(destY)
        var u = (Int64(sourceX) << 8) + ((dudx * dx + dudy * dy) >> 8) - 32768
        var v = (Int64(sourceY) << 8) + ((dvdx * dx + dvdy * dy) >> 8) - 32768
        let w = Int64(sprite.width), h = Int64(sprite.height), stride = sprite.stride
        let tex = sprite.padded
        for i in 0..<(x1 - x0) {
            let iu = u >> 16, iv = v >> 16
            if iu >= -1 && iu < w && iv >= -1 && iv < h {
                let fu = Int(truncatingIfNeeded: u >> 8) & 255, fv = Int(truncatingIfNeeded: v >> 8) & 255
                let p = tex + ((Int(truncatingIfNeeded: iv) &+ 1) &* stride &+ Int(truncatingIfNeeded: iu) &+ 1)
                let top = Int(p[0]) &* (256 &- fu) &+ Int(p[1]) &* fu
                let bottom = Int(p[stride]) &* (256 &- fu) &+ Int(p[stride &+ 1]) &* fu
                out[i] = UInt8(truncatingIfNeeded: (top &* (256 &- fv) &+ bottom &* fv &+ 32768) >> 16)
            } else {
                out[i] = 0
            }
            u &+= dudx; v &+= dvdx
        }
    }
}

/// Draws tinted sprites; owns one scratch row (grown to the widest sprite seen).
public final class SpritePainter {
    @exclusivity(unchecked) private var row: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int

    public init(initialWidth: Int = 256) {
        capacity = max(initialWidth, 16)
        row = .allocate(capacity: capacity)
        row.initialize(repeating: 0, count: capacity)
    }

    deinit { row.deallocate() }

    public func reserve(width: Int) {
        if width <= capacity { return }
        row.deallocate()
        capacity = width
        row = .allocate(capacity: capacity)
        row.initialize(repeating: 0, count: capacity)
    }

    /// `sprite`'s alpha, tinted with `paint`, placed by `placement`, drawn inside `clip`. Returns the
    /// rectangle that may have changed.
    @discardableResult
    public func draw(_ sprite: SpriteMask, _ placement: SpritePlacement, _ paint: SolidPaint,
                     into buffer: PixelBuffer, clip: Rect) -> Rect {
        precondition(buffer.format == .xrgb8888, "sprites are drawn on xrgb8888 frames, not \(buffer.format)")
        if paint.alpha == 0 { return .empty }
        let box = placement.bounds(width: sprite.width, height: sprite.height)
            .intersection(clip).intersection(buffer.bounds)
        if box.isEmpty { return .empty }
        reserve(width: box.width)
        for y in box.y..<box.maxY {
            placement.sampleRow(sprite, y: y, x0: box.x, x1: box.maxX, into: row)
            Blend.coverageSpan(buffer.row(y).assumingMemoryBound(to: UInt32.self), box.x, row, box.width, paint)
        }
        return box
    }
}
