/// The travelled part of a polyline: everything up to a distance along it, drawn in its own
/// colour, the boundary a cut across the line one pixel soft.
extension Polyline {
    /// Sets the boundary at `distance256` along the line (clamped to the line).
    public func setTravelled(_ distance256: Int64) {
        let d = min(max(distance256, 0), length256)
        travelled256 = d
        if d == 0 { splitIndex = -1; return }
        if d == length256 { splitIndex = segments.count; return }
        splitIndex = segmentIndex(at: d)
    }

    /// Sets the boundary at point `index` plus `fraction256`/256 of the way to the next one, in
    /// the points as set (repeated points dropped, so the index counts segments).
    public func setTravelled(segment index: Int, fraction256: Int) {
        if segments.isEmpty { return setTravelled(0) }
        if index >= segments.count { return setTravelled(length256) }
        let s = segments[max(index, 0)]
        let f = Int64(min(max(fraction256, 0), 256))
        setTravelled(s.start + s.length * f / 256)
    }

    /// The segment holding distance `d` (0 < d < length): the last whose start is before it.
    func segmentIndex(at d: Int64) -> Int {
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].start < d { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The point at `distance256` along the line (clamped to it); nil without a line.
    public func point(at distance256: Int64) -> Point256? {
        guard !segments.isEmpty else { return nil }
        let d = min(max(distance256, 0), length256)
        let s = segments[d == 0 ? 0 : segmentIndex(at: d)]
        let (x, y) = Self.point(on: s, at: d - s.start)
        return Point256(x256: Int32(truncatingIfNeeded: x), y256: Int32(truncatingIfNeeded: y))
    }

    /// The point `along` into segment `s` (0…length), from the exact end points (not the unit
    /// vector), so that it lies on the segment however long.
    static func point(on s: StrokeSegment, at along: Int64) -> (Int64, Int64) {
        if s.length == 0 { return (s.ax, s.ay) }
        let t = min(max(along, 0), s.length)
        return (s.ax + roundedQuotient((s.bx - s.ax) * t, s.length), s.ay + roundedQuotient((s.by - s.ay) * t, s.length))
    }

    /// The map pixels the part of the line between two distances may colour, grown by
    /// `margin256`: what changes when the boundary moves from one to the other.
    public func bounds(between d0: Int64, and d1: Int64, margin256: Int64) -> Rect {
        guard !segments.isEmpty else { return .empty }
        let lo = min(max(min(d0, d1), 0), length256), hi = min(max(max(d0, d1), 0), length256)
        let first = lo == 0 ? 0 : segmentIndex(at: lo)
        let last = hi == 0 ? 0 : segmentIndex(at: hi)
        var (minX, minY) = Self.point(on: segments[first], at: lo - segments[first].start)
        var (maxX, maxY) = (minX, minY)
        let (ex, ey) = Self.point(on: segments[last], at: hi - segments[last].start)
        minX = min(minX, ex); maxX = max(maxX, ex); minY = min(minY, ey); maxY = max(maxY, ey)
        var i = first + 1
        while i <= last {
            let s = segments[i]
            minX = min(minX, s.ax); maxX = max(maxX, s.ax); minY = min(minY, s.ay); maxY = max(maxY, s.ay)
            i += 1
        }
        return Self.pixelRect(minX: minX, minY: minY, maxX: maxX, maxY: maxY, margin256: margin256)
    }

    /// How travelled a pixel `along` into segment `index` is, 0 (ahead) … 255 (travelled): the
    /// boundary segment ramps over the pixel around the boundary.
    @inline(__always)
    func travelledness(segment index: Int, along: Int64, boundary: Int64) -> UInt8 {
        if index < splitIndex { return 255 }
        if index > splitIndex { return 0 }
        let c = min(max(128 - (along - boundary), 0), 256)
        return UInt8(truncatingIfNeeded: (c * 255 + 128) >> 8)
    }
}
