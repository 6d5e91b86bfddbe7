/// A point in 1/256 px, kept in 32 bits: a map-wide route fits (`Polyline.limit256`).
public struct Point256: Equatable, Hashable, Sendable {
    public var x256: Int32
    public var y256: Int32

    public init(x256: Int32, y256: Int32) {
        self.x256 = min(max(x256, -Polyline.limit256), Polyline.limit256)
        self.y256 = min(max(y256, -Polyline.limit256), Polyline.limit256)
    }

    /// Pixels snapped to 1/256 px (IEEE rounding, the same on every CPU); NaN snaps to 0.
    public init(x: Double, y: Double) {
        self.init(x256: Self.snap(x), y256: Self.snap(y))
    }

    static func snap(_ v: Double) -> Int32 {
        guard v.isFinite else { return 0 }
        let s = (v * 256).rounded()
        let limit = Double(Polyline.limit256)
        return s >= limit ? Polyline.limit256 : s <= -limit ? -Polyline.limit256 : Int32(s)
    }
}

/// One straight piece of a polyline, worked out when the line is set so that drawing only adds
/// and multiplies. Positions and lengths in 1/256 px, directions as unit vectors in Q30: with
/// coordinates within ±2^29 every product below stays under 2^62 in Int64, on 32-bit ARM alike.
struct StrokeSegment {
    var ax: Int64, ay: Int64
    var bx: Int64, by: Int64
    /// The unit direction a → b, Q30; (1, 0) for a lone point so its distance stays Euclidean.
    var ux: Int64, uy: Int64
    var length: Int64
    /// Distance along the whole line at a.
    var start: Int64
    var minX: Int64, minY: Int64, maxX: Int64, maxY: Int64
}

/// A thick polyline's geometry and the scratch its rasteriser needs, both sized when the line is
/// set (off the frame path), so that drawing allocates nothing. Coverage comes from the distance
/// of each pixel centre to the nearest segment, so joins and caps are round and a pixel's value
/// never depends on which clip rectangle it was drawn in.
public final class Polyline {
    /// Coordinates are clamped to ±2^29 / 256 px (±2,097,152 px: beyond any zoom's map).
    public static let limit256: Int32 = (1 << 29) - 1

    var segments: ContiguousArray<StrokeSegment> = []
    /// Segments meeting the current clip (indices), filled per drawn chunk.
    var selected: ContiguousArray<Int32> = []
    /// Per pixel of one row chunk: the smallest squared distance so far (1/65536 px²) and how
    /// travelled that nearest piece is (0 ahead … 255 travelled). Kept all `.max` between rows.
    let distances: UnsafeMutablePointer<UInt32>
    let travelledness: UnsafeMutablePointer<UInt8>
    /// Pixels per row chunk: wider clips are drawn in several chunks, equal to one.
    public let rowCapacity: Int

    /// Length of the whole line, 1/256 px.
    public private(set) var length256: Int64 = 0
    /// The travelled part: everything up to this distance along the line.
    public internal(set) var travelled256: Int64 = 0
    /// The segment the travelled boundary lies in, -1 when nothing is travelled, `segments.count`
    /// when all is.
    var splitIndex = -1

    public init(rowCapacity: Int = 2048) {
        precondition(rowCapacity > 0, "a polyline needs a row of scratch")
        self.rowCapacity = rowCapacity
        distances = .allocate(capacity: rowCapacity)
        distances.initialize(repeating: .max, count: rowCapacity)
        travelledness = .allocate(capacity: rowCapacity)
        travelledness.initialize(repeating: 0, count: rowCapacity)
    }

    deinit {
        distances.deallocate()
        travelledness.deallocate()
    }

    public var isEmpty: Bool { segments.isEmpty }
    public var segmentCount: Int { segments.count }

    /// Replaces the line. Repeated points are dropped; a single point (or all equal) is a dot.
    /// The travelled part is reset to nothing.
    public func set(_ points: [Point256]) {
        segments.removeAll(keepingCapacity: true)
        length256 = 0
        var previous: Point256?
        for p in points {
            guard let a = previous else { previous = p; continue }
            if p == a { continue }
            append(from: a, to: p)
            previous = p
        }
        if segments.isEmpty, let only = previous { append(from: only, to: only) }
        if selected.count < segments.count {
            selected = ContiguousArray(repeating: 0, count: segments.count)
        }
        setTravelled(0)
    }

    private func append(from a: Point256, to b: Point256) {
        let ax = Int64(a.x256), ay = Int64(a.y256), bx = Int64(b.x256), by = Int64(b.y256)
        let dx = bx - ax, dy = by - ay
        let length = Int64(Fixed.roundedRoot(UInt64(dx * dx + dy * dy)))
        var ux: Int64 = 1 << 30, uy: Int64 = 0
        if length > 0 {
            ux = Self.roundedQuotient(dx << 30, length)
            uy = Self.roundedQuotient(dy << 30, length)
        }
        segments.append(StrokeSegment(ax: ax, ay: ay, bx: bx, by: by, ux: ux, uy: uy, length: length, start: length256,
                                      minX: min(ax, bx), minY: min(ay, by), maxX: max(ax, bx), maxY: max(ay, by)))
        length256 += length
    }

    /// n / d rounded half away from zero, d > 0 (the same for both signs: a mirrored line gets
    /// mirrored directions).
    static func roundedQuotient(_ n: Int64, _ d: Int64) -> Int64 {
        n >= 0 ? (n + d / 2) / d : -((-n + d / 2) / d)
    }

    /// The whole line's box in map pixels, grown by `margin256` on every side; empty without a line.
    public func bounds(margin256: Int64) -> Rect {
        guard var minX = segments.first?.minX else { return .empty }
        var minY = segments[0].minY, maxX = segments[0].maxX, maxY = segments[0].maxY
        for s in segments {
            minX = min(minX, s.minX); minY = min(minY, s.minY)
            maxX = max(maxX, s.maxX); maxY = max(maxY, s.maxY)
        }
        return Self.pixelRect(minX: minX, minY: minY, maxX: maxX, maxY: maxY, margin256: margin256)
    }

    /// The pixels whose centres may lie within `margin256` of the box (whole pixels, rounded out).
    static func pixelRect(minX: Int64, minY: Int64, maxX: Int64, maxY: Int64, margin256: Int64) -> Rect {
        let x0 = (minX - margin256) >> 8, y0 = (minY - margin256) >> 8
        let x1 = ((maxX + margin256) >> 8) + 1, y1 = ((maxY + margin256) >> 8) + 1
        return Rect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }
}
