/// Coverage of a pixel by a round shape of radius `r` from the distance `d` of its centre to the
/// shape's core (a point, a segment): a one-pixel ramp r + ½ − d clamped to 0…1, the box filter's
/// answer for a straight edge. Compared as squared distances first, so a pixel fully in or out
/// needs no root; only edge pixels take one (`Fixed.isqrt`).
public struct EdgeRamp: Equatable, Sendable {
    /// Largest radius, 1/256 px: (r + ½ px)² must stay below 2^32, the width of the squared
    /// distances the rasterisers keep.
    public static let maxRadius256: Int32 = 65535 - 128

    public let radius256: Int32
    /// Below or at this squared distance (1/65536 px²) the pixel is fully covered.
    public let inner2: UInt32
    /// At or beyond it, not at all.
    public let outer2: UInt32

    public init(radius256: Int32) {
        let r = min(max(radius256, 0), Self.maxRadius256)
        self.radius256 = r
        // A shape thinner than a pixel never covers one fully: no inner zone then.
        let inner = r >= 128 ? UInt32(r - 128) : 0
        inner2 = r >= 128 ? inner &* inner : 0
        let outer = UInt32(r + 128)
        outer2 = outer &* outer
    }

    /// Whether a pixel this far needs its distance: it is neither fully inside nor outside.
    @inline(__always)
    public func needsRoot(_ d2: UInt32) -> Bool { d2 > inner2 && d2 < outer2 }

    /// Coverage 0…255 at squared distance `d2`, with `d` = ⌊√d2⌋ when `needsRoot(d2)`.
    @inline(__always)
    public func alpha(_ d2: UInt32, root d: UInt32) -> UInt32 {
        if d2 >= outer2 { return 0 }
        if d2 <= inner2 && radius256 >= 128 { return 255 }
        let reach = Int32(bitPattern: UInt32(radius256 + 128) &- min(d, 65535))
        let c = UInt32(min(max(reach, 0), 256))
        return (c &* 255 &+ 128) >> 8
    }
}
