/// Regular polygons standing in for circles: unit vertices from FixedTrig (Q30) and, per vertex
/// count, the factor that enlarges the circumradius so the polygon's area is exactly πr².
enum DiscPolygons {
    static let maxVertices = 1024
    /// Vertex counts 32, 64, …, 1024; each stores the left half-turn (top to bottom), N/2 + 1 points.
    /// The unit vertices live in memory made once and never freed (read every frame a disc's
    /// radius changes, so without array bounds checks or reference counting). They are Q30, and a
    /// radius times one of them reaches 2^53: Int64, whatever the CPU's Int.
    struct Polygon: @unchecked Sendable {
        let count: Int
        let sin: UnsafePointer<Int64>
        let cos: UnsafePointer<Int64>
        /// Circumradius / radius in Q30.
        let areaFactor: Int64
        @inline(__always) func unit(_ j: Int) -> (Int64, Int64) { (sin[j], cos[j]) }
    }

    static let polygons: [Polygon] = {
        var out = [Polygon]()
        var n = 32
        while n <= maxVertices {
            let step = 360 * FixedTrig.unitsPerDegree / n
            var s = [Int64](), c = [Int64]()
            for j in 0...(n / 2) {
                let (sj, cj) = FixedTrig.sinCosQ30(units: j * step)
                s.append(Int64(sj)); c.append(Int64(cj))
            }
            // A regular N-gon of circumradius ρ has area (N/2)·ρ²·sin(2π/N).
            let sin2pi = Double(s[1]) / Double(1 << 30)  // vertex 1 is at 360°/N
            let pi = 3.141_592_653_589_793
            let factor = (pi / (Double(n) / 2 * sin2pi)).squareRoot()
            let sp = UnsafeMutablePointer<Int64>.allocate(capacity: s.count), cp = UnsafeMutablePointer<Int64>.allocate(capacity: c.count)
            sp.initialize(from: s, count: s.count); cp.initialize(from: c, count: c.count)
            out.append(Polygon(count: n, sin: sp, cos: cp, areaFactor: Int64((factor * Double(1 << 30)).rounded())))
            n *= 2
        }
        return out
    }()

    /// The polygon for a radius (1/256 px): the fewest vertices keeping it within 1/64 px of the
    /// circle (sagitta r·π²/(2N²) ≤ 1/64 ⇔ N² ≥ 32·π²·r).
    @inline(__always)
    static func polygon(forRadius256 r: Int) -> Polygon {
        // N² ≥ 32·π²·r/256 px  ⇔  N² · 256 ≥ 316 · r (32·π² ≈ 315.8; up to 2^31.3 for the largest r).
        var i = 0
        let need = 316 * Int64(r)
        while i < polygons.count - 1 && Int64(polygons[i].count * polygons[i].count * 256) < need { i += 1 }
        return polygons[i]
    }

    /// The enlarged circumradius (1/256 px) of the polygon standing in for a radius.
    @inline(__always)
    static func circumradius(_ r: Int) -> Int {
        if r <= 0 { return 0 }
        return Int((Int64(r) * polygon(forRadius256: r).areaFactor + (1 << 29)) >> 30)
    }
}
