/// Coverage of a large disc from its tangent line, for layers drawn faint enough that a few
/// 1/255 of coverage cannot move a pixel by more than 2/255 (the halo late in its cycle, when it
/// is largest and most of a frame's work).
///
/// A pixel near the edge of a disc of radius R sees, to within (√2)³/(24R) of a pixel's area, the
/// half-plane bounded by the circle's tangent nearest its centre. That half-plane's share of the
/// pixel depends only on two numbers: the signed distance s from the pixel's centre to the circle
/// (d − R) and the smaller component a of the radial direction (the line's angle folded into the
/// first octant). It is read from one table of 182 × 365 bytes made at start-up in integers:
/// a in 1/256 steps (0…181/256, up to sin 45°), s in 1/256 px (±182/256 px, beyond which the
/// pixel is empty or full whatever the angle). Per pixel that is d² and two multiplies by 1/R
/// in place of the exact walk's chain crossings: s = u − u²/2R with u = (d² − R²)/2R, and
/// a = (m/R)·(1 − s/R) with m the smaller of |dx| and |dy|.
///
/// It is not the exact polygon area `DiscRasterizer` computes: the polygon strays up to
/// 2/3 · 1/64 px from the circle (its vertices out, its edge midpoints in), the tangent adds the
/// curvature term, the table its steps. `DiscProfileTests` measures the difference from the exact
/// table over radii, phases and clips and holds it to `maximumError`; a caller uses the profile
/// only where `paint alpha × maximumError ≤ 510`, so that the blended colour moves at most 2/255.
public enum DiscProfile {
    /// Steps of the angle index (a = i/256, i = 0…181) and of the distance (s = j/256 − 182/256 px).
    static let angles = 182
    static let reach = 182
    static let depths = 2 * reach + 1
    /// The smallest radius (1/256 px) the profile is used at: below it the curvature term grows
    /// past what `maximumError` allows.
    public static let minimumRadius256 = 16 * 256
    /// The largest difference, in coverage bytes, from the exact polygon area (`DiscProfileTests`).
    public static let maximumError = 6

    /// Whether a disc of this radius, painted with this alpha, may take its coverage from the
    /// profile: its colour then stays within 2/255 of the exact area's.
    @inline(__always)
    public static func admits(radius256: Int, paintAlpha: UInt32) -> Bool {
        radius256 >= minimumRadius256 && Int(paintAlpha) * maximumError <= 510
    }

    struct Table: @unchecked Sendable { let bytes: UnsafePointer<UInt8> }
    static let table: Table = {
        let t = UnsafeMutablePointer<UInt8>.allocate(capacity: angles * depths)
        for i in 0..<angles {
            // The normal (a, b) in Q16: b = √(1 − a²).
            let a = Int64(i) << 8
            let b = Int64(Fixed.isqrt(UInt64(1 << 32) &- UInt64(a * a)))
            // Twice the half-widths of the ramp's straight part (b − a)/2 and of the whole (a + b)/2.
            let w1 = b - a, w2 = a + b
            let ab8 = 8 * a * b
            for j in 0..<depths {
                // Twice the depth of the pixel's centre inside the line, Q16.
                let t2 = Int64(reach - j) << 9
                let v: Int64
                if t2 >= w2 {
                    v = 255
                } else if t2 <= -w2 {
                    v = 0
                } else if t2 <= w1 && t2 >= -w1 {
                    // 1/2 + t/b.
                    v = (128 * b + 255 * (t2 >> 1)) / b
                } else if t2 > w1 {
                    // 1 − (w2 − t)²/2ab.
                    let q = (w2 - t2) * (w2 - t2)
                    v = (511 * ab8 - 510 * q) / (2 * ab8)
                } else {
                    // (w2 + t)²/2ab.
                    let q = (w2 + t2) * (w2 + t2)
                    v = (510 * q + ab8) / (2 * ab8)
                }
                t[i * depths + j] = UInt8(min(max(v, 0), 255))
            }
        }
        return Table(bytes: UnsafePointer(t))
    }()
}

extension DiscRowTable {
    /// Rows y0..<y1 of `d` within clipX0..<clipX1 from `DiscProfile` instead of the exact area:
    /// the same spans and padding `rasterize` writes, so `draw` reads it unchanged. Each row's
    /// edge pixels are those whose centre lies within 182/256 px of the circle (found with two
    /// integer square roots a row); between them the row is full.
    public func rasterizeProfile(_ d: Disc, rows y0: Int, _ y1: Int, clipX0: Int, clipX1: Int) {
        held = nil
        let rows = max(y1 - y0, 0), width = clipX1 - clipX0
        firstRow = y0
        rowCount = 0
        if rows == 0 || width <= 0 { return }
        reserve(rows: rows, width: width)
        rowCount = rows
        let r = Int64(d.radius256)
        if r <= 0 {
            for i in 0..<rows { spans[i] = .empty }
            return
        }
        let table = DiscProfile.table.bytes
        let depths = DiscProfile.depths
        let reach = Int64(DiscProfile.reach), lastAngle = Int64(DiscProfile.angles - 1), lastDepth = Int64(depths - 1)
        let cx = Int64(d.centerX256), cy = Int64(d.centerY256)
        let outer: Int64 = r + reach, inner: Int64 = r - reach, r2: Int64 = r * r
        // 2^32/R and 2^32/2R: the two divisions of the frame.
        let inverse: Int64 = (Int64(1) << 32) / r
        let halfInverse: Int64 = inverse >> 1
        let roundA: Int64 = 1 << 23
        var offset = 0
        // Wrapping arithmetic below: every product stays under 2^45 for the radii a canvas holds.
        @inline(__always) func cover(_ x: Int, _ dy2: Int64, _ ady: Int64) -> UInt8 {
            let dx: Int64 = (Int64(x) &<< 8) &+ 128 &- cx
            let e: Int64 = dx &* dx &+ dy2 &- r2
            let u: Int64 = (e &* halfInverse) >> 32
            let bend: Int64 = (u &* u &* halfInverse) >> 32
            let s: Int64 = u &- bend
            let adx: Int64 = dx < 0 ? 0 &- dx : dx
            let m: Int64 = min(adx, ady)
            let a0: Int64 = (m &* inverse &+ roundA) >> 24
            let tilt: Int64 = (a0 &* s &* inverse) >> 32
            let a: Int64 = min(max(a0 &- tilt, 0), lastAngle)
            let j: Int64 = min(max(s &+ reach, 0), lastDepth)
            return table[Int(truncatingIfNeeded: a) &* depths &+ Int(truncatingIfNeeded: j)]
        }
        for i in 0..<rows {
            let dy: Int64 = (Int64(y0 &+ i) &<< 8) &+ 128 &- cy
            let dy2: Int64 = dy &* dy
            let ady: Int64 = dy < 0 ? 0 &- dy : dy
            let o2: Int64 = outer &* outer &- dy2
            if o2 <= 0 {
                spans[i] = .empty
                continue
            }
            // Pixels whose centres lie within `outer` of the centre, and within `inner`.
            let ho = Int64(Fixed.floorSqrt(o2)) + 1
            let lo = max(Int(truncatingIfNeeded: -((128 - cx + ho) >> 8)), clipX0)
            let hi = min(Int(truncatingIfNeeded: (cx + ho - 128) >> 8) + 1, clipX1)
            if lo >= hi {
                spans[i] = .empty
                continue
            }
            var il = hi, ir = hi
            let i2: Int64 = inner &* inner &- dy2
            if inner > 0 && i2 > 0 {
                let hin = Int64(Fixed.floorSqrt(i2))
                il = min(max(Int(truncatingIfNeeded: -((128 - cx + hin) >> 8)), lo), hi)
                ir = min(max(Int(truncatingIfNeeded: (cx + hin - 128) >> 8) + 1, il), hi)
                if ir <= il { il = hi; ir = hi }
            }
            growBytes(to: offset &+ (hi &- lo) &+ 16)
            let at = pad(offset, il &- lo, hi &- ir)
            var x = lo, p = bytes + at.left
            while x < il { p.pointee = cover(x, dy2, ady); p += 1; x &+= 1 }
            x = ir; p = bytes + at.right
            while x < hi { p.pointee = cover(x, dy2, ady); p += 1; x &+= 1 }
            spans[i] = DiscSpan(edgeStart: lo, interiorStart: il, interiorEnd: ir, edgeEnd: hi, left: at.left, right: at.right)
            offset = at.end
        }
    }
}
