import Glibc

/// A trip's shape as a polyline measured in metres: each point's distance from the start, and
/// the projection of a position onto the part of the line between two distances. Each segment
/// is flattened on its own (equirectangular at its first point's latitude), which over the few
/// hundred metres of a segment is centimetre-exact and keeps long routes free of the stretch a
/// single projection for the whole city would add.
public struct ShapeLine: Sendable {
    public struct Point: Equatable, Sendable {
        public let latitude: Double
        public let longitude: Double
        /// shape_dist_traveled, in the feed's own unit, when given.
        public let feedDistance: Double?

        public init(latitude: Double, longitude: Double, feedDistance: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.feedDistance = feedDistance
        }
    }

    /// Where a position falls on the line.
    public struct Projection: Equatable, Sendable {
        /// Metres along the line from its first point.
        public let distance: Double
        /// Metres from the position to that point of the line.
        public let offset: Double
        public let segment: Int
    }

    public let points: [Point]
    /// Metres from the first point to each point.
    public let distances: [Double]

    public var length: Double { distances.last ?? 0 }

    static let metersPerDegree = 111_320.0

    public init(points: [Point]) {
        self.points = points
        var distances: [Double] = []
        distances.reserveCapacity(points.count)
        var total = 0.0
        for i in points.indices {
            if i > 0 {
                let (x, y) = Self.local(points[i], from: points[i - 1])
                total += (x * x + y * y).squareRoot()
            }
            distances.append(total)
        }
        self.distances = distances
    }

    /// Metres east and north of `origin`.
    static func local(_ p: Point, from origin: Point) -> (x: Double, y: Double) {
        local(latitude: p.latitude, longitude: p.longitude, from: origin)
    }

    static func local(latitude: Double, longitude: Double, from origin: Point) -> (x: Double, y: Double) {
        let cosine = cos(origin.latitude * .pi / 180)
        return ((longitude - origin.longitude) * metersPerDegree * cosine, (latitude - origin.latitude) * metersPerDegree)
    }

    /// The point `distance` metres along the line (clamped to its ends).
    public func position(at distance: Double) -> (latitude: Double, longitude: Double) {
        guard points.count > 1 else { return (points.first?.latitude ?? 0, points.first?.longitude ?? 0) }
        let i = segment(containing: distance)
        let a = points[i], b = points[i + 1]
        let span = distances[i + 1] - distances[i]
        let t = span > 0 ? min(max((distance - distances[i]) / span, 0), 1) : 0
        return (a.latitude + (b.latitude - a.latitude) * t, a.longitude + (b.longitude - a.longitude) * t)
    }

    /// The index of the segment (points i and i+1) holding `distance`: the first one ending at
    /// or after it, so a distance on a point belongs to the segment arriving there.
    func segment(containing distance: Double) -> Int {
        var low = 0, high = points.count - 2
        while low < high {
            let middle = (low + high) / 2
            if distances[middle + 1] < distance { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The position's projection onto segment `i`, clamped to the segment.
    func project(latitude: Double, longitude: Double, segment i: Int) -> Projection {
        let a = points[i]
        let p = Self.local(latitude: latitude, longitude: longitude, from: a)
        guard i + 1 < points.count else { return Projection(distance: distances[i], offset: (p.x * p.x + p.y * p.y).squareRoot(), segment: i) }
        let b = Self.local(points[i + 1], from: a)
        let length2 = b.x * b.x + b.y * b.y
        let t = length2 > 0 ? min(max((p.x * b.x + p.y * b.y) / length2, 0), 1) : 0
        let dx = p.x - t * b.x, dy = p.y - t * b.y
        return Projection(distance: distances[i] + t * (distances[i + 1] - distances[i]), offset: (dx * dx + dy * dy).squareRoot(), segment: i)
    }

    /// The best projection onto the line between `from` and `to` metres, each candidate's offset
    /// weighed with how far it lies from `expected` (`weight` metres of offset per metre of
    /// distance): on an out-and-back street both directions are a few metres away, and the one
    /// the vehicle's own progress predicts is the one it is on.
    public func project(latitude: Double, longitude: Double, from: Double, to: Double,
                        expected: Double? = nil, weight: Double = 0) -> Projection? {
        guard !points.isEmpty else { return nil }
        guard points.count > 1 else { return project(latitude: latitude, longitude: longitude, segment: 0) }
        let first = segment(containing: max(from, 0)), last = segment(containing: min(to, length))
        var best: Projection?
        var bestCost = Double.infinity
        for i in first...last {
            var p = project(latitude: latitude, longitude: longitude, segment: i)
            // Clamped to the window, so a segment straddling its edge cannot leave it.
            if p.distance < from || p.distance > to {
                let clamped = min(max(p.distance, from), to)
                let point = position(at: clamped)
                let d = Self.local(latitude: latitude, longitude: longitude, from: Point(latitude: point.latitude, longitude: point.longitude))
                p = Projection(distance: clamped, offset: (d.x * d.x + d.y * d.y).squareRoot(), segment: i)
            }
            let cost = p.offset + (expected.map { abs(p.distance - $0) * weight } ?? 0)
            if cost < bestCost {
                bestCost = cost
                best = p
            }
        }
        return best
    }
}
