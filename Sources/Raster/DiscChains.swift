/// The two chains of a disc's polygon within one pixel row: the pieces that feed the difference
/// array (any row) and the direct column coverage of an ordinary row (see `DiscRasterizer`).
extension DiscRasterizer {
    /// The columns (from the clip's left edge) a monotone piece from absolute x `xa` to `xb` passes:
    /// the ones `columns` and `piece` visit.
    @inline(__always)
    static func columnRange(_ xa: Int64, _ xb: Int64, rightward: Bool) -> (lo: Int, hi: Int) {
        // Columns of a clip, so well within Int on every CPU.
        if rightward {
            let lo = Int(truncatingIfNeeded: xa >> 8)
            return (lo, Swift.max(lo, Int(truncatingIfNeeded: (xb &- 1) >> 8)))
        }
        let hi = Int(truncatingIfNeeded: xa == xb ? xa >> 8 : (xa &- 1) >> 8)
        return (Swift.min(hi, Int(truncatingIfNeeded: xb >> 8)), hi)
    }

    /// A whole row of one chain, monotone and inside the clip: the coverage of every column p it
    /// passes (`columnRange`), straight into out[p] (the left chain covers what lies right of it,
    /// the right chain what lies left). The same sums as `piece` and `accumulate` make, so both
    /// paths give the same bytes. Its walk along the chain repeats `piece`'s on purpose: this is
    /// the innermost loop of every frame, and one walk generic over what it emits (a coverage
    /// store here, a difference-array update there) cost measurably more instructions per frame.
    ///
    /// The row is the piece's height (a whole pixel row but for a disc's first and last rows), and
    /// the twice-areas of the first and the last column written come back unclamped: the top and
    /// bottom rows, where both chains meet in one column, sum them there.
    @inline(__always) @discardableResult
    func columns<Side: ChainSide>(_: Side.Type, _ a: ChainPoint, _ b: ChainPoint, upper: Bool,
                                  cx: Int64, into coverage: UnsafeMutablePointer<UInt8>) -> (first: Int64, last: Int64) {
        let chainX = self.chainX, chainY = self.chainY, inverse = self.inverseSlope, prefix = self.prefix
        let mirror = Side.mirror
        let cx2 = cx &<< 1
        @inline(__always) func X(_ x: Int64) -> Int64 { mirror ? cx &- x : cx &+ x }
        @inline(__always) func integral(_ y: Int64, _ s: Int64) -> Int64 { mirror ? cx2 &* y &- s : cx2 &* y &+ s }
        let rowArea = (b.y &- a.y) &<< 9
        /// `right`: twice the area right of the chain in column p over the piece's height; returns
        /// the twice-area of the disc there (right of the left chain, left of the right one).
        @inline(__always) func store(_ p: Int64, _ right: Int64) -> Int64 {
            let v = mirror ? rowArea &- right : right
            let c = min(max(v, 0), Int64(Self.full))
            coverage[Int(truncatingIfNeeded: p)] = UInt8(truncatingIfNeeded: (c &* 255 &+ Int64(Self.full >> 1)) >> 17)
            return v
        }
        var firstValue: Int64? = nil
        let xa = X(a.x), xb = X(b.x)
        let yTop = a.y, yEnd = b.y, eEnd = b.edge
        var u = a.y, iu = integral(a.y, a.area)
        var e = a.edge
        if upper == mirror {
            // Rightwards: a column is wholly right of the chain until the chain enters it.
            var p = xa >> 8
            var line = (p &+ 1) &<< 8
            while xb > line {
                let xc = mirror ? cx &- line : line &- cx
                if upper {
                    while e < eEnd && chainX[e &+ 1] >= xc { e &+= 1 }
                } else {
                    while e < eEnd && chainX[e &+ 1] <= xc { e &+= 1 }
                }
                let ye = chainY[e], xe = chainX[e]
                let yc = min(max(ye &+ (((xc &- xe) &* inverse[e]) >> 16), u), yEnd)
                let ic = integral(yc, prefix[e] &+ (yc &- ye) &* (xe &+ xc))
                let v = store(p, ((p &+ 1) &<< 9) &* (yc &- u) &- (ic &- iu) &+ ((u &- yTop) &<< 9))
                if firstValue == nil { firstValue = v }
                u = yc; iu = ic
                p &+= 1; line &+= 256
            }
            let v = store(p, ((p &+ 1) &<< 9) &* (yEnd &- u) &- (integral(yEnd, b.area) &- iu) &+ ((u &- yTop) &<< 9))
            return (firstValue ?? v, v)
        } else {
            // Leftwards: a column is wholly right of the chain once the chain has left it.
            var p = xa == xb ? xa >> 8 : (xa &- 1) >> 8
            var line = p &<< 8
            while xb < line {
                let xc = mirror ? cx &- line : line &- cx
                if upper {
                    while e < eEnd && chainX[e &+ 1] >= xc { e &+= 1 }
                } else {
                    while e < eEnd && chainX[e &+ 1] <= xc { e &+= 1 }
                }
                let ye = chainY[e], xe = chainX[e]
                let yc = min(max(ye &+ (((xc &- xe) &* inverse[e]) >> 16), u), yEnd)
                let ic = integral(yc, prefix[e] &+ (yc &- ye) &* (xe &+ xc))
                let v = store(p, ((p &+ 1) &<< 9) &* (yc &- u) &- (ic &- iu) &+ ((yEnd &- yc) &<< 9))
                if firstValue == nil { firstValue = v }
                u = yc; iu = ic
                p &-= 1; line &-= 256
            }
            let v = store(p, ((p &+ 1) &<< 9) &* (yEnd &- u) &- (integral(yEnd, b.area) &- iu))
            return (firstValue ?? v, v)
        }
    }

    /// One monotone piece of a chain within the row, from point `a` down to point `b` (`upper`: above
    /// the leftmost vertex, where the left chain runs leftwards), for the left chain or its mirror
    /// image about the centre: twice the area to its right in each pixel column it passes goes into
    /// the difference array, +1 for the left chain, −1 for the right. Columns left of the clip fold
    /// into index 0; columns right of it land on index `width` (outside, but it keeps the window
    /// reaching the clip's end).
    @inline(__always)
    func piece<Side: ChainSide>(_: Side.Type, _ a: ChainPoint, _ b: ChainPoint, upper: Bool, cx: Int64,
                                        width: Int, _ w: inout Window) {
        if b.y <= a.y { return }
        let chainX = self.chainX, chainY = self.chainY, inverse = self.inverseSlope, prefix = self.prefix
        let delta = self.delta
        let mirror = Side.mirror
        let cx2 = cx &<< 1
        let width64 = Int64(width)
        // Absolute position (from the clip's left edge) and twice the area integral of it.
        @inline(__always) func X(_ x: Int64) -> Int64 { mirror ? cx &- x : cx &+ x }
        @inline(__always) func integral(_ y: Int64, _ s: Int64) -> Int64 { mirror ? cx2 &* y &- s : cx2 &* y &+ s }
        @inline(__always) func add(_ i: Int64, _ v: Int64) {
            let i = Int(truncatingIfNeeded: i)
            delta[i] = mirror ? delta[i] &- Int32(truncatingIfNeeded: v) : delta[i] &+ Int32(truncatingIfNeeded: v)
        }
        /// Height `h` of the chain in column `p`, twice its area integral there being `area`.
        @inline(__always) func emit(_ p: Int64, _ h: Int64, _ area: Int64) {
            if UInt64(bitPattern: p) < UInt64(bitPattern: width64) {
                let right = ((p &+ 1) &<< 9) &* h &- area  // twice the area right of the chain in column p
                add(p, right)
                add(p &+ 1, (h &<< 9) &- right)
            } else {
                add(p < 0 ? 0 : width64, h &<< 9)
            }
        }
        @inline(__always) func clamped(_ p: Int64) -> Int { Int(truncatingIfNeeded: p < 0 ? 0 : p > width64 ? width64 : p) }
        let xa = X(a.x), xb = X(b.x)
        let yEnd = b.y, eEnd = b.edge
        var u = a.y, iu = integral(a.y, a.area)
        var e = a.edge
        // The left chain runs leftwards above the turn; its mirror the other way.
        if upper == mirror {
            var p = xa >> 8
            w.include(clamped(p))
            var line = (p &+ 1) &<< 8
            while xb > line {
                let xc = mirror ? cx &- line : line &- cx
                if upper {
                    while e < eEnd && chainX[e &+ 1] >= xc { e &+= 1 }
                } else {
                    while e < eEnd && chainX[e &+ 1] <= xc { e &+= 1 }
                }
                let ye = chainY[e], xe = chainX[e]
                let yc = min(max(ye &+ (((xc &- xe) &* inverse[e]) >> 16), u), yEnd)
                let ic = integral(yc, prefix[e] &+ (yc &- ye) &* (xe &+ xc))
                emit(p, yc &- u, ic &- iu)
                u = yc; iu = ic
                p &+= 1; line &+= 256
            }
            emit(p, yEnd &- u, integral(yEnd, b.area) &- iu)
            w.include(clamped(p))
        } else {
            var p = xa == xb ? xa >> 8 : (xa &- 1) >> 8
            w.include(clamped(p))
            var line = p &<< 8
            while xb < line {
                let xc = mirror ? cx &- line : line &- cx
                if upper {
                    while e < eEnd && chainX[e &+ 1] >= xc { e &+= 1 }
                } else {
                    while e < eEnd && chainX[e &+ 1] <= xc { e &+= 1 }
                }
                let ye = chainY[e], xe = chainX[e]
                let yc = min(max(ye &+ (((xc &- xe) &* inverse[e]) >> 16), u), yEnd)
                let ic = integral(yc, prefix[e] &+ (yc &- ye) &* (xe &+ xc))
                emit(p, yc &- u, ic &- iu)
                u = yc; iu = ic
                p &-= 1; line &-= 256
            }
            emit(p, yEnd &- u, integral(yEnd, b.area) &- iu)
            w.include(clamped(p))
        }
    }

}

/// Which chain a piece belongs to, as a type so that each is compiled on its own.
protocol ChainSide { static var mirror: Bool { get } }
enum LeftChain: ChainSide { static var mirror: Bool { false } }
enum RightChain: ChainSide { static var mirror: Bool { true } }

/// Where a chain is at some height: on edge `edge`, at x (relative to the disc's centre), with
/// twice its area integral from the top vertex.
struct ChainPoint {
    var edge: Int
    var y: Int64
    var x: Int64
    var area: Int64
}

/// The pixel columns (relative to the clip) a row's chain wrote into the difference array.
struct Window {
    var min = Int.max
    var max = Int.min
    var isEmpty: Bool { max < min }
    @inline(__always) mutating func include(_ p: Int) {
        if p < min { min = p }
        if p > max { max = p }
    }
}
