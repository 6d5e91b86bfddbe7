import LocationDot
import Raster

/// Everything a user can configure, with its defaults. Issue 5's configuration file and every
/// command's `--set` write into one of these through `SettingsTable`; nothing else parses values.
public struct Settings: Sendable {
    public var dot = DotSettings()
    public var source = SourceSettings()
    public var display = DisplaySettings()
    public var map = MapSettings()
    public var log = LogSettings()
    public var metrics = MetricsSettings()
    public var transit = TransitSettings()
    public var realtime = RealtimeSettings()
    public var kiosk = KioskSettings()
    /// Where each key was last set (by `qualifiedName`): the lines that whole-configuration
    /// checks name, and how they tell a key given from one left at its default.
    public internal(set) var origins: [String: SettingOrigin] = [:]

    public init() {}
}

/// The `[dot]` section: the look (a `DotStyle`) plus what the daemon decides about the dot.
public struct DotSettings: Sendable {
    public var style = DotStyle()
    /// Pixels per point; nil: chosen from the display (1 below 720 lines, 2 from 720, 3 from 1440).
    public var scale: Double? = nil
    /// The PNGs `style.image` and `style.headingImage` are decoded from, by the users of the
    /// settings (`DotImages.load` in Scene); parsing leaves those two nil.
    public var imagePath: String? = nil
    public var headingImagePath: String? = nil
    /// Above this horizontal error (metres) the halo is hidden; 0 = never hide.
    public var hideHaloAboveError: Double = 10
    /// Below this speed (m/s) the course is not trusted and no heading is drawn.
    public var headingMinSpeed: Double = 1.0
    public var noFix: NoFixLook = .none

    public init() {}

    /// The scale for a display of `lines` physical lines when none was configured.
    public func scale(forDisplayLines lines: Int) -> Double {
        if let scale { return scale }
        return lines >= 1440 ? 3 : lines >= 720 ? 2 : 1
    }
}

/// What the screen shows before the first fix.
public enum NoFixLook: String, Sendable, CaseIterable {
    /// Nothing but the map.
    case none
    /// A grey ring without the inner dot (and no halo).
    case ring
}

extension Settings {
    /// Applies one `--set KEY=VALUE` (a bare key is in `[dot]`; `section.key` reaches the others).
    public mutating func set(_ assignment: String, origin: SettingOrigin = .commandLine) throws(SettingError) {
        guard let eq = assignment.firstIndex(of: "=") else {
            throw SettingError(key: trimmed(assignment), value: "", problem: "expected KEY=VALUE (e.g. colorDotInset=3)", origin: origin)
        }
        let key = trimmed(String(assignment[..<eq]))
        let value = trimmed(String(assignment[assignment.index(after: eq)...]))
        var section = "dot", name = key
        if let dot = key.firstIndex(of: ".") {
            section = String(key[..<dot])
            name = String(key[key.index(after: dot)...])
        }
        try set(section: section, name: name, value: value, origin: origin)
    }

    /// Applies `name = value` of `[section]`: what the configuration file loader calls per line.
    public mutating func set(section: String, name: String, value: String, origin: SettingOrigin = .commandLine) throws(SettingError) {
        let shown = section == "dot" ? name : "\(section).\(name)"
        guard SettingsTable.sections.contains(section) else {
            throw SettingError(key: shown, value: value,
                               problem: "unknown section [\(section)] (sections: \(SettingsTable.sections.joined(separator: ", ")))",
                               origin: origin)
        }
        guard let key = SettingsTable.key(section: section, name: name) else {
            throw SettingError(key: shown, value: value, problem: SettingsTable.unknownKeyProblem(section: section, name: name), origin: origin)
        }
        do {
            try key.parse(value, &self, origin)
        } catch {
            throw SettingError(key: shown, value: value, problem: error.text, origin: origin)
        }
        origins[key.qualifiedName] = origin
    }

    /// Applies every `--set` in order (later ones win).
    public mutating func set(all assignments: [String]) throws(SettingError) {
        for a in assignments { try set(a) }
    }

    /// The current value of `key` as it would be written in a configuration file.
    public func value(of key: SettingKey) -> String { key.show(self) }

    /// `problem` with the key `qualified` (as `--set` writes it) where it was set: its file and
    /// line, or `--set`. For checks made after parsing, by Config and by the users of the files
    /// the settings name, so every refusal reads the same.
    public func failure(_ qualified: String, _ problem: String) -> SettingError {
        let key = SettingsTable.keys.first { $0.qualifiedName == qualified }!
        return SettingError(key: qualified, value: value(of: key), problem: problem, origin: origins[qualified] ?? .commandLine)
    }
}

extension Settings {
    /// A colour option of a command (`--background`), with the settings' parser and message.
    public static func color(_ text: String, option: String) throws(SettingError) -> Color {
        do { return try parseColor(text) } catch { throw SettingError(key: option, value: text, problem: error.text) }
    }
}
