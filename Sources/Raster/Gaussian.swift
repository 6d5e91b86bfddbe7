/// The drop shadow's blur kernel: a Gaussian of σ px cut at 3σ, as integer weights. It is built
/// from a binomial distribution (the discrete Gaussian limit of repeated [1 1] averaging) with the
/// exact variance σ², using only IEEE +, −, ×, ÷ — never exp(), whose last bits differ by CPU.
public enum Gaussian {
    /// Weights summing to exactly 65536; index i is offset i − radius.
    public struct Kernel: Equatable, Sendable {
        public let radius: Int
        public let weights: [Int32]
    }

    /// The kernel for σ in 1/256 px (a snapped `shadowRadius · scale`).
    public static func kernel(sigma256: Int) -> Kernel {
        if sigma256 <= 0 { return Kernel(radius: 0, weights: [65536]) }
        let sigma = Double(sigma256) / 256
        let variance = sigma * sigma
        // Binomial(n) has variance n/4; n even keeps it centred on a pixel. The remainder (< ½)
        // comes from a three-tap [a, 1−2a, a] kernel, whose variance is 2a.
        let n = 2 * Int((2 * variance).rounded(.down))
        let a = (variance - Double(n) / 4) / 2
        let cut = Int((3 * sigma).rounded(.up))
        let half = n / 2
        let radius = min(cut, half + 1)
        // Binomial weights relative to the centre, by the ratio C(n, k+1)/C(n, k).
        var binomial = [Double](repeating: 0, count: 2 * (half + 1) + 1)
        binomial[half + 1] = 1
        var k = 0
        while k < half {
            let next = binomial[half + 1 + k] * Double(half - k) / Double(half + k + 1)
            binomial[half + 2 + k] = next
            binomial[half - k] = next
            k += 1
        }
        var w = [Double](repeating: 0, count: 2 * radius + 1)
        for i in -radius...radius {
            let j = i + half + 1  // index into binomial, whose ends are zero padding
            func b(_ t: Int) -> Double { t >= 0 && t < binomial.count ? binomial[t] : 0 }
            w[i + radius] = a * b(j - 1) + (1 - 2 * a) * b(j) + a * b(j + 1)
        }
        let total = w.reduce(0, +)
        var weights = w.map { Int32((($0 / total) * 65536).rounded()) }
        // Rounding leftovers go to the centre so the kernel keeps the total exactly.
        weights[radius] += 65536 - weights.reduce(0, +)
        return Kernel(radius: radius, weights: weights)
    }
}
