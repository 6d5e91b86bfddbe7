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
/// table over radii, phases and clips and holds it to `maximumError` (`rampError` for the ramp,
/// `Kind`); a caller takes the kind `kind(radius256:paintAlpha:)` gives, where paint alpha × error
/// ≤ 510, so that the blended colour moves at most 2/255.
public enum DiscProfile {
    /// Steps of the angle index (a = i/256, i = 0…181) and of the distance (s = j/256 − 182/256 px).
    static let angles = 182
    static let reach = 182
    static let depths = 2 * reach + 1
    /// The smallest radius (1/256 px) the profile is used at: below it the curvature term grows
    /// past what the errors below allow.
    public static let minimumRadius256 = 16 * 256
    /// The largest difference, in coverage bytes, of each kind from the exact polygon area
    /// (`DiscProfileTests` holds them).
    public static let maximumError = 7
    public static let rampError = 16

    /// How the coverage is read: the tangent half-plane's share of the pixel (by angle and
    /// distance), or, fainter still, the distance alone (a linear ramp over ±1/2 px, which ignores
    /// that a slanted edge crosses a pixel over a wider band: up to 11/255 at 45°).
    public enum Kind: Sendable { case tangent, ramp }

    /// The kind a disc of this radius, painted with this alpha, may take its coverage from — its
    /// colour then stays within 2/255 of the exact area's (alpha × error ≤ 2 × 255) — or nil.
    @inline(__always)
    public static func kind(radius256: Int, paintAlpha: UInt32) -> Kind? {
        if radius256 < minimumRadius256 { return nil }
        let a = Int(paintAlpha)
        return a * rampError <= 510 ? .ramp : a * maximumError <= 510 ? .tangent : nil
    }

    /// Makes the table (once per process, 66 kB): a painter calls it when it is built, so that no
    /// frame allocates or spends the 2.5 M instructions of making it.
    public static func prepare() { _ = table }

    struct Table: @unchecked Sendable { let bytes: UnsafePointer<UInt8> }
    static let table: Table = {
        let t = UnsafeMutablePointer<UInt8>.allocate(capacity: angles * depths)
        for i in 0..<angles {
            // The normal (a, b) in Q16: b = √(1 − a²).
            let a = Int64(i) << 8
            let b = Int64(Fixed.isqrt((UInt64(1) << 32) &- UInt64(a * a)))
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
    /// What every pixel of a frame's profile needs (wrapping arithmetic: every product stays under
    /// 2^45 for the radii a canvas holds).
    struct ProfileFrame {
        let cx: Int64, r2: Int64
        /// 2^32/R and 2^32/2R: the two divisions of the frame.
        let inverse: Int64, halfInverse: Int64
        let table: UnsafePointer<UInt8>

        /// s = d − R in 1/256 px for a pixel centre (dx, dy): u − u²/2R with u = (d² − R²)/2R.
        @inline(__always)
        func distance(_ dx: Int64, _ dy2: Int64) -> Int64 {
            let u: Int64 = ((dx &* dx &+ dy2 &- r2) &* halfInverse) >> 32
            return u &- ((u &* u &* halfInverse) >> 32)
        }

        /// Pixels x..<end of a row into p.
        @inline(__always)
        func tangent(_ x: Int, _ end: Int, _ dy2: Int64, _ ady: Int64, into p: UnsafeMutablePointer<UInt8>) {
            var dx: Int64 = (Int64(x) &<< 8) &+ 128 &- cx
            var q = p, n = end &- x
            let reach = Int64(DiscProfile.reach), lastAngle = Int64(DiscProfile.angles &- 1)
            let depths = DiscProfile.depths, lastDepth = Int64(depths &- 1), half: Int64 = 1 << 23
            while n > 0 {
                let s = distance(dx, dy2)
                let adx: Int64 = dx < 0 ? 0 &- dx : dx
                // a = m/d ≈ (m/R)·(1 − s/R).
                let a0: Int64 = (min(adx, ady) &* inverse &+ half) >> 24
                let a: Int64 = min(max(a0 &- ((a0 &* s &* inverse) >> 32), 0), lastAngle)
                let j: Int64 = min(max(s &+ reach, 0), lastDepth)
                q.pointee = table[Int(truncatingIfNeeded: a) &* depths &+ Int(truncatingIfNeeded: j)]
                q += 1
                dx &+= 256
                n &-= 1
            }
        }

        /// Pixels x..<end of a row into p: 255 · (1/2 − s), rounded, clamped.
        @inline(__always)
        func ramp(_ x: Int, _ end: Int, _ dy2: Int64, into p: UnsafeMutablePointer<UInt8>) {
            var dx: Int64 = (Int64(x) &<< 8) &+ 128 &- cx
            var q = p, n = end &- x
            while n > 0 {
                let v: Int64 = (255 &* (128 &- distance(dx, dy2)) &+ 128) >> 8
                q.pointee = UInt8(truncatingIfNeeded: min(max(v, 0), 255))
                q += 1
                dx &+= 256
                n &-= 1
            }
        }
    }

    /// Rows y0..<y1 of `d` within clipX0..<clipX1 from `DiscProfile` instead of the exact area:
    /// the same spans and padding `rasterize` writes, so `draw` reads it unchanged. Each row's
    /// edge pixels are those whose centre lies within the kind's reach of the circle (182/256 px
    /// for the tangent, 1/2 px for the ramp; found with two integer square roots a row); between
    /// them the row is full.
    public func rasterizeProfile(_ d: Disc, _ kind: DiscProfile.Kind, rows y0: Int, _ y1: Int, clipX0: Int, clipX1: Int) {
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
        let inverse: Int64 = (Int64(1) << 32) / r
        let f = ProfileFrame(cx: Int64(d.centerX256), r2: r &* r, inverse: inverse, halfInverse: inverse >> 1,
                             table: DiscProfile.table.bytes)
        let tangent = kind == .tangent
        let reach: Int64 = tangent ? Int64(DiscProfile.reach) : 128
        let cx = f.cx, cy = Int64(d.centerY256)
        let outer: Int64 = r &+ reach, inner: Int64 = r &- reach
        var offset = 0
        for i in 0..<rows {
            let dy: Int64 = (Int64(y0 &+ i) &<< 8) &+ 128 &- cy
            let dy2: Int64 = dy &* dy
            let o2: Int64 = outer &* outer &- dy2
            if o2 <= 0 {
                spans[i] = .empty
                continue
            }
            // Pixels whose centres lie within `outer` of the centre, and within `inner`.
            let ho = Int64(Fixed.floorSqrt(o2)) &+ 1
            let lo = max(Int(truncatingIfNeeded: 0 &- ((128 &- cx &+ ho) >> 8)), clipX0)
            let hi = min(Int(truncatingIfNeeded: (cx &+ ho &- 128) >> 8) &+ 1, clipX1)
            if lo >= hi {
                spans[i] = .empty
                continue
            }
            var il = hi, ir = hi
            let i2: Int64 = inner &* inner &- dy2
            if inner > 0 && i2 > 0 {
                let hin = Int64(Fixed.floorSqrt(i2))
                il = min(max(Int(truncatingIfNeeded: 0 &- ((128 &- cx &+ hin) >> 8)), lo), hi)
                ir = min(max(Int(truncatingIfNeeded: (cx &+ hin &- 128) >> 8) &+ 1, il), hi)
                if ir <= il { il = hi; ir = hi }
            }
            growBytes(to: offset &+ (hi &- lo) &+ 16)
            let at = pad(offset, il &- lo, hi &- ir)
            if tangent {
                let ady: Int64 = dy < 0 ? 0 &- dy : dy
                f.tangent(lo, il, dy2, ady, into: bytes + at.left)
                f.tangent(ir, hi, dy2, ady, into: bytes + at.right)
            } else {
                f.ramp(lo, il, dy2, into: bytes + at.left)
                f.ramp(ir, hi, dy2, into: bytes + at.right)
            }
            spans[i] = DiscSpan(edgeStart: lo, interiorStart: il, interiorEnd: ir, edgeEnd: hi, left: at.left, right: at.right)
            offset = at.end
        }
    }
}
