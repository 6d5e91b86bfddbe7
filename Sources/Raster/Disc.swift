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

