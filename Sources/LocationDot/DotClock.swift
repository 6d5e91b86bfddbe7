/// The animation clock: what the dot looks like at time t, as a pure function of the style and t.
/// t is in seconds since the dot first appeared (look.md, "Clock and entrance"); the halo and the
/// breath both start at t = 0. The result is the per-frame `DotAppearance` the painter draws; the
/// daemon adds what only it knows (accuracy, heading, staleness) to that value.
///
/// Only + − × ÷, `sqrt` and rounding are used, so the same t gives the same numbers on every CPU.
public struct DotClock: Sendable {
    public let style: DotStyle

    public init(style: DotStyle) {
        self.style = style
    }

    /// The look at clock `t`. `popStart`: the clock time an entrance pop began (nil: none playing).
    public func appearance(at t: Double, popStart: Double? = nil) -> DotAppearance {
        var look = DotAppearance()
        let halo = self.halo(at: t)
        look.haloSize = halo.size
        look.haloOpacity = halo.opacity
        let breath = self.breath(at: t)
        look.dotSize = breath
        look.dotOpacity = breath
        if let popStart {
            look.popScale = Self.popScale(elapsed: t - popStart)
        }
        return look
    }

    // MARK: Halo

    /// Opacity keyframes of the halo over its growth, at fractions 0, 0.2 and 1 of
    /// outerPulseAnimationDuration (the library's `pulseAnimationGroup`).
    public static let haloOpacityKeyframes: [(fraction: Double, opacity: Double)] = [(0, 0.45), (0.2, 0.45), (1, 0)]

    /// Halo size (fraction of the full 22 pt × pulseScaleFactor diameter) and opacity at clock `t`.
    /// The library animates the halo as one CAAnimationGroup of duration D + d with the default
    /// timing curve on the whole group: the curve bends time over the full cycle, pause included,
    /// which is why the halo lingers longer than a plain D-second growth would.
    public func halo(at t: Double) -> (size: Double, opacity: Double) {
        let d = style.delayBetweenPulseCycles
        let duration = style.outerPulseAnimationDuration
        guard d.isFinite, duration > 0 else { return (0, 0) }
        let cycle = duration + d
        let local = Self.positiveRemainder(max(t, 0), cycle)
        let eased = CubicBezier.caDefault(local / cycle) * cycle
        guard eased <= duration else { return (0, 0) }
        let fraction = eased / duration
        return (fraction, Self.haloOpacity(atFraction: fraction))
    }

    /// Linear interpolation along `haloOpacityKeyframes`.
    static func haloOpacity(atFraction f: Double) -> Double {
        let keys = haloOpacityKeyframes
        for i in 1..<keys.count where f <= keys[i].fraction {
            let a = keys[i - 1], b = keys[i]
            let span = b.fraction - a.fraction
            let w = span > 0 ? (f - a.fraction) / span : 1
            return a.opacity + (b.opacity - a.opacity) * w
        }
        return keys[keys.count - 1].opacity
    }

    // MARK: Breath

    /// The inner dot's size and opacity factor (0.8…1) at clock `t`; 1 when the breath is off.
    /// Core Animation's autoreverse plays the forward half backwards, so the way back retraces the
    /// same eased curve in reverse (a triangle wave fed through the curve), starting small at t = 0.
    public func breath(at t: Double) -> Double {
        guard style.breathes else { return 1 }
        let half = style.pulseAnimationDuration
        guard half > 0 else { return 1 }
        let phase = Self.positiveRemainder(max(t, 0), 2 * half)
        let tri = phase <= half ? phase / half : (2 * half - phase) / half
        return 0.8 + 0.2 * CubicBezier.caDefault(tri)
    }

    // MARK: Entrance pop

    /// The library's `popIn`: the whole view's scale at even times over `popDuration`.
    public static let popKeyframes: [Double] = [0.05, 1.25, 0.8, 1.1, 0.9, 1.0]
    public static let popDuration: Double = 0.3

    /// The pop's scale `elapsed` seconds after it began: each step between neighbouring keyframes
    /// is eased in-out; before the start the view is at its first keyframe, after the end at 1.
    public static func popScale(elapsed: Double) -> Double {
        let keys = popKeyframes
        if !(elapsed > 0) { return keys[0] }
        if elapsed >= popDuration { return keys[keys.count - 1] }
        let steps = Double(keys.count - 1)
        let position = elapsed / popDuration * steps
        let index = min(Int(position.rounded(.down)), keys.count - 2)
        let w = CubicBezier.easeInEaseOut(position - Double(index))
        return keys[index] + (keys[index + 1] - keys[index]) * w
    }

    /// Whether a pop that began at `popStart` is still playing at `t` (frames must keep coming).
    public static func isPopping(at t: Double, popStart: Double?) -> Bool {
        guard let popStart else { return false }
        return t - popStart < popDuration
    }

    // MARK: Helpers

    /// t mod m in [0, m) using only exact rounding and one multiply-subtract (no `fmod`).
    static func positiveRemainder(_ t: Double, _ m: Double) -> Double {
        var r = t - (t / m).rounded(.down) * m
        if r < 0 { r += m }
        if r >= m { r -= m }
        return r
    }
}
