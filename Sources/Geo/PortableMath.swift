/// The few transcendental functions map projection needs, written with nothing but +, −, ×, ÷ and
/// square root in a fixed order. IEEE 754 rounds those identically on every CPU, whereas libm's
/// sin/log/exp may differ in the last bit between x86-64 and ARM (other code paths, fused
/// multiply-add). A dot position feeds pixels, and look.md wants the same picture everywhere.
/// Accuracy is a few ulp over the ranges used here, far below a pixel at any zoom.
public enum PortableMath {
    public static let pi = 3.141592653589793
    static let halfPiHi = 1.5707963267948966
    static let halfPiLo = 6.123233995736766e-17
    static let ln2Hi = 0.6931471803691238
    static let ln2Lo = 1.9082149292705877e-10

    /// Degrees to radians.
    @inline(__always)
    public static func radians(_ degrees: Double) -> Double { degrees * (pi / 180) }

    public static func sin(_ x: Double) -> Double {
        let (r, quadrant) = reduceHalfPi(x)
        switch quadrant & 3 {
        case 0: return sinKernel(r)
        case 1: return cosKernel(r)
        case 2: return -sinKernel(r)
        default: return -cosKernel(r)
        }
    }

    public static func cos(_ x: Double) -> Double {
        let (r, quadrant) = reduceHalfPi(x)
        switch quadrant & 3 {
        case 0: return cosKernel(r)
        case 1: return -sinKernel(r)
        case 2: return -cosKernel(r)
        default: return sinKernel(r)
        }
    }

    /// Natural logarithm; NaN for x ≤ 0 or NaN, +inf for +inf.
    public static func log(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        // x = m · 2^e with m in [√½, √2): the series below then converges in a dozen terms.
        var e = Double(x.exponent)
        var m = x.significand
        if m > 1.4142135623730951 { m *= 0.5; e += 1 }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        // ln m = 2·atanh(s) = 2(s + s³/3 + s⁵/5 + …), |s| ≤ 0.172.
        var sum = 1.0 / 25
        var k = 23.0
        while k >= 1 { sum = 1 / k + s2 * sum; k -= 2 }
        let lnm = 2 * s * sum
        return e * ln2Hi + (e * ln2Lo + lnm)
    }

    /// e^x; 0 below −745, +inf above 709.
    public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.78 { return .infinity }
        if x < -745.2 { return 0 }
        let k = (x / (ln2Hi + ln2Lo)).rounded()
        let r = (x - k * ln2Hi) - k * ln2Lo
        var sum = 1.0
        var n = 17.0
        while n >= 1 { sum = 1 + r * sum / n; n -= 1 }
        return scaleByPowerOfTwo(sum, Int(k))
    }

    /// 2^x, exact for integers.
    public static func exp2(_ x: Double) -> Double {
        let whole = x.rounded(.down)
        let frac = x - whole
        guard whole.isFinite, abs(whole) < 1_100 else { return x > 0 ? .infinity : 0 }
        return scaleByPowerOfTwo(frac == 0 ? 1 : exp(frac * (ln2Hi + ln2Lo)), Int(whole))
    }

    /// Arc tangent in radians, in (−π/2, π/2).
    public static func atan(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x < 0 { return -atan(-x) }
        if x > 1 { return (halfPiHi - atan(1 / x)) + halfPiLo }
        // Two half-angle steps, atan(x) = 2·atan(x / (1 + √(1 + x²))), bring x below tan(π/16).
        var t = x
        t = t / (1 + (1 + t * t).squareRoot())
        t = t / (1 + (1 + t * t).squareRoot())
        // Undo the two halvings: atan(x) = 4·atan(t).
        return 4 * t * alternatingSeries(t * t)
    }

    // MARK: - Kernels

    /// atan(t)/t = Σ (−1)^n t^(2n) / (2n+1), evaluated by Horner from the highest term.
    static func alternatingSeries(_ t2: Double) -> Double {
        var sum = 0.0
        var n = 12
        while n >= 0 {
            let term = (n % 2 == 0 ? 1.0 : -1.0) / Double(2 * n + 1)
            sum = term + t2 * sum
            n -= 1
        }
        return sum
    }

    /// Splits x into r + k·π/2 with |r| ≤ π/4 (Cody–Waite, two-part π/2: exact enough for the
    /// |x| < 100 rad used by map projection).
    static func reduceHalfPi(_ x: Double) -> (Double, Int) {
        let k = (x / (halfPiHi + halfPiLo)).rounded()
        let r = (x - k * halfPiHi) - k * halfPiLo
        let q = Int(k)
        return (r, ((q % 4) + 4) % 4)
    }

    /// sin(r) for |r| ≤ π/4: Taylor series to r^21.
    static func sinKernel(_ r: Double) -> Double {
        let r2 = r * r
        var sum = 1.0
        var n = 21.0
        while n >= 3 { sum = 1 - r2 * sum / (n * (n - 1)); n -= 2 }
        return r * sum
    }

    /// cos(r) for |r| ≤ π/4: Taylor series to r^22.
    static func cosKernel(_ r: Double) -> Double {
        let r2 = r * r
        var sum = 1.0
        var n = 22.0
        while n >= 2 { sum = 1 - r2 * sum / (n * (n - 1)); n -= 2 }
        return sum
    }

    /// v · 2^k without rounding (for results in the normal range).
    static func scaleByPowerOfTwo(_ v: Double, _ k: Int) -> Double {
        var value = v
        var k = k
        // Steps of at most 2^±1000 keep each factor itself representable.
        while k > 1000 { value *= Double(sign: .plus, exponent: 1000, significand: 1); k -= 1000 }
        while k < -1000 { value *= Double(sign: .plus, exponent: -1000, significand: 1); k += 1000 }
        return value * Double(sign: .plus, exponent: k, significand: 1)
    }
}
