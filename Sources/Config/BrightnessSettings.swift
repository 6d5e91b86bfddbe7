/// The `[display]` keys of the backlight: a level, a dimmer one on a schedule, or the level
/// following an ambient-light sensor; all through /sys/class/backlight.
public struct BrightnessSettings: Equatable, Sendable {
    public enum Level: Equatable, Sendable {
        /// The backlight is not touched (the kernel's or another program's level stays).
        case untouched
        /// A fixed level, in percent of `max_brightness`.
        case percent(Double)
        /// The level `ambientCurve` gives for the sensor's light.
        case ambient
    }

    /// Spans of the day (as `blank` writes them) during which the level is at most `percent`.
    public struct Dimming: Equatable, Sendable {
        public var schedule: BlankSchedule
        public var percent: Double

        public init(schedule: BlankSchedule, percent: Double) {
            self.schedule = schedule
            self.percent = percent
        }
    }

    public var level: Level = .untouched
    public var dim: Dimming?
    /// The device's name in /sys/class/backlight; nil: the only (or first, by name) one there.
    public var backlight: String?
    /// The IIO device's name in /sys/bus/iio/devices (`iio:device0`); nil: the first with an
    /// illuminance channel.
    public var ambientSensor: String?
    public var ambientCurve = AmbientCurve.standard
    /// Time constant of the exponential smoothing between levels, in seconds; 0: no smoothing.
    public var smoothing: Double = 5

    public init() {}

    /// Whether the daemon drives the backlight at all.
    public var isActive: Bool { level != .untouched }
}

extension SettingsTable {
    static let brightnessKeys: [SettingKey] = [
        SettingKey(section: "display", name: "brightness", allowed: "percent 0–100, ambient, or none",
                   meaning: "the backlight's level in percent of its max_brightness (/sys/class/backlight); ambient: from the light sensor through ambientCurve; none: the backlight is left as it is",
                   parse: { text, s, _ throws(SettingProblem) in
                       switch text {
                       case "none": s.display.brightness.level = .untouched
                       case "ambient": s.display.brightness.level = .ambient
                       default:
                           do throws(SettingProblem) { s.display.brightness.level = .percent(try parsePercent(text)) } catch {
                               throw SettingProblem(error.text.hasPrefix("out of range") ? error.text
                                                    : "not a level (expected a percent from 0 to 100 such as 80 or 80%, ambient, or none)")
                           }
                       }
                   },
                   show: {
                       switch $0.display.brightness.level {
                       case .untouched: return "none"
                       case .ambient: return "ambient"
                       case .percent(let p): return formatNumber(p)
                       }
                   }),
        SettingKey(section: "display", name: "dim", allowed: "`HH:MM-HH:MM[,HH:MM-HH:MM…] PERCENT` in local time, or none",
                   meaning: "during these spans (written as for blank) the backlight is at most PERCENT, e.g. 21:00-06:30 20%; needs brightness",
                   parse: { text, s, _ throws(SettingProblem) in s.display.brightness.dim = try parseDimming(text) },
                   show: { d in d.display.brightness.dim.map { "\($0.schedule) \(formatNumber($0.percent))%" } ?? "none" }),
        deviceName("backlight", under: "/sys/class/backlight", example: "10-0045",
                   meaning: "which backlight brightness drives: its name in /sys/class/backlight (`pulsedot backlight` lists them); auto: the only one, or the first by name",
                   { $1(&$0.display.brightness.backlight) }),
        deviceName("ambientSensor", under: "/sys/bus/iio/devices", example: "iio:device0",
                   meaning: "the light sensor brightness = ambient follows: an IIO device with in_illuminance_input, or in_illuminance_raw (× in_illuminance_scale); auto: the first that has one",
                   { $1(&$0.display.brightness.ambientSensor) }),
        SettingKey(section: "display", name: "ambientCurve", allowed: "`LUX:PERCENT[,LUX:PERCENT…]`, lux increasing",
                   meaning: "the level for the sensor's light: straight lines between the points, the end points' levels beyond them",
                   parse: { text, s, _ throws(SettingProblem) in s.display.brightness.ambientCurve = try parseAmbientCurve(text) },
                   show: { $0.display.brightness.ambientCurve.description }),
        duration(section: "display", "brightnessSmoothing", .closed(0, 600),
                 "time constant of the exponential smoothing between backlight levels (a sensor's flicker, a dimming edge); 0: jump at once; the backlight is written only when the whole percent changes",
                 { $1(&$0.display.brightness.smoothing) }),
    ]

    /// A device's name in a sysfs class folder, or auto (nil).
    static func deviceName(_ name: String, under folder: String, example: String, meaning: String,
                           _ path: @escaping Path<String?>) -> SettingKey {
        SettingKey(section: "display", name: name, allowed: "a name in \(folder), or auto", meaning: meaning,
                   parse: { text, s, _ throws(SettingProblem) in
                       if text == "auto" { path(&s) { $0 = nil }; return }
                       guard !text.isEmpty, text != ".", text != "..",
                             !text.contains(where: { $0 == "/" || $0 == " " || $0 == "\t" }) else {
                           throw SettingProblem("not a device name (expected a name in \(folder) such as \(example), or auto)")
                       }
                       path(&s) { $0 = text }
                   },
                   show: { read($0, path) ?? "auto" })
    }
}

/// The spans as `blank` takes them, then the level after the last space: `21:00-06:30 20%`.
func parseDimming(_ text: String) throws(SettingProblem) -> BrightnessSettings.Dimming? {
    if text == "none" { return nil }
    guard let space = text.lastIndex(where: { $0 == " " || $0 == "\t" }) else {
        throw SettingProblem("no level (expected spans then a percent, e.g. 21:00-06:30 20%, or none)")
    }
    let spans = trimmed(String(text[..<space]))
    let percent: Double
    do throws(SettingProblem) { percent = try parsePercent(String(text[text.index(after: space)...])) } catch {
        throw SettingProblem("the level after the spans: \(error.text) (e.g. 21:00-06:30 20%)")
    }
    let schedule = try parseBlankSchedule(spans)
    guard !schedule.spans.isEmpty else { throw SettingProblem("no spans before the level (none alone turns dimming off)") }
    return .init(schedule: schedule, percent: percent)
}
