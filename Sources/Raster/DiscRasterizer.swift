/// Anti-aliased discs, span by span, with exact area coverage.
///
/// The disc is drawn as a regular polygon fine enough that it never strays more than 1/64 px from
/// the circle (N = 32…1024 vertices by radius), with its circumradius enlarged so that its area is
/// exactly πr². Coverage is the exact area of that polygon inside each pixel, computed row by row:
/// the polygon's left chain adds coverage to its right, the mirrored right chain takes it away.
/// Within a row each chain is monotone in x (split at the leftmost vertex), so it meets each pixel
/// column line at most once: those crossing points (one multiply by the edge's precomputed dy/dx)
/// cut the row into pieces that each lie in one column, and the area to the chain's right in that
/// column is read off the chain's running area integral — prefix sums over the vertices, made when
/// the polygon is built, plus one trapezoid — so a row costs a few multiplies per column the
/// chain crosses however many vertices it passes. Each column's area goes into a difference array
/// (two entries, FreeType/font-rs style, in integers); a running sum over the edge windows turns
/// that into coverage. Fully covered interior spans are reported as spans (blended with one
/// constant alpha); only edge pixels carry per-pixel coverage. The points where the chain meets
/// row and column lines are shared by neighbouring pieces, so the areas add up exactly: moving the
/// centre by 1/256 px moves the coverage by 1/256 px.
///
/// Everything is integer; the polygon's unit vertices come from FixedTrig. The polygon depends only
/// on the radius, so a disc that only moved keeps it. The rasterizer owns its scratch (difference
/// array, coverage row, the current polygon); it grows to the widest clip seen and is then reused,
/// so steady-state drawing never allocates. (Its mutable state is marked `@exclusivity(unchecked)`:
/// the frame loop is single-threaded and the runtime's access tracking cost more than the row it
/// guards.)
public final class DiscRasterizer {
    /// Edge coverage of the last row (0…255), index 0 = the row's clip start.
    @exclusivity(unchecked) public private(set) var coverage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) var delta: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) var capacity: Int

    // The current disc's left chain, from the top vertex down to the bottom one, relative to the
    // centre in 1/256 px (x ≤ 0), each edge's dx/dy and dy/dx in Q16, and twice the area between
    // the chain and the vertical through the centre down to each vertex (Σ dy·(x₀ + x₁), ≤ 0).
    // The right chain is its mirror. Positions reach 2^24, slopes 2^39 and areas 2^48: the chain
    // and everything computed from it is Int64 on every CPU.
    let chainX: UnsafeMutablePointer<Int64>
    let chainY: UnsafeMutablePointer<Int64>
    let slope: UnsafeMutablePointer<Int64>
    let inverseSlope: UnsafeMutablePointer<Int64>
    let prefix: UnsafeMutablePointer<Int64>
    @exclusivity(unchecked) var edges = 0
    /// The leftmost vertex: above it the left chain runs leftwards, below it rightwards.
    @exclusivity(unchecked) var turn = 0
    @exclusivity(unchecked) var current = Disc(centerX256: 0, centerY256: 0, radius256: 0)
    @exclusivity(unchecked) var ready = false
    /// The edge holding the last row's top (rows usually come top to bottom).
    @exclusivity(unchecked) var cursor = 0
    /// The chain at the bottom of the last row: the next row's top, when that row comes next.
    @exclusivity(unchecked) var nextTop = ChainPoint(edge: 0, y: 0, x: 0, area: 0)
    @exclusivity(unchecked) var nextRow = Int.min

    /// Coverage units: a full pixel is 256 (row height, 1/256 px) × 512 (twice the column width, so
    /// twice a trapezoid's area stays an integer).
    static let full: Int32 = 131_072

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
        inverseSlope = .allocate(capacity: n); inverseSlope.initialize(repeating: 0, count: n)
        prefix = .allocate(capacity: n); prefix.initialize(repeating: 0, count: n)
    }

    deinit {
        coverage.deallocate(); delta.deallocate()
        chainX.deallocate(); chainY.deallocate(); slope.deallocate(); inverseSlope.deallocate(); prefix.deallocate()
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

    /// Builds the polygon of `d` unless it has the radius of the one already built.
    func prepare(_ d: Disc) {
        if ready && d == current { return }
        let sameShape = ready && d.radius256 == current.radius256
        current = d
        ready = true
        cursor = 0
        nextRow = Int.min
        if sameShape { return }
        let rho = DiscPolygons.circumradius(d.radius256)
        let poly = DiscPolygons.polygon(forRadius256: d.radius256)
        let half = poly.count / 2
        let chainX = self.chainX, chainY = self.chainY, slope = self.slope, inverse = self.inverseSlope, prefix = self.prefix
        // Vertex j of the left chain is at angle j·360°/N from the top, counter-clockwise.
        var leftmost = 0
        for j in 0...half {
            let (s, c) = poly.unit(j)
            chainX[j] = -((Int64(rho) &* s &+ (1 << 29)) >> 30)
            chainY[j] = -((Int64(rho) &* c &+ (1 << 29)) >> 30)
            if chainX[j] < chainX[leftmost] { leftmost = j }
        }
        edges = half
        turn = leftmost
        prefix[0] = 0
        for j in 0..<half {
            let dx = chainX[j &+ 1] &- chainX[j], dy = chainY[j &+ 1] &- chainY[j]
            // The lower half mirrors the upper: an edge whose mirror image above it has the same
            // rise and the opposite run has the opposite quotients (they truncate toward zero), so
            // only the upper half divides — a library call per quotient on 32-bit ARM.
            let m = half &- 1 &- j
            if m < j && chainY[m &+ 1] &- chainY[m] == dy && chainX[m &+ 1] &- chainX[m] == 0 &- dx {
                slope[j] = 0 &- slope[m]
                inverse[j] = 0 &- inverse[m]
            } else {
                slope[j] = dy > 0 ? Self.quotientQ16(dx, dy) : 0
                inverse[j] = dx != 0 ? Self.quotientQ16(dy, dx) : 0
            }
            prefix[j &+ 1] = prefix[j] &+ dy &* (chainX[j] &+ chainX[j &+ 1])
        }
    }

    /// (a << 16) / b, truncated. 32-bit ARM has no 64-bit divide instruction (a libgcc call of a
    /// few hundred instructions, for every edge of a disc whose radius changed): there the
    /// quotient of operands that fit 32 bits — a disc under 128 px — is taken in 32 bits, which
    /// is the same number.
    @inline(__always)
    static func quotientQ16(_ a: Int64, _ b: Int64) -> Int64 {
        let n = a << 16
        #if arch(arm)
        if n == Int64(Int32(truncatingIfNeeded: n)) && b == Int64(Int32(truncatingIfNeeded: b)) && n != Int64(Int32.min) {
            return Int64(Int32(truncatingIfNeeded: n) / Int32(truncatingIfNeeded: b))
        }
        #endif
        return n / b
    }

    /// The chain at height `y` on edge `e` (chainY[e] ≤ y ≤ chainY[e + 1]): its x and twice its
    /// area integral from the top vertex.
    @inline(__always)
    func point(_ e: Int, _ y: Int64) -> ChainPoint {
        let ye = chainY[e], xe = chainX[e]
        let x = y == ye ? xe : y == chainY[e + 1] ? chainX[e + 1] : xe + (((y - ye) * slope[e]) >> 16)
        return ChainPoint(edge: e, y: y, x: x, area: prefix[e] + (y - ye) * (xe + x))
    }

    /// Coverage of pixel row `y` between `clipX0` and `clipX1` (the caller has reserved that width).
    public func coverRow(_ d: Disc, y: Int, clipX0: Int, clipX1: Int) -> DiscRow {
        let width = clipX1 - clipX0
        if width <= 0 || d.radius256 <= 0 { return .empty }
        precondition(width <= capacity, "disc row \(width) px wider than the reserved \(capacity)")
        prepare(d)
        let top = Int64(y << 8) - Int64(d.centerY256), bottom = top + 256  // the row, relative to the centre
        let first = chainY[0], last = chainY[edges]
        if bottom <= first || top >= last { return .empty }
        let ya = max(top, first), yb = min(bottom, last)
        let a: ChainPoint
        if y == nextRow && nextTop.y == ya {
            a = nextTop
        } else {
            if cursor >= edges || chainY[cursor] > ya { cursor = 0 }
            while cursor < edges - 1 && chainY[cursor + 1] <= ya { cursor += 1 }
            a = point(cursor, ya)
        }
        var eb = a.edge
        while eb < edges - 1 && chainY[eb + 1] < yb { eb += 1 }
        let b = point(eb, yb)
        nextTop = b; nextRow = y + 1; cursor = eb
        // Positions relative to the clip's left edge from here on.
        let cx = Int64(d.centerX256) - Int64(clipX0 << 8)
        let yTurn = chainY[turn]
        let fullHeight = first <= top && last >= bottom
        if fullHeight && !(ya < yTurn && yTurn < yb) {
            // The usual row: each chain monotone and inside the clip, the chains apart. Coverage
            // is written column by column, no difference array.
            let upper = yb <= yTurn
            let l = Self.columnRange(cx + a.x, cx + b.x, rightward: !upper)
            let r = Self.columnRange(cx - a.x, cx - b.x, rightward: upper)
            if l.lo >= 0 && r.hi < width && l.hi + 1 < r.lo {
                columns(LeftChain.self, a, b, upper: upper, cx: cx, into: coverage)
                columns(RightChain.self, a, b, upper: upper, cx: cx, into: coverage)
                return DiscRow(edgeStart: clipX0 + l.lo, interiorStart: clipX0 + l.hi + 1,
                               interiorEnd: clipX0 + r.lo, edgeEnd: clipX0 + r.hi + 1)
            }
        }
        var left = Window(), right = Window()
        if ya < yTurn && yTurn < yb {
            // The row holds the leftmost vertex: two monotone pieces.
            let t = ChainPoint(edge: turn, y: yTurn, x: chainX[turn], area: prefix[turn])
            let u = ChainPoint(edge: turn - 1, y: yTurn, x: chainX[turn], area: prefix[turn])
            piece(LeftChain.self, a, u, upper: true, cx: cx, width: width, &left)
            piece(LeftChain.self, t, b, upper: false, cx: cx, width: width, &left)
            piece(RightChain.self, a, u, upper: true, cx: cx, width: width, &right)
            piece(RightChain.self, t, b, upper: false, cx: cx, width: width, &right)
        } else {
            let upper = yb <= yTurn
            piece(LeftChain.self, a, b, upper: upper, cx: cx, width: width, &left)
            piece(RightChain.self, a, b, upper: upper, cx: cx, width: width, &right)
        }
        if left.isEmpty && right.isEmpty { return .empty }
        if fullHeight && !left.isEmpty && !right.isEmpty && left.max + 1 < right.min {
            accumulate(from: left.min, through: left.max, start: 0)
            delta[left.max + 1] = 0
            accumulate(from: right.min, through: right.max, start: Self.full)
            delta[right.max + 1] = 0
            return DiscRow(edgeStart: clipX0 + left.min, interiorStart: clipX0 + left.max + 1,
                           interiorEnd: clipX0 + right.min, edgeEnd: clipX0 + min(right.max + 1, width))
        }
        let lo = min(left.min, right.min), hi = max(left.max, right.max)
        accumulate(from: lo, through: hi, start: 0)
        delta[hi + 1] = 0
        let end = clipX0 + min(hi + 1, width)
        return DiscRow(edgeStart: clipX0 + lo, interiorStart: end, interiorEnd: end, edgeEnd: end)
    }

    /// Running sum of the difference array into 8-bit coverage, clearing it for the next row.
    @inline(__always)
    func accumulate(from a: Int, through b: Int, start: Int32) {
        var sum = start
        let delta = self.delta, coverage = self.coverage
        var x = a
        while x <= b {
            sum &+= delta[x]
            delta[x] = 0
            let c = min(max(sum, 0), Self.full)  // pieces meet on shared points, but stay safe
            coverage[x] = UInt8(truncatingIfNeeded: (c &* 255 &+ (Self.full >> 1)) >> 17)
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
        let table = DiscRowTable(self)
        table.rasterize(d, rows: box.y, box.maxY, clipX0: box.x, clipX1: box.maxX)
        table.draw(paint, rows: box.y, box.maxY, x0: box.x, x1: box.maxX, into: buffer, over: nil)
        return box
    }
}
