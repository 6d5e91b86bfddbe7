/// Where a line passes a position: a route that comes by one place twice (a loop, both
/// directions of one street) passes it twice, and which pass the vehicle is on cannot be told
/// from one fix. Each pass is one hypothesis for the fixes that follow to confirm or drop.
extension ShapeLine {
    /// The nearest point of each stretch of the line lying within `meters` of the position, in
    /// order along the line.
    public func passes(latitude: Double, longitude: Double, within meters: Double) -> [Projection] {
        guard points.count > 1 else {
            return project(latitude: latitude, longitude: longitude, from: 0, to: 0).map { $0.offset <= meters ? [$0] : [] } ?? []
        }
        var found: [Projection] = []
        var best: Projection?
        for i in 0..<(points.count - 1) {
            let p = project(latitude: latitude, longitude: longitude, segment: i)
            if p.offset <= meters {
                if best == nil || p.offset < best!.offset { best = p }
            } else if let b = best {
                found.append(b)
                best = nil
            }
        }
        if let best { found.append(best) }
        return found
    }
}
