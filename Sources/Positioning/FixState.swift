import Config
import Location
import LocationDot

/// What the screen claims about the fix.
public enum FixPhase: String, Sendable {
    /// No fix since start-up: nothing, or a grey ring (`noFix`).
    case nofix
    /// Fixes are arriving.
    case live
    /// None for `staleAfter` seconds: the stale look (grey, no halo, no breath) until the next one.
    case stale
}

/// The rules the truth follows, from the configuration.
public struct FixRules: Equatable, Sendable {
    /// `[source] staleAfter` (s); `.infinity` for a fixed position that never goes stale.
    public var staleAfter: Double = 30
    /// How long the colours take to reach `staleColor` (s; look.md: 1 s).
    public var staleFade: Double = 1
    /// `hideHaloAboveError` (m); 0 = never hide.
    public var hideHaloAboveError: Double = 10
    /// `headingMinSpeed` (m/s).
    public var headingMinSpeed: Double = 1
    public var noFix: NoFixLook = .none
    /// An accuracy disc smaller than this radius (px) is not drawn: it would hide under the dot.
    public var accuracyHiddenBelowPx: Double = 14
    /// The accuracy radius and the heading glide to a new value over this time (s) instead of
    /// snapping; the halo fades in or out over it when the error crosses `hideHaloAboveError`.
    public var easeDuration: Double = 0.3

    public init() {}

    /// From the `[dot]` settings, `staleAfter` and the display's pixels per point: the disc is
    /// hidden below the ring's 11 pt radius plus 3 pt.
    public init(dot: DotSettings, staleAfter: Double, scale: Double) {
        self.staleAfter = staleAfter
        hideHaloAboveError = dot.hideHaloAboveError
        headingMinSpeed = dot.headingMinSpeed
        noFix = dot.noFix
        accuracyHiddenBelowPx = (DotStyle.ringDiameter / 2 + 3) * scale
    }
}

/// The truth about the fix over time: nofix → live at the first fix (the entrance pop) → stale
/// after `staleAfter` without a fix → live again with a pop at the next one. It turns fixes into
/// the per-frame fields of `DotAppearance` that only the daemon knows: staleness, accuracy radius,
/// heading, ring-only, and whether the halo and breath show. Times are monotonic seconds, the same
/// clock as `MotionModel`. Per-frame calls are pure and allocate nothing.
public struct FixState: Sendable {
    public let rules: FixRules
    /// When the dot first appeared: the animation clock's zero.
    public private(set) var firstFixAt: Double?
    public private(set) var lastFixAt: Double?
    /// When the latest entrance pop began.
    public private(set) var popStartedAt: Double?

    private var accuracy = Eased()
    private var heading = Eased()
    private var headingShown = false
    /// The halo's permission (1 shown, 0 hidden for a large error), eased.
    private var haloAllowed = Eased(value: 1)

    public init(rules: FixRules) {
        self.rules = rules
    }

    /// A fix with a position arrived at `now`. `horizontalError` (m, gpsd's `eph`) and
    /// `pixelsPerMetre` (the map's scale at the fix) size the accuracy disc; `speed` (m/s) and
    /// `track` (degrees from north) give the heading. Unknown values are nil.
    public mutating func fixArrived(at now: Double, horizontalError: Double?, pixelsPerMetre: Double,
                                    speed: Double?, track: Double?) {
        let returning = firstFixAt == nil || phase(at: now) == .stale
        if firstFixAt == nil { firstFixAt = now }
        if returning { popStartedAt = now }
        lastFixAt = now

        let error = horizontalError.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let radius = error.map { $0 * max(pixelsPerMetre, 0) } ?? 0
        // A new appearance starts from the truth, not from the value left before the silence.
        accuracy.move(to: radius, at: now, over: returning ? 0 : rules.easeDuration)

        let largeError = rules.hideHaloAboveError > 0 && (error ?? 0) > rules.hideHaloAboveError
        haloAllowed.move(to: largeError ? 0 : 1, at: now, over: returning ? 0 : rules.easeDuration)

        if let speed, let track, speed.isFinite, track.isFinite, speed >= rules.headingMinSpeed {
            let target = Self.normalised(track)
            if headingShown && !returning {
                // Turn the short way: 350° → 10° passes north, not south.
                let current = Self.normalised(heading.value(at: now))
                var delta = target - current
                if delta > 180 { delta -= 360 } else if delta < -180 { delta += 360 }
                heading.move(from: current, to: current + delta, at: now, over: rules.easeDuration)
            } else {
                heading.move(to: target, at: now, over: 0)
            }
            headingShown = true
        } else {
            headingShown = false
        }
    }

    /// A fix from gpsd or a replay; `pixelsPerMetre` is the map's scale at its latitude.
    public mutating func fixArrived(_ fix: Fix, pixelsPerMetre: Double) {
        fixArrived(at: fix.receivedAt.seconds, horizontalError: fix.horizontalError, pixelsPerMetre: pixelsPerMetre,
                   speed: fix.speed, track: fix.track)
    }

    /// Takes up where `old` (the same source's truth on a view being replaced) stands: the
    /// animation clock's zero, the last fix and pop, the eased values, so a view made again at a
    /// reload pulses on in step instead of entering anew. The rules stay this state's own.
    public mutating func continueFrom(_ old: FixState) {
        firstFixAt = old.firstFixAt
        lastFixAt = old.lastFixAt
        popStartedAt = old.popStartedAt
        accuracy = old.accuracy
        heading = old.heading
        headingShown = old.headingShown
        haloAllowed = old.haloAllowed
    }

    /// Forgets every fix (a reload that changed the source).
    public mutating func reset() {
        self = FixState(rules: rules)
    }

    public func phase(at now: Double) -> FixPhase {
        guard let lastFixAt else { return .nofix }
        return now - lastFixAt >= rules.staleAfter ? .stale : .live
    }

    /// 0 while live, rising linearly to 1 over `staleFade` once stale.
    public func staleness(at now: Double) -> Double {
        guard let lastFixAt, rules.staleAfter.isFinite else { return 0 }
        let into = now - (lastFixAt + rules.staleAfter)
        guard into > 0 else { return 0 }
        return rules.staleFade > 0 ? min(into / rules.staleFade, 1) : 1
    }

    /// Seconds since the dot first appeared (the animation clock), 0 before.
    public func clockTime(at now: Double) -> Double {
        firstFixAt.map { max(now - $0, 0) } ?? 0
    }

    /// The dot's look at `now`: the clock's halo, breath and pop with the truth applied. nil:
    /// draw nothing (no fix yet and `noFix = none`).
    public func appearance(at now: Double, clock: DotClock) -> DotAppearance? {
        guard let origin = firstFixAt else {
            guard rules.noFix == .ring else { return nil }
            var look = DotAppearance()
            look.ringOnly = true
            look.staleness = 1
            return look
        }
        let t = max(now - origin, 0)
        var look = clock.appearance(at: t, popStart: popStartedAt.map { $0 - origin })
        let stale = staleness(at: now)
        look.staleness = stale
        // The stale look fades the liveliness away with the colour: halo and breath stop.
        look.haloOpacity *= (1 - stale) * haloAllowed.value(at: now)
        look.dotSize = 1 + (look.dotSize - 1) * (1 - stale)
        look.dotOpacity = 1 + (look.dotOpacity - 1) * (1 - stale)
        let radius = accuracy.value(at: now)
        look.accuracyRadiusPx = radius >= rules.accuracyHiddenBelowPx ? radius : 0
        look.heading = headingShown && phase(at: now) == .live ? Self.normalised(heading.value(at: now)) : nil
        return look
    }

    /// Degrees into [0, 360).
    package static func normalised(_ degrees: Double) -> Double {
        var d = degrees
        while d >= 360 { d -= 360 }
        while d < 0 { d += 360 }
        return d
    }
}

/// A value that moves to a new target along a smoothstep (3u² − 2u³: no libm, zero speed at both
/// ends) over a fixed time, starting from wherever it was.
struct Eased: Sendable {
    var from: Double = 0
    var to: Double = 0
    var start: Double = 0
    var duration: Double = 0

    init(value: Double = 0) {
        from = value
        to = value
    }

    func value(at now: Double) -> Double {
        guard duration > 0, now < start + duration else { return to }
        let u = max(now - start, 0) / duration
        return from + (to - from) * (u * u * (3 - 2 * u))
    }

    mutating func move(to target: Double, at now: Double, over duration: Double) {
        move(from: value(at: now), to: target, at: now, over: duration)
    }

    mutating func move(from current: Double, to target: Double, at now: Double, over duration: Double) {
        from = current
        to = target
        start = now
        self.duration = duration
    }
}
