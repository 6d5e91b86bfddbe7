/// A WGS84 position in degrees.
public struct GeoPoint: Equatable, Sendable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "\(latitude),\(longitude)" }
}

/// A position on the map in its pixels (sub-pixel, y down). For a georeferenced image these are the
/// image's pixels; for a centre-and-zoom map, the canvas's pixels when the view has not moved.
public struct MapPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// `bounds = WEST,SOUTH,EAST,NORTH` in degrees. `west > east` means the map crosses the antimeridian
/// (e.g. Fiji: `177,-19,-178,-16`), which is supported.
public struct GeoBounds: Equatable, Sendable {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west; self.south = south; self.east = east; self.north = north
    }

    public var crossesAntimeridian: Bool { west > east }

    /// The point halfway between the edges (in longitude across the antimeridian when the bounds
    /// cross it), in −180…180.
    public var middle: GeoPoint {
        var lon = (west + (crossesAntimeridian ? east + 360 : east)) / 2
        if lon > 180 { lon -= 360 }
        return GeoPoint(latitude: (south + north) / 2, longitude: lon)
    }

    /// Whether `p` lies inside, edges included.
    public func contains(_ p: GeoPoint) -> Bool {
        guard p.latitude >= south, p.latitude <= north else { return false }
        if crossesAntimeridian { return p.longitude >= west || p.longitude <= east }
        return p.longitude >= west && p.longitude <= east
    }
}
