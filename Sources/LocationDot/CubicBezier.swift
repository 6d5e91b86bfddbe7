/// A timing curve as Core Animation defines them: a cubic Bézier from (0, 0) to (1, 1) with two
/// control points, mapping a time fraction x to a progress fraction y.
///
/// Solved with + − × ÷ and `sqrt` only (all correctly rounded by IEEE 754), never with a libm
/// transcendental function, so every CPU computes the very same progress for the same time and the
/// frames that follow from it are byte-identical on x86-64 and ARM.
public struct CubicBezier: Equatable, Sendable {
    // Polynomial coefficients of x(s) and y(s) = ((a·s + b)·s + c)·s, s being the curve parameter.
    private let ax, bx, cx: Double
    private let ay, by, cy: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        precondition(x1 >= 0 && x1 <= 1 && x2 >= 0 && x2 <= 1,
                     "a timing curve's control points need x in 0…1 (got \(x1), \(x2))")
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    /// Core Animation's default curve (`kCAMediaTimingFunctionDefault`): what the library's halo and
    /// breath animations use.
    public static let caDefault = CubicBezier(0.25, 0.1, 0.25, 1.0)
    /// `kCAMediaTimingFunctionEaseInEaseOut`: each step of the entrance pop.
    public static let easeInEaseOut = CubicBezier(0.42, 0, 0.58, 1)

    /// Progress at time fraction `x` (clamped to 0…1).
    public func callAsFunction(_ x: Double) -> Double {
        if !(x > 0) { return 0 }
        if x >= 1 { return 1 }
        let s = parameter(forX: x)
        return ((ay * s + by) * s + cy) * s
    }

    private func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    private func slopeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

    /// The curve parameter s with x(s) = x. x(s) is monotonic on 0…1 because both control points'
    /// x lie in 0…1, so bisection always converges; Newton's method gets there in a few steps first.
    private func parameter(forX x: Double) -> Double {
        let epsilon = 1e-12
        var s = x
        for _ in 0..<8 {
            let err = sampleX(s) - x
            if abs(err) < epsilon, s >= 0, s <= 1 { return s }
            let d = slopeX(s)
            if abs(d) < 1e-9 { break }
            s -= err / d
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<64 {
            let v = sampleX(s)
            if abs(v - x) < epsilon { return s }
            if v < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}
