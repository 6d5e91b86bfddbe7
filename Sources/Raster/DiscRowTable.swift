/// One row of a disc in a row table: the spans of `DiscRow` (absolute x) and where the coverage of
/// its two edges, [edgeStart, interiorStart) and [interiorEnd, edgeEnd), starts in the table's
/// bytes. Around them the table keeps the coverage the row has there — 4 zeros before the left
/// edge, 8 × 255 between the edges, 4 zeros after the right edge — so that any 4 pixels
/// overlapping an edge can be read as one vector of coverage.
public struct DiscSpan: Equatable, Sendable {
    public var edgeStart: Int
    public var interiorStart: Int
    public var interiorEnd: Int
    public var edgeEnd: Int
    public var left: Int
    public var right: Int

    public static let empty = DiscSpan(edgeStart: 0, interiorStart: 0, interiorEnd: 0, edgeEnd: 0, left: 4, right: 4)
    public var isEmpty: Bool { edgeEnd <= edgeStart }
}

/// A whole disc at once, row after row, into a table the frame's drawing then reads: the walk's
/// state stays in registers from one row to the next, which is most of what a row costs. Made
/// afresh every frame (nothing is kept from one frame to the next but the polygon's shape).
/// `reserve` sizes it for the largest clip once, so frames never allocate.
public final class DiscRowTable {
    @exclusivity(unchecked) public internal(set) var spans: UnsafeMutablePointer<DiscSpan>
    @exclusivity(unchecked) public internal(set) var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) public internal(set) var firstRow = 0
    @exclusivity(unchecked) public internal(set) var rowCount = 0
    @exclusivity(unchecked) private var spanCapacity = 0
    @exclusivity(unchecked) private var byteCapacity = 0
    /// What the table holds: the disc and the clip it was last rasterized for (a still dot's
    /// ring and inner dot come back unchanged frame after frame while only the halo grows).
    @exclusivity(unchecked) var held: (disc: Disc, y0: Int, y1: Int, x0: Int, x1: Int)?
    let raster: DiscRasterizer

    public init(_ raster: DiscRasterizer = DiscRasterizer()) {
        self.raster = raster
        spans = .allocate(capacity: 1)
        bytes = .allocate(capacity: 1)
    }

    deinit { spans.deallocate(); bytes.deallocate() }

    /// Room for `rows` rows of clips up to `width` px: each row's edges are the columns its two
    /// chains cross, which over a disc add up to a few per row plus a few per column.
    public func reserve(rows: Int, width: Int) {
        raster.reserve(width: width)
        if rows > spanCapacity {
            held = nil
            spans.deallocate()
            spanCapacity = rows
            spans = .allocate(capacity: rows)
        }
        growBytes(to: 22 * rows + 4 * width + 64)
    }

    func growBytes(to n: Int) {
        if n <= byteCapacity { return }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
        grown.update(from: bytes, count: byteCapacity)
        bytes.deallocate()
        bytes = grown
        byteCapacity = n
    }

    /// Writes the padding around a row's edge bytes: 4 zeros at `at`, then `leftCount` edge bytes
    /// (already there or to come), 8 × 255, `rightCount` edge bytes, 4 zeros. Returns the offsets of
    /// the two edges and the end.
    @inline(__always)
    func pad(_ at: Int, _ leftCount: Int, _ rightCount: Int) -> (left: Int, right: Int, end: Int) {
        let b = UnsafeMutableRawPointer(bytes)
        let left = at &+ 4, right = left &+ leftCount &+ 8
        b.storeBytes(of: 0 as UInt32, toByteOffset: at, as: UInt32.self)
        b.storeBytes(of: UInt64.max, toByteOffset: left &+ leftCount, as: UInt64.self)
        b.storeBytes(of: 0 as UInt32, toByteOffset: right &+ rightCount, as: UInt32.self)
        return (left, right, right &+ rightCount &+ 4)
    }

    /// A chain that crosses exactly one column line in an ordinary row (the usual case on the
    /// disc's sides): `columns` without its loop. Writes columns lo and lo + 1 to out[0] and out[1].
    @inline(__always)
    private func twoColumns<Side: ChainSide>(_: Side.Type, _ r: DiscRasterizer, upper: Bool, cx: Int64,
                                             _ a: ChainPoint, _ b: ChainPoint, lo column: Int, into out: UnsafeMutablePointer<UInt8>) {
        let mirror = Side.mirror
        let chainX = r.chainX, chainY = r.chainY
        let lo = Int64(column)
        let cx2 = cx &<< 1, top = a.y, bottom = b.y
        let iT = mirror ? cx2 &* top &- a.area : cx2 &* top &+ a.area
        let iB = mirror ? cx2 &* bottom &- b.area : cx2 &* bottom &+ b.area
        let line = (lo &+ 1) &<< 8
        let xc = mirror ? cx &- line : line &- cx
        var e = a.edge
        if upper {
            while e < b.edge && chainX[e &+ 1] >= xc { e &+= 1 }
        } else {
            while e < b.edge && chainX[e &+ 1] <= xc { e &+= 1 }
        }
        let ye = chainY[e], xe = chainX[e]
        let yc = min(max(ye &+ (((xc &- xe) &* r.inverseSlope[e]) >> 16), top), bottom)
        let sc = r.prefix[e] &+ (yc &- ye) &* (xe &+ xc)
        let ic = mirror ? cx2 &* yc &- sc : cx2 &* yc &+ sc
        var low: Int64, high: Int64
        if upper == mirror {
            // Rightwards: column lo holds the top part, lo + 1 the rest (and lies right of the
            // chain above the crossing).
            low = ((lo &+ 1) &<< 9) &* (yc &- top) &- (ic &- iT)
            high = ((lo &+ 2) &<< 9) &* (bottom &- yc) &- (iB &- ic) &+ ((yc &- top) &<< 9)
        } else {
            high = ((lo &+ 2) &<< 9) &* (yc &- top) &- (ic &- iT) &+ ((bottom &- yc) &<< 9)
            low = ((lo &+ 1) &<< 9) &* (bottom &- yc) &- (iB &- ic)
        }
        if mirror {
            low = Int64(DiscRasterizer.full) &- low
            high = Int64(DiscRasterizer.full) &- high
        }
        out[0] = Self.byte(low)
        out[1] = Self.byte(high)
    }

    /// The columns (from the clip's left edge) of the left and the right chain in the row holding
    /// the leftmost vertex (chain x at the row's top, at the vertex and at its bottom, relative to
    /// the centre), when each chain's two pieces — to the vertex and back — stay in the one column
    /// `piece` would give both; nil when a piece crosses a column line.
    @inline(__always)
    static func turnColumns(cx: Int64, top xT: Int64, turn xV: Int64, bottom xB: Int64) -> (left: Int, right: Int)? {
        // The left chain runs leftwards to the vertex, then rightwards.
        let la = cx &+ xT, lv = cx &+ xV, lb = cx &+ xB
        let p = la == lv ? la >> 8 : (la &- 1) >> 8
        if lv >> 8 != p || lv < p &<< 8 || lb > (p &+ 1) &<< 8 { return nil }
        // Its mirror image the other way round.
        let ra = cx &- xT, rv = cx &- xV, rb = cx &- xB
        let q = ra >> 8
        if (rv == rb ? rv >> 8 : (rv &- 1) >> 8) != q || rv > (q &+ 1) &<< 8 || rb < q &<< 8 { return nil }
        return (Int(truncatingIfNeeded: p), Int(truncatingIfNeeded: q))
    }

    /// Coverage byte of twice an area (0…full, clamped as `accumulate` does).
    @inline(__always)
    static func byte(_ twiceArea: Int64) -> UInt8 {
        let c = min(max(twiceArea, 0), Int64(DiscRasterizer.full))
        return UInt8(truncatingIfNeeded: (c &* 255 &+ Int64(DiscRasterizer.full >> 1)) >> 17)
    }

    /// Row `y`'s span (empty outside the rows rasterized last).
    @inline(__always)
    public func span(_ y: Int) -> DiscSpan {
        let i = y &- firstRow
        return UInt(bitPattern: i) < UInt(bitPattern: rowCount) ? spans[i] : .empty
    }

    /// Rows y0..<y1 of `d` within clipX0..<clipX1 (exactly what `DiscRasterizer.coverRow` gives for
    /// each row).
    public func rasterize(_ d: Disc, rows y0: Int, _ y1: Int, clipX0: Int, clipX1: Int) {
        if let h = held, h.disc == d, h.y0 == y0, h.y1 == y1, h.x0 == clipX0, h.x1 == clipX1 { return }
        held = (d, y0, y1, clipX0, clipX1)
        let rows = max(y1 - y0, 0), width = clipX1 - clipX0
        firstRow = y0
        rowCount = 0
        if rows == 0 || width <= 0 { return }
        reserve(rows: rows, width: width)
        rowCount = rows
        let r = raster
        if d.radius256 <= 0 {
            for i in 0..<rows { spans[i] = .empty }
            return
        }
        r.prepare(d)
        let chainX = r.chainX, chainY = r.chainY, slope = r.slope, prefix = r.prefix
        let edges = r.edges, yTurn = chainY[r.turn]
        let first = chainY[0], last = chainY[edges]
        let cx = Int64(d.centerX256) &- Int64(clipX0 &<< 8), cx2 = cx &<< 1
        var offset = 0
        var top = Int64(y0 << 8) &- Int64(d.centerY256)
        // The chain at the last row's bottom (edge, x, area integral), valid when `carried`.
        var carried = false
        var e = 0, xT: Int64 = 0, sT: Int64 = 0
        for i in 0..<rows {
            let bottom = top &+ 256
            defer { top = bottom }
            if bottom <= first || top >= last {
                spans[i] = .empty
                carried = false
                continue
            }
            if first <= top && last >= bottom {
                // A whole row: carried on from the last row's bottom.
                if !carried {
                    e = 0
                    while e < edges &- 1 && chainY[e &+ 1] <= top { e &+= 1 }
                    let t = r.point(e, top)
                    xT = t.x; sT = t.area
                }
                let eT = e
                while e < edges &- 1 && chainY[e &+ 1] < bottom { e &+= 1 }
                let ye = chainY[e], xe = chainX[e]
                let xB = bottom == chainY[e &+ 1] ? chainX[e &+ 1] : xe &+ (((bottom &- ye) &* slope[e]) >> 16)
                let sB = prefix[e] &+ (bottom &- ye) &* (xe &+ xB)
                if top < yTurn && yTurn < bottom {
                    // The row holding the leftmost vertex: each chain turns back inside it. When
                    // both of its pieces stay in one column (on both sides), that column's area
                    // is still one difference of integrals — the sum `coverRow` makes of the two.
                    let sTop = sT
                    let xTop = xT
                    carried = true
                    xT = xB; sT = sB
                    if let c = Self.turnColumns(cx: cx, top: xTop, turn: chainX[r.turn], bottom: xB),
                       c.left >= 0 && c.right < width && c.left &+ 1 < c.right {
                        growBytes(to: offset &+ width &+ 16)
                        let at = pad(offset, 1, 1)
                        let iT = cx2 &* top, iB = cx2 &* bottom
                        bytes[at.left] = Self.byte((Int64(c.left &+ 1) &<< 17) &- ((iB &+ sB) &- (iT &+ sTop)))
                        let area = (iB &- sB) &- (iT &- sTop)
                        bytes[at.right] = Self.byte(Int64(DiscRasterizer.full) &- ((Int64(c.right &+ 1) &<< 17) &- area))
                        spans[i] = DiscSpan(edgeStart: clipX0 &+ c.left, interiorStart: clipX0 &+ c.left &+ 1,
                                            interiorEnd: clipX0 &+ c.right, edgeEnd: clipX0 &+ c.right &+ 1,
                                            left: at.left, right: at.right)
                        offset = at.end
                        continue
                    }
                } else {
                    let upper = bottom <= yTurn
                    let lT = cx &+ xT, lB = cx &+ xB, rT = cx &- xT, rB = cx &- xB
                    let l = DiscRasterizer.columnRange(lT, lB, rightward: !upper)
                    let rr = DiscRasterizer.columnRange(rT, rB, rightward: upper)
                    let a = ChainPoint(edge: eT, y: top, x: xT, area: sT), b = ChainPoint(edge: e, y: bottom, x: xB, area: sB)
                    carried = true
                    xT = xB; sT = sB
                    if l.lo >= 0 && rr.hi < width && l.hi &+ 1 < rr.lo {
                        growBytes(to: offset &+ width &+ 16)
                        let leftCount = l.hi &- l.lo &+ 1, rightCount = rr.hi &- rr.lo &+ 1
                        let at = pad(offset, leftCount, rightCount)
                        let iT = cx2 &* top, iB = cx2 &* bottom
                        if l.lo == l.hi {
                            // The chain stays in one column: its area is one difference of integrals.
                            bytes[at.left] = Self.byte((Int64(l.lo &+ 1) &<< 17) &- ((iB &+ sB) &- (iT &+ a.area)))
                        } else if l.hi == l.lo &+ 1 {
                            twoColumns(LeftChain.self, r, upper: upper, cx: cx, a, b, lo: l.lo, into: bytes + at.left)
                        } else {
                            r.columns(LeftChain.self, a, b, upper: upper, cx: cx, into: bytes + at.left - l.lo)
                        }
                        if rr.lo == rr.hi {
                            let area = (iB &- sB) &- (iT &- a.area)
                            bytes[at.right] = Self.byte(Int64(DiscRasterizer.full) &- ((Int64(rr.lo &+ 1) &<< 17) &- area))
                        } else if rr.hi == rr.lo &+ 1 {
                            twoColumns(RightChain.self, r, upper: upper, cx: cx, a, b, lo: rr.lo, into: bytes + at.right)
                        } else {
                            r.columns(RightChain.self, a, b, upper: upper, cx: cx, into: bytes + at.right - rr.lo)
                        }
                        spans[i] = DiscSpan(edgeStart: clipX0 &+ l.lo, interiorStart: clipX0 &+ l.hi &+ 1,
                                            interiorEnd: clipX0 &+ rr.lo, edgeEnd: clipX0 &+ rr.hi &+ 1,
                                            left: at.left, right: at.right)
                        offset = at.end
                        continue
                    }
                }
            } else if (top < first && last >= bottom && bottom <= yTurn) || (first <= top && last < bottom && yTurn <= top) {
                // The disc's first or last row: both chains run from (or to) the one vertex there,
                // so each covers its side's columns and they meet in the vertex's column, whose
                // area is the sum of theirs less the row's (the general path's difference array
                // sums the same twice-areas).
                let isFirst = top < first
                let a: ChainPoint, b: ChainPoint
                if isFirst {
                    a = ChainPoint(edge: 0, y: first, x: chainX[0], area: prefix[0])
                    e = 0
                    while e < edges &- 1 && chainY[e &+ 1] < bottom { e &+= 1 }
                    let ye = chainY[e], xe = chainX[e]
                    let xB = bottom == chainY[e &+ 1] ? chainX[e &+ 1] : xe &+ (((bottom &- ye) &* slope[e]) >> 16)
                    b = ChainPoint(edge: e, y: bottom, x: xB, area: prefix[e] &+ (bottom &- ye) &* (xe &+ xB))
                } else {
                    if !carried {
                        e = 0
                        while e < edges &- 1 && chainY[e &+ 1] <= top { e &+= 1 }
                        let t = r.point(e, top)
                        xT = t.x; sT = t.area
                    }
                    a = ChainPoint(edge: e, y: top, x: xT, area: sT)
                    b = ChainPoint(edge: edges &- 1, y: last, x: chainX[edges], area: prefix[edges])
                }
                let l = DiscRasterizer.columnRange(cx &+ a.x, cx &+ b.x, rightward: !isFirst)
                let rr = DiscRasterizer.columnRange(cx &- a.x, cx &- b.x, rightward: isFirst)
                carried = isFirst
                xT = b.x; sT = b.area
                let shared = rr.lo == l.hi
                if l.lo >= 0 && rr.hi < width && (shared || rr.lo == l.hi &+ 1) {
                    growBytes(to: offset &+ width &+ 16)
                    let at = pad(offset, rr.hi &- l.lo &+ 1, 0)
                    let base = bytes + at.left - l.lo
                    let lv = r.columns(LeftChain.self, a, b, upper: isFirst, cx: cx, into: base)
                    let rv = r.columns(RightChain.self, a, b, upper: isFirst, cx: cx, into: base)
                    if shared {
                        let rowArea = (b.y &- a.y) &<< 9
                        base[l.hi] = Self.byte(isFirst ? lv.first &+ rv.first &- rowArea : lv.last &+ rv.last &- rowArea)
                    }
                    let end = clipX0 &+ rr.hi &+ 1
                    spans[i] = DiscSpan(edgeStart: clipX0 &+ l.lo, interiorStart: end, interiorEnd: end, edgeEnd: end,
                                        left: at.left, right: at.right)
                    offset = at.end
                    continue
                }
                carried = false
            } else {
                carried = false
            }
            // Anything else (the leftmost vertex's row where a chain crosses a column line,
            // clipped or touching chains, a disc within one row) takes the general path.
            r.nextRow = Int.min
            let row = r.coverRow(d, y: y0 + i, clipX0: clipX0, clipX1: clipX1)
            if row.isEmpty {
                spans[i] = .empty
                continue
            }
            let n1 = row.interiorStart - row.edgeStart, n2 = row.edgeEnd - row.interiorEnd
            growBytes(to: offset + n1 + n2 + 16)
            let at = pad(offset, n1, n2)
            (bytes + at.left).update(from: r.coverage + (row.edgeStart - clipX0), count: n1)
            (bytes + at.right).update(from: r.coverage + (row.interiorEnd - clipX0), count: n2)
            spans[i] = DiscSpan(edgeStart: row.edgeStart, interiorStart: row.interiorStart,
                                interiorEnd: row.interiorEnd, edgeEnd: row.edgeEnd, left: at.left, right: at.right)
            offset = at.end
        }
    }
}
