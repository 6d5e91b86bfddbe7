import Config
import Glibc

/// The level the backlight should have at a moment: the configured level (or the curve's for
/// the light), at most the dimming level during its spans, approached by exponential smoothing
/// so a flickering sensor or a dimming edge never jumps the screen. Pure: the time of day, the
/// light and the clock are handed in.
public struct BrightnessPlan: Sendable {
    public let settings: BrightnessSettings
    /// The smoothed level and when it was reached (monotonic seconds); nil before the first.
    public private(set) var smoothed: Double?
    private var smoothedAt = 0.0

    public init(settings: BrightnessSettings) { self.settings = settings }

    /// The level wanted now, before smoothing; nil when the backlight is not driven. Without any
    /// reading of the sensor yet the curve's brightest level stands in: a screen must be
    /// readable before it is comfortable.
    public static func target(_ settings: BrightnessSettings, minuteOfDay: Int, lux: Double?) -> Double? {
        var level: Double
        switch settings.level {
        case .untouched: return nil
        case .percent(let p): level = p
        case .ambient:
            if let lux { level = settings.ambientCurve.percent(lux: lux) }
            else { level = settings.ambientCurve.points.map({ $0.percent }).max() ?? 100 }
        }
        if let dim = settings.dim, dim.schedule.blanks(minuteOfDay: minuteOfDay) { level = min(level, dim.percent) }
        return level
    }

    /// Moves the smoothed level toward `target` for the time since the last call and returns it
    /// in whole percent: the unit the backlight is written in, so it is written only when that
    /// changes. The first call takes the target as it is.
    public mutating func advance(toward target: Double, at now: Double) -> Int {
        guard let last = smoothed, settings.smoothing > 0 else {
            smoothed = target
            smoothedAt = now
            return Self.whole(target)
        }
        let elapsed = max(0, now - smoothedAt)
        let next = last + (target - last) * (1 - exp(-elapsed / settings.smoothing))
        // Within half a percent the rounding already shows the target: take it, so the level
        // settles instead of creeping toward it forever.
        smoothed = abs(next - target) < 0.5 ? target : next
        smoothedAt = now
        return Self.whole(smoothed!)
    }

    /// Forgets the smoothed level: the next one is taken as it is (after the night, a reload).
    public mutating func restart() { smoothed = nil }

    static func whole(_ percent: Double) -> Int { Int(max(0, min(100, percent)).rounded()) }
}
