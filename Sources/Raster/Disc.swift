/// A filled disc at a sub-pixel centre. Stored in 1/256 px (the `256` in the names says so).
public struct Disc: Equatable, Sendable {
    public var centerX256: Int
    public var centerY256: Int
    public var radius256: Int

    public init(centerX256: Int, centerY256: Int, radius256: Int) {
        self.centerX256 = min(max(centerX256, -Fixed.limit), Fixed.limit)
        self.centerY256 = min(max(centerY256, -Fixed.limit), Fixed.limit)
        self.radius256 = min(max(radius256, 0), Fixed.limit)
    }

    /// Centre and radius in pixels, snapped to 1/256 px.
    public init(centerX: Double, centerY: Double, radius: Double) {
        self.init(centerX256: Fixed.snap(centerX), centerY256: Fixed.snap(centerY), radius256: Fixed.snap(radius))
    }
}

/// One row of a disc's coverage: pixels [edgeStart, interiorStart) and [interiorEnd, edgeEnd) have
/// partial coverage (in the rasterizer's `coverage` buffer, indexed from the row's clip start);
/// [interiorStart, interiorEnd) are fully covered.
public struct DiscRow: Equatable, Sendable {
    public var edgeStart: Int
    public var interiorStart: Int
    public var interiorEnd: Int
    public var edgeEnd: Int

    public static let empty = DiscRow(edgeStart: 0, interiorStart: 0, interiorEnd: 0, edgeEnd: 0)
    public var isEmpty: Bool { edgeEnd <= edgeStart }
}

/// Anti-aliased discs, span by span. Each pixel row is cut into `subScanlines` horizontal lines
/// (16 by default); on each, the disc's chord is found with one integer square root and its exact
/// horizontal overlap with every pixel is accumulated. Coverage is therefore exact horizontally and
/// sampled at 1/16 px vertically, the chord ends are kept to 1/256 px, and a centre moving by a
/// fraction of a pixel moves the picture smoothly. Fully covered interior spans are reported as
/// spans (blended with one constant alpha); only edge pixels get per-pixel coverage.
///
/// Chord ends go into a difference array (four adds per sub-scanline); a running sum over the edge
/// windows turns them into coverage. Owns its scratch rows; they grow to the widest clip seen and
/// are then reused, so steady-state drawing never allocates.
public final class DiscRasterizer {
    /// log2 of the sub-scanlines per pixel row (2…4).
    public let subScanlineShift: Int
    public var subScanlines: Int { 1 << subScanlineShift }
    /// Edge coverage of the last row (0…255), index 0 = the clip's first pixel.
    public private(set) var coverage: UnsafeMutablePointer<UInt8>
    private var delta: UnsafeMutablePointer<Int32>
    private var capacity: Int

    public init(subScanlineShift: Int = 4, initialWidth: Int = 256) {
        precondition((2...4).contains(subScanlineShift), "2 to 16 sub-scanlines per row")
        self.subScanlineShift = subScanlineShift
        capacity = max(initialWidth, 16)
        coverage = .allocate(capacity: capacity + 2)
        coverage.initialize(repeating: 0, count: capacity + 2)
        delta = .allocate(capacity: capacity + 2)
        delta.initialize(repeating: 0, count: capacity + 2)
    }

    deinit {
        coverage.deallocate()
        delta.deallocate()
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

    // Sub-scanline k of row y sits at y + (k + ½)/S px, i.e. y·256 + k·step + half in 1/256 px.
    private var step: Int { 256 >> subScanlineShift }
    private var half: Int { 128 >> subScanlineShift }

    /// The pixels this disc can touch: rows with at least one sub-scanline inside it, columns
    /// reached by its widest sampled chord.
    public func bounds(_ d: Disc) -> Rect {
        let stepShift = 8 - subScanlineShift
        // Global sub-scanline index t lies at t·step + half.
        let tMin = Fixed.floorShift(d.centerY256 - d.radius256 - half, stepShift) + 1
        let tMax = Fixed.ceilShift(d.centerY256 + d.radius256 - half, stepShift) - 1
        if tMax < tMin { return .empty }
        let tNear = min(max(Fixed.floorShift(d.centerY256 - half + step / 2, stepShift), tMin), tMax)
        let dy = (tNear << stepShift) + half - d.centerY256
        let w = Fixed.roundSqrt(d.radius256 * d.radius256 - dy * dy)
        if w <= 0 { return .empty }
        let x0 = Fixed.floorShift(d.centerX256 - w, 8), x1 = Fixed.ceilShift(d.centerX256 + w, 8)
        let y0 = tMin >> subScanlineShift, y1 = (tMax >> subScanlineShift) + 1
        if x1 <= x0 { return .empty }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Coverage of pixel row `y` between `clipX0` and `clipX1` (the caller has reserved that width).
    public func coverRow(_ d: Disc, y: Int, clipX0: Int, clipX1: Int) -> DiscRow {
        let width = clipX1 - clipX0
        if width <= 0 { return .empty }
        precondition(width <= capacity, "disc row \(width) px wider than the reserved \(capacity)")
        let lo = clipX0 << 8, hi = clipX1 << 8
        let r2 = d.radius256 &* d.radius256
        var dy = (y << 8) &+ half &- d.centerY256
        let step = self.step
        var minXl = Int.max, maxXl = Int.min, minXr = Int.max, maxXr = Int.min
        var lines = 0
        let delta = self.delta
        for _ in 0..<subScanlines {
            let n = r2 &- dy &* dy
            dy &+= step
            if n <= 0 { continue }
            let w = Fixed.roundSqrt(n)
            let l = max(d.centerX256 &- w, lo), r = min(d.centerX256 &+ w, hi)
            if r <= l { continue }
            lines &+= 1
            let xl = (l >> 8) &- clipX0, fl = Int32(truncatingIfNeeded: l & 255)
            let xr = (r >> 8) &- clipX0, fr = Int32(truncatingIfNeeded: r & 255)
            delta[xl] &+= 256 &- fl
            delta[xl &+ 1] &+= fl
            delta[xr] &-= 256 &- fr
            delta[xr &+ 1] &-= fr
            minXl = min(minXl, xl); maxXl = max(maxXl, xl)
            minXr = min(minXr, xr); maxXr = max(maxXr, xr)
        }
        if lines == 0 { return .empty }
        let full = Int32(subScanlines << 8)
        if lines == subScanlines && maxXl &+ 1 < minXr {
            accumulate(from: minXl, through: maxXl, start: 0)
            delta[maxXl &+ 1] = 0
            accumulate(from: minXr, through: maxXr, start: full)
            delta[maxXr &+ 1] = 0
            return DiscRow(edgeStart: clipX0 &+ minXl, interiorStart: clipX0 &+ maxXl &+ 1,
                           interiorEnd: clipX0 &+ minXr, edgeEnd: clipX0 &+ min(maxXr &+ 1, width))
        }
        accumulate(from: minXl, through: maxXr, start: 0)
        delta[maxXr &+ 1] = 0
        let end = clipX0 &+ min(maxXr &+ 1, width)
        return DiscRow(edgeStart: clipX0 &+ minXl, interiorStart: end, interiorEnd: end, edgeEnd: end)
    }

    /// Running sum of the difference array into 8-bit coverage, clearing it for the next row.
    @inline(__always)
    private func accumulate(from a: Int, through b: Int, start: Int32) {
        let shift = Int32(8 + subScanlineShift)
        let round = Int32(1) << (shift - 1)
        var acc = start
        let delta = self.delta, coverage = self.coverage
        var x = a
        while x <= b {
            acc &+= delta[x]
            delta[x] = 0
            coverage[x] = UInt8(truncatingIfNeeded: (acc &* 255 &+ round) >> shift)
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
