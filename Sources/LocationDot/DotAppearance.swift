import Raster

/// Everything that changes from frame to frame about the dot, as plain numbers: what the animation
/// clock and the daemon's state decide, and what the painter draws. One value per frame.
public struct DotAppearance: Equatable, Sendable {
    /// Halo diameter as a fraction of its full size (0…1) and its opacity (0…1, before pulseColor's
    /// own alpha). Opacity 0 means no halo is drawn.
    public var haloSize: Double = 0
    public var haloOpacity: Double = 0
    /// The breath: inner dot size and opacity factors (1 when the breath is off).
    public var dotSize: Double = 1
    public var dotOpacity: Double = 1
    /// The entrance pop: the whole view's scale (1 when not popping; 1.25 at most).
    public var popScale: Double = 1
    /// 0 = live colours, 1 = fully `staleColor` (the stale look blends linearly between).
    public var staleness: Double = 0
    /// Accuracy disc radius in pixels; 0 = none.
    public var accuracyRadiusPx: Double = 0
    /// Course over ground in degrees clockwise from north, or nil for no heading.
    public var heading: Double? = nil
    /// `noFix = ring`: a grey ring without the inner dot and without halo.
    public var ringOnly: Bool = false

    public init() {}
}
