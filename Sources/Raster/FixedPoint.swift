/// Fixed-point helpers. Positions and lengths are integers in 1/256 px ("Q8"); per-frame Doubles
/// are snapped once, with IEEE rounding that is the same on every CPU, and nothing after that is
/// floating point. No libm function feeds a pixel (look.md: same picture on every CPU).
public enum Fixed {
    /// 1/256 px units per pixel.
    public static let one = 256
    /// Largest magnitude a snapped value may take (32767 px): squares stay below 2^46, where the
    /// hardware square root of `roundSqrt` is exact.
    public static let limit = 32767 * 256

    /// `v` pixels in 1/256 px, rounded to nearest; non-finite values snap to 0, huge ones clamp.
    @inlinable
    public static func snap(_ v: Double) -> Int {
        guard v.isFinite else { return 0 }
        let s = (v * 256).rounded()
        if s >= Double(limit) { return limit }
        if s <= -Double(limit) { return -limit }
        return Int(s)
    }

    /// A 0…1 factor as 0…`scale` (e.g. 255 for an 8-bit alpha), rounded, clamped.
    @inlinable
    public static func unit(_ v: Double, scale: Int) -> Int {
        guard v.isFinite, v > 0 else { return 0 }
        if v >= 1 { return scale }
        return Int((v * Double(scale)).rounded())
    }

    /// floor(√n) for 0 ≤ n < 2^48. The square root is IEEE-exact (correctly rounded on every CPU,
    /// unlike libm's transcendental functions), and below 2^48 truncating it never lands on the
    /// wrong integer. `n` is Int64: squares of Q8 values reach 2^46, past a 32-bit Int; the root
    /// (< 2^24) fits any Int.
    @inline(__always) @inlinable
    public static func floorSqrt(_ n: Int64) -> Int {
        Int(Double(n).squareRoot())
    }

    /// round(√n) for 0 ≤ n < 2^46 (√(4n) then halved, so halves round up; 4n < 2^48).
    @inline(__always) @inlinable
    public static func roundSqrt(_ n: Int64) -> Int {
        (floorSqrt(n &<< 2) &+ 1) >> 1
    }

    /// ⌊a / 2^k⌋ and ⌈a / 2^k⌉ for any sign (arithmetic shifts).
    @inline(__always) @inlinable
    public static func floorShift(_ a: Int, _ k: Int) -> Int { a >> k }
    @inline(__always) @inlinable
    public static func ceilShift(_ a: Int, _ k: Int) -> Int { -((-a) >> k) }
}

/// Sine and cosine of an angle in degrees, in Q16, from an integer Taylor polynomial evaluated
/// here (never libm), so a rotated sprite is the same bytes on x86-64 and on ARM.
public enum FixedTrig {
    /// Angle resolution: 1/4096 degree.
    public static let unitsPerDegree = 4096

    /// (sin, cos) × 65536 of `degrees` (clockwise on screen when used with y down).
    public static func sinCos(degrees: Double) -> (sin: Int, cos: Int) {
        let full = 360 * unitsPerDegree
        var a = degrees.isFinite ? Int((degrees.truncatingRemainder(dividingBy: 360) * Double(unitsPerDegree)).rounded()) : 0
        a %= full
        if a < 0 { a += full }
        return sinCos(units: a)
    }

    /// Same for an angle already in 1/4096 degree, 0 ≤ a < 360·4096.
    public static func sinCos(units a: Int) -> (sin: Int, cos: Int) {
        let (s, c) = sinCosQ30(units: a)
        return (q16(s), q16(c))
    }

    /// (sin, cos) × 2^30 of an angle in 1/4096 degree, 0 ≤ a < 360·4096.
    public static func sinCosQ30(units a: Int) -> (sin: Int, cos: Int) {
        let quarter = 90 * unitsPerDegree
        let q = a / quarter
        var r = a - q * quarter
        // Fold into 0…45° so the series converges fast; swap sine and cosine above 45°.
        let swapped = r > quarter / 2
        if swapped { r = quarter - r }
        let (s0, c0) = octant(r)
        let (s, c) = swapped ? (c0, s0) : (s0, c0)
        switch q {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    // Q30 and Q60 work is Int64: x² and the Horner products reach 2^60, so a 32-bit Int build
    // computes the very same values.
    private static let q30: Int64 = 1 << 30
    // n(n+1) of the series' terms, innermost first (static: no array is built per call).
    private static let sinDivisors: [Int64] = [156, 110, 72, 42, 20, 6]
    private static let cosDivisors: [Int64] = [182, 132, 90, 56, 30, 12, 2]

    @inline(__always) private static func q16(_ v: Int) -> Int { (v + (1 << 13)) >> 14 }  // Q30 → Q16, rounded

    /// sin and cos in Q30 of r/4096 degrees, 0 ≤ r ≤ 45°: Horner form of the Taylor series
    /// (terms to x^13, error < 2^-31 at 45°).
    private static func octant(_ r: Int) -> (Int, Int) {
        // x in radians, Q30: ⌊r · π·2^60 / (180 · 4096)⌋ >> 30, π in Q60 keeping the product exact
        // enough. r·π·2^60 would need 80 bits; with π·2^60 = k·(180·4096) + m it is
        // r·k + ⌊r·m / (180·4096)⌋ exactly, where r·k < 2^60 and r·m < 2^36 for r ≤ 45·4096.
        let piQ60: Int64 = 3_622_009_729_038_561_421  // π · 2^60, rounded
        let perUnit = Int64(180 * unitsPerDegree)
        let k = piQ60 / perUnit, m = piQ60 % perUnit
        let r64 = Int64(r)
        let x = (r64 * k + r64 * m / perUnit) >> 30  // ≤ π/4 · 2^30
        let x2 = (x * x) >> 30
        var s = q30
        for d in sinDivisors { s = q30 - ((x2 * s) >> 30) / d }  // 1 − x²/(n(n+1))·(…)
        s = (x * s) >> 30
        var c = q30
        for d in cosDivisors { c = q30 - ((x2 * c) >> 30) / d }
        // Both in 0…2^30.
        return (Int(truncatingIfNeeded: s), Int(truncatingIfNeeded: c))
    }
}
