/// Integer square roots, digit by digit: the same bits on every CPU without going through a
/// Double, and exact where `Fixed.floorSqrt` is not (squares of map-wide distances pass 2^48).
extension Fixed {
    /// ⌊√n⌋, for any unsigned width (specialised at each use: `UInt32` where the squares fit, else
    /// `UInt64`).
    @inlinable
    public static func isqrt<T: FixedWidthInteger & UnsignedInteger>(_ n: T) -> T {
        if n == 0 { return 0 }
        // The highest power of four not above n: one digit per pair of bits left.
        var rest = n, root: T = 0, bit: T = 1 << ((T.bitWidth - 1 - n.leadingZeroBitCount) & ~1)
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
