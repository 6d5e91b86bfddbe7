/// Where a trip's stops lie along its shape, in metres from the shape's start, in stop_sequence
/// order and never decreasing (a loop visits one place twice, at two distances).
public enum StopPlacement: Equatable, Sendable {
    /// shape_dist_traveled of shapes.txt and stop_times.txt, converted to metres through the
    /// shape's own points.
    case shapeDistTraveled
    /// Each stop matched to the shape, in order.
    case snapped

    public struct Stop: Sendable {
        public let latitude: Double
        public let longitude: Double
        public let feedDistance: Double?

        public init(latitude: Double, longitude: Double, feedDistance: Double?) {
            self.latitude = latitude
            self.longitude = longitude
            self.feedDistance = feedDistance
        }
    }

    /// The distances, and which way they were found. The feed's distances are trusted only
    /// when both files give them everywhere and they increase; a feed measuring in kilometres,
    /// feet or "points" is fine, as long as it measures both files alike.
    public static func place(_ stops: [Stop], on line: ShapeLine) -> (distances: [Double], method: StopPlacement) {
        if let distances = fromFeed(stops, line) { return (distances, .shapeDistTraveled) }
        return (snap(stops, line), .snapped)
    }

    static func fromFeed(_ stops: [Stop], _ line: ShapeLine) -> [Double]? {
        let points = line.points
        guard points.count > 1, !stops.isEmpty else { return nil }
        var feed: [Double] = []
        for p in points {
            guard let d = p.feedDistance, d >= (feed.last ?? -Double.infinity) else { return nil }
            feed.append(d)
        }
        guard let first = feed.first, let last = feed.last, last > first else { return nil }
        // A stop may stand a little before the shape's start or after its end; more is a unit mismatch.
        let slack = (last - first) * 0.01
        var result: [Double] = []
        var previous = -Double.infinity
        for stop in stops {
            guard let d = stop.feedDistance, d >= previous, d >= first - slack, d <= last + slack else { return nil }
            previous = d
            let v = min(max(d, first), last)
            var low = 0, high = feed.count - 2
            while low < high {
                let middle = (low + high) / 2
                if feed[middle + 1] < v { low = middle + 1 } else { high = middle }
            }
            let span = feed[low + 1] - feed[low]
            let t = span > 0 ? (v - feed[low]) / span : 0
            result.append(line.distances[low] + t * (line.distances[low + 1] - line.distances[low]))
        }
        return result
    }

    /// The order-keeping match nearest in total: each stop on a segment at or after the previous
    /// stop's, chosen to make the sum of the stops' distances to the line smallest (dynamic
    /// programming over stops × segments). Taking each stop's nearest point greedily would let
    /// one stop near a later pass of the route (the other side of an out-and-back street) pull
    /// every stop after it to the end.
    static func snap(_ stops: [Stop], _ line: ShapeLine) -> [Double] {
        guard !stops.isEmpty else { return [] }
        guard line.points.count > 1 else { return stops.map { _ in 0 } }
        let segments = line.points.count - 1
        var previousCost = [Double](repeating: 0, count: segments)
        var previousAlong = [Double](repeating: -Double.infinity, count: segments)
        // For each stop and segment, the segment the stop before was put on.
        var back = [[Int32]](repeating: [], count: stops.count)
        var along = [[Double]](repeating: [], count: stops.count)
        for (i, stop) in stops.enumerated() {
            var cost = [Double](repeating: .infinity, count: segments)
            var here = [Double](repeating: 0, count: segments)
            var from = [Int32](repeating: -1, count: segments)
            var bestBefore = Double.infinity, bestBeforeIndex = -1
            for j in 0..<segments {
                let p = line.project(latitude: stop.latitude, longitude: stop.longitude, segment: j)
                here[j] = p.distance
                if i == 0 {
                    cost[j] = p.offset
                } else {
                    // The same segment only when the stop lies after the previous one on it.
                    var base = bestBefore, origin = bestBeforeIndex
                    if previousAlong[j] <= p.distance, previousCost[j] < base {
                        base = previousCost[j]
                        origin = j
                    }
                    if origin >= 0 {
                        cost[j] = base + p.offset
                        from[j] = Int32(origin)
                    }
                    if previousCost[j] < bestBefore {
                        bestBefore = previousCost[j]
                        bestBeforeIndex = j
                    }
                }
            }
            back[i] = from
            along[i] = here
            previousCost = cost
            previousAlong = here
        }
        var j = 0
        for k in 0..<segments where previousCost[k] < previousCost[j] { j = k }
        var result = [Double](repeating: 0, count: stops.count)
        for i in stride(from: stops.count - 1, through: 0, by: -1) {
            result[i] = along[i][j]
            if i > 0 { j = max(Int(back[i][j]), 0) }
        }
        return result
    }
}
