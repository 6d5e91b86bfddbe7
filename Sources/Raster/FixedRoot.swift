/// Integer square roots, digit by digit: the same bits on every CPU without going through a
/// Double, and exact where `Fixed.floorSqrt` is not (squares of map-wide distances pass 2^48).
extension Fixed {
    /// ⌊√n⌋.
    @inlinable
    public static func isqrt(_ n: UInt32) -> UInt32 {
        var rest = n, root: UInt32 = 0, bit: UInt32 = 1 << 30
        while bit > rest { bit >>= 2 }
        while bit != 0 {
            if rest >= root &+ bit {
                rest &-= root &+ bit
                root = (root >> 1) &+ bit
            } else {
                root >>= 1
            }
            bit >>= 2
        }
        return root
    }

    /// ⌊√n⌋.
    @inlinable
    public static func isqrt(_ n: UInt64) -> UInt64 {
        var rest = n, root: UInt64 = 0, bit: UInt64 = 1 << 62
        while bit > rest { bit >>= 2 }
        while bit != 0 {
            if rest >= root &+ bit {
                rest &-= root &+ bit
                root = (root >> 1) &+ bit
            } else {
                root >>= 1
            }
            bit >>= 2
        }
        return root
    }

    /// round(√n) (√(4n) halved, halves up); 4n must fit 64 bits, so n < 2^62.
    @inlinable
    public static func roundedRoot(_ n: UInt64) -> UInt64 {
        (isqrt(n &<< 2) &+ 1) >> 1
    }
}
