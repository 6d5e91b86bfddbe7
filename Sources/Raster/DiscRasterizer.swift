/// Anti-aliased discs, span by span, with exact area coverage.
///
/// The disc is drawn as a regular polygon fine enough that it never strays more than 1/64 px from
/// the circle (N = 32…1024 vertices by radius), with its circumradius enlarged so that its area is
/// exactly πr². Coverage is the exact area of that polygon inside each pixel, computed row by row:
/// the polygon's left chain adds coverage to its right, the mirrored right chain takes it away, and
/// each edge piece within a row writes two entries per pixel column it crosses into a difference
/// array (FreeType/font-rs style area accumulation, here in integers). A running sum over the edge
/// windows turns that into coverage. Fully covered interior spans are reported as spans (blended
/// with one constant alpha); only edge pixels carry per-pixel coverage, so the work per row is a
/// few edge pieces, not a function of the disc's width. Exact areas make sub-pixel motion exact:
/// moving the centre by 1/256 px moves the coverage by 1/256 px.
///
/// Everything is integer; the polygon's unit vertices come from FixedTrig. The rasterizer owns its
/// scratch (difference array, coverage row, the current polygon); it grows to the widest clip seen
/// and is then reused, so steady-state drawing never allocates.
public final class DiscRasterizer {
    /// Edge coverage of the last row (0…255), index 0 = the row's clip start.
    public private(set) var coverage: UnsafeMutablePointer<UInt8>
    private var delta: UnsafeMutablePointer<Int32>
    private var capacity: Int

    // The current disc's left chain, from the top vertex down to the bottom one, relative to the
    // centre in 1/256 px (x ≤ 0), and each edge's dx/dy in Q16. The right chain is its mirror.
    private let chainX: UnsafeMutablePointer<Int>
    private let chainY: UnsafeMutablePointer<Int>
    private let slope: UnsafeMutablePointer<Int>
    private var edges = 0
    private var current = Disc(centerX256: 0, centerY256: 0, radius256: 0)
    private var ready = false
    /// First edge that may reach the last row asked for (rows usually come top to bottom).
    private var cursor = 0

    public init(initialWidth: Int = 256) {
        capacity = max(initialWidth, 16)
        coverage = .allocate(capacity: capacity + 2)
        coverage.initialize(repeating: 0, count: capacity + 2)
        delta = .allocate(capacity: capacity + 2)
        delta.initialize(repeating: 0, count: capacity + 2)
        let n = DiscPolygons.maxVertices / 2 + 1
        chainX = .allocate(capacity: n); chainX.initialize(repeating: 0, count: n)
        chainY = .allocate(capacity: n); chainY.initialize(repeating: 0, count: n)
        slope = .allocate(capacity: n); slope.initialize(repeating: 0, count: n)
    }

    deinit {
        coverage.deallocate(); delta.deallocate()
        chainX.deallocate(); chainY.deallocate(); slope.deallocate()
    }

    /// Makes room for rows `width` pixels wide (allocates only when wider than ever before).
    public func reserve(width: Int) {
        if width <= capacity { return }
        coverage.deallocate(); delta.deallocate()
        capacity = width
        coverage = .allocate(capacity: capacity + 2)
        coverage.initialize(repeating: 0, count: capacity + 2)
        delta = .allocate(capacity: capacity + 2)
        delta.initialize(repeating: 0, count: capacity + 2)
    }

    /// The pixels this disc touches: those the polygon reaches (its extreme vertices lie on the
    /// axes, at the enlarged circumradius).
    public func bounds(_ d: Disc) -> Rect {
        let rho = DiscPolygons.circumradius(d.radius256)
        if rho <= 0 { return .empty }
        let x0 = Fixed.floorShift(d.centerX256 - rho, 8), x1 = Fixed.ceilShift(d.centerX256 + rho, 8)
        let y0 = Fixed.floorShift(d.centerY256 - rho, 8), y1 = Fixed.ceilShift(d.centerY256 + rho, 8)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Builds the polygon of `d` unless it is the one already built.
    private func prepare(_ d: Disc) {
        if ready && d == current { return }
        current = d
        ready = true
        cursor = 0
        let rho = DiscPolygons.circumradius(d.radius256)
        let poly = DiscPolygons.polygon(forRadius256: d.radius256)
        let half = poly.count / 2
        // Vertex j of the left chain is at angle j·360°/N from the top, counter-clockwise.
        for j in 0...half {
            let (s, c) = poly.unit(j)
            chainX[j] = -((rho * s + (1 << 29)) >> 30)
            chainY[j] = -((rho * c + (1 << 29)) >> 30)
        }
        edges = half
        for j in 0..<half {
            let dy = chainY[j + 1] - chainY[j]
            slope[j] = dy > 0 ? ((chainX[j + 1] - chainX[j]) << 16) / dy : 0
        }
    }

    /// Coverage of pixel row `y` between `clipX0` and `clipX1` (the caller has reserved that width).
    public func coverRow(_ d: Disc, y: Int, clipX0: Int, clipX1: Int) -> DiscRow {
        let width = clipX1 - clipX0
        if width <= 0 || d.radius256 <= 0 { return .empty }
        precondition(width <= capacity, "disc row \(width) px wider than the reserved \(capacity)")
        prepare(d)
        let top = (y << 8) - d.centerY256, bottom = top + 256  // the row, relative to the centre
        if bottom <= chainY[0] || top >= chainY[edges] { return .empty }
        if cursor >= edges || chainY[cursor] > top { cursor = 0 }
        while cursor < edges - 1 && chainY[cursor + 1] <= top { cursor += 1 }

        let acc = Accumulator(delta: delta, lo: clipX0 << 8, width: width)
        let delta = self.delta, chainX = self.chainX, chainY = self.chainY, slope = self.slope
        // Positions relative to the clip's left edge from here on.
        let cx = d.centerX256 - (clipX0 << 8)
        var left = Window(), right = Window()
        var j = cursor
        while j < edges && chainY[j] < bottom {
            let yj = chainY[j], yk = chainY[j + 1]
            j += 1
            if yk <= yj { continue }
            let ya = max(yj, top), yb = min(yk, bottom)
            if yb <= ya { continue }
            let e = j - 1
            let xa = ya == yj ? chainX[e] : chainX[e] + (((ya - yj) * slope[e]) >> 16)
            let xb = yb == yk ? chainX[j] : chainX[e] + (((yb - yj) * slope[e]) >> 16)
            let h = yb - ya
            // The usual piece stays inside one pixel column of the clip: a trapezoid, two entries.
            // xa, xb ≤ 0 (left chain), so the left piece spans cx+min…cx+max, its mirror cx−max…cx−min.
            let lo = Swift.min(xa, xb), hi = Swift.max(xa, xb)
            let l0 = cx + lo, l1 = cx + hi
            let lp = l0 >> 8
            if l1 <= (lp + 1) << 8 && UInt(bitPattern: lp) < UInt(bitPattern: width) {
                let m = l0 + l1 - (lp << 9)
                delta[lp] &+= Int32(truncatingIfNeeded: h * (512 - m))
                delta[lp + 1] &+= Int32(truncatingIfNeeded: h * m)
                left.include(lp, lp)
            } else {
                acc.add(l0 + (clipX0 << 8), l1 + (clipX0 << 8), height: h, sign: 1, &left)
            }
            let r0 = cx - hi, r1 = cx - lo
            let rp = r0 >> 8
            if r1 <= (rp + 1) << 8 && UInt(bitPattern: rp) < UInt(bitPattern: width) {
                let m = r0 + r1 - (rp << 9)
                delta[rp] &-= Int32(truncatingIfNeeded: h * (512 - m))
                delta[rp + 1] &-= Int32(truncatingIfNeeded: h * m)
                right.include(rp, rp)
            } else {
                acc.add(r0 + (clipX0 << 8), r1 + (clipX0 << 8), height: h, sign: -1, &right)
            }
        }
        if left.isEmpty && right.isEmpty { return .empty }
        let fullHeight = chainY[0] <= top && chainY[edges] >= bottom
        if fullHeight && !left.isEmpty && !right.isEmpty && left.max + 1 < right.min {
            accumulate(from: left.min, through: left.max, start: 0)
            delta[left.max + 1] = 0
            accumulate(from: right.min, through: right.max, start: Accumulator.full)
            delta[right.max + 1] = 0
            return DiscRow(edgeStart: clipX0 + left.min, interiorStart: clipX0 + left.max + 1,
                           interiorEnd: clipX0 + right.min, edgeEnd: clipX0 + min(right.max + 1, width))
        }
        let a = min(left.min, right.min), b = max(left.max, right.max)
        accumulate(from: a, through: b, start: 0)
        delta[b + 1] = 0
        let end = clipX0 + min(b + 1, width)
        return DiscRow(edgeStart: clipX0 + a, interiorStart: end, interiorEnd: end, edgeEnd: end)
    }

    /// Running sum of the difference array into 8-bit coverage, clearing it for the next row.
    @inline(__always)
    private func accumulate(from a: Int, through b: Int, start: Int32) {
        var sum = start
        let delta = self.delta, coverage = self.coverage
        var x = a
        while x <= b {
            sum &+= delta[x]
            delta[x] = 0
            coverage[x] = UInt8(truncatingIfNeeded: (sum &* 255 &+ (Accumulator.full >> 1)) >> 17)
            x &+= 1
        }
    }

    /// Coverage of row `y` for every pixel in clipX0..<clipX1 (0 outside the disc) into `out`.
    public func coverageRow(_ d: Disc, y: Int, clipX0: Int, clipX1: Int, into out: UnsafeMutablePointer<UInt8>) {
        let width = clipX1 - clipX0
        if width <= 0 { return }
        out.update(repeating: 0, count: width)
        let row = coverRow(d, y: y, clipX0: clipX0, clipX1: clipX1)
        if row.isEmpty { return }
        (out + (row.edgeStart - clipX0)).update(from: coverage + (row.edgeStart - clipX0),
                                                  count: row.interiorStart - row.edgeStart)
        (out + (row.interiorStart - clipX0)).update(repeating: 255, count: row.interiorEnd - row.interiorStart)
        (out + (row.interiorEnd - clipX0)).update(from: coverage + (row.interiorEnd - clipX0),
                                                    count: row.edgeEnd - row.interiorEnd)
    }

    /// Draws `d` in `paint` onto an XRGB8888 buffer, only inside `clip`. Returns the rectangle
    /// that may have changed (nothing outside it did).
    @discardableResult
    public func fill(_ d: Disc, _ paint: SolidPaint, into buffer: PixelBuffer, clip: Rect) -> Rect {
        precondition(buffer.format == .xrgb8888, "discs are drawn on xrgb8888 frames, not \(buffer.format)")
        if paint.alpha == 0 { return .empty }
        let box = bounds(d).intersection(clip).intersection(buffer.bounds)
        if box.isEmpty { return .empty }
        reserve(width: box.width)
        let coverage = self.coverage
        for y in box.y..<box.maxY {
            let row = coverRow(d, y: y, clipX0: box.x, clipX1: box.maxX)
            if row.isEmpty { continue }
            let pixels = buffer.row(y).assumingMemoryBound(to: UInt32.self)
            Blend.coverageSpan(pixels, row.edgeStart, coverage + (row.edgeStart - box.x),
                               row.interiorStart - row.edgeStart, paint)
            Blend.fillSpan(pixels, row.interiorStart, row.interiorEnd, paint)
            Blend.coverageSpan(pixels, row.interiorEnd, coverage + (row.interiorEnd - box.x),
                               row.edgeEnd - row.interiorEnd, paint)
        }
        return box
    }
}

/// The pixel columns (relative to the clip) a row's chain wrote into the difference array.
struct Window {
    var min = Int.max
    var max = Int.min
    var isEmpty: Bool { max < min }
    @inline(__always) mutating func include(_ a: Int, _ b: Int) {
        if a < min { min = a }
        if b > max { max = b }
    }
}

/// Adds one polygon edge piece (within one pixel row) to the difference array. Coverage units:
/// a full pixel is 256 (row height, 1/256 px) × 512 (twice the column width, so the mean of two
/// 1/256 positions stays an integer) = 131072.
struct Accumulator {
    static let full: Int32 = 131_072
    let delta: UnsafeMutablePointer<Int32>
    let lo: Int, width: Int

    /// The piece from x = xa to x = xb (absolute, 1/256 px) over `height` (1/256 px) of the row;
    /// sign +1 for the left chain (covering what lies to its right), −1 for the right chain.
    /// Each column's share is computed from the piece alone, never from the clip, so a clipped
    /// row is exactly the same pixels as that part of an unclipped one. (coverRow handles the
    /// common one-column piece itself; this is the general case.)
    @inline(never)
    func add(_ xa: Int, _ xb: Int, height h: Int, sign: Int32, _ w: inout Window) {
        let x0 = min(xa, xb), x1 = max(xa, xb)
        let c0 = lo >> 8
        let p0 = x0 >> 8
        let p1 = x1 > x0 ? (x1 - 1) >> 8 : p0
        if p1 <= p0 {
            // Within one column: a trapezoid whose mean x decides the split.
            let m = x0 + x1 - (p0 << 9)  // twice the mean offset in the column, 0…512
            column(p0 - c0, h, m, sign, &w)
            return
        }
        // Across columns: each column gets the height share of its x extent (one division per
        // piece); the last column gets the remainder so the shares sum exactly to h.
        let perX = (h << 16) / (x1 - x0)
        let firstW = ((p0 + 1) << 8) - x0
        let first = (firstW * perX) >> 16
        let mid = (256 * perX) >> 16
        let lastW = x1 - (p1 << 8)
        let last = h - first - (p1 - p0 - 1) * mid
        column(p0 - c0, first, 512 - firstW, sign, &w)
        // Middle columns (mean offset ½: m = 256), only those inside the clip one by one.
        let a = min(max(p0 + 1, c0 - 1), p1), b = max(min(p1, c0 + width + 1), a)
        if a > p0 + 1 { vertical(0, (a - p0 - 1) * mid, sign, &w) }
        var p = a
        while p < b {
            column(p - c0, mid, 256, sign, &w)
            p += 1
        }
        if b < p1 { vertical(width, (p1 - b) * mid, sign, &w) }
        column(p1 - c0, last, lastW, sign, &w)
    }

    /// `h` of row height in clip column `p` whose edge sits at twice-offset `m` (0…512). Columns
    /// left of the clip cover every clip pixel; columns right of it none (kept at index `width`
    /// so the row's window still reaches the clip's end).
    @inline(__always)
    private func column(_ p: Int, _ h: Int, _ m: Int, _ sign: Int32, _ w: inout Window) {
        if p < 0 { vertical(0, h, sign, &w); return }
        if p >= width { vertical(width, h, sign, &w); return }
        delta[p] &+= sign &* Int32(truncatingIfNeeded: h * (512 - m))
        delta[p + 1] &+= sign &* Int32(truncatingIfNeeded: h * m)
        w.include(p, p)
    }

    @inline(__always)
    private func vertical(_ p: Int, _ h: Int, _ sign: Int32, _ w: inout Window) {
        if h <= 0 { return }
        delta[p] &+= sign &* Int32(truncatingIfNeeded: h * 512)
        w.include(p, p)
    }
}

/// Regular polygons standing in for circles: unit vertices from FixedTrig (Q30) and, per vertex
/// count, the factor that enlarges the circumradius so the polygon's area is exactly πr².
enum DiscPolygons {
    static let maxVertices = 1024
    /// Vertex counts 32, 64, …, 1024; each stores the left half-turn (top to bottom), N/2 + 1 points.
    struct Polygon {
        let count: Int
        let sin: [Int]
        let cos: [Int]
        /// Circumradius / radius in Q30.
        let areaFactor: Int
        @inline(__always) func unit(_ j: Int) -> (Int, Int) { (sin[j], cos[j]) }
    }

    static let polygons: [Polygon] = {
        var out = [Polygon]()
        var n = 32
        while n <= maxVertices {
            let step = 360 * FixedTrig.unitsPerDegree / n
            var s = [Int](), c = [Int]()
            for j in 0...(n / 2) {
                let (sj, cj) = FixedTrig.sinCosQ30(units: j * step)
                s.append(sj); c.append(cj)
            }
            // A regular N-gon of circumradius ρ has area (N/2)·ρ²·sin(2π/N).
            let sin2pi = Double(s[1]) / Double(1 << 30)  // vertex 1 is at 360°/N
            let pi = 3.141_592_653_589_793
            let factor = (pi / (Double(n) / 2 * sin2pi)).squareRoot()
            out.append(Polygon(count: n, sin: s, cos: c, areaFactor: Int((factor * Double(1 << 30)).rounded())))
            n *= 2
        }
        return out
    }()

    /// The polygon for a radius (1/256 px): the fewest vertices keeping it within 1/64 px of the
    /// circle (sagitta r·π²/(2N²) ≤ 1/64 ⇔ N² ≥ 32·π²·r).
    @inline(__always)
    static func polygon(forRadius256 r: Int) -> Polygon {
        // N² ≥ 32·π²·r/256 px  ⇔  N² · 256 ≥ 316 · r (32·π² ≈ 315.8).
        var i = 0
        while i < polygons.count - 1 && polygons[i].count * polygons[i].count * 256 < 316 * r { i += 1 }
        return polygons[i]
    }

    /// The enlarged circumradius (1/256 px) of the polygon standing in for a radius.
    @inline(__always)
    static func circumradius(_ r: Int) -> Int {
        if r <= 0 { return 0 }
        return (r * polygon(forRadius256: r).areaFactor + (1 << 29)) >> 30
    }
}
