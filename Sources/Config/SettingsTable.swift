import LocationDot
import Raster

/// One configurable key: where it lives, what it means, what it accepts, and how to read and show
/// it. The table of these is the single source of truth for `--set`, the configuration file, the
/// error messages, check-config's listing and the README's key table.
public struct SettingKey: Sendable {
    public let section: String
    public let name: String
    /// What values are accepted, for people ("colour", "0 ≤ value < 11").
    public let allowed: String
    public let meaning: String
    let parse: @Sendable (String, inout Settings, SettingOrigin) throws(SettingProblem) -> Void
    let show: @Sendable (Settings) -> String

    /// As written after `--set`: bare for `[dot]`, `section.name` otherwise.
    public var qualifiedName: String { section == "dot" ? name : "\(section).\(name)" }
    /// The default, as a configuration file would write it (read from `Settings()`, so it cannot
    /// drift from the code).
    public var defaultText: String { show(Settings()) }
}

public enum SettingsTable {
    /// Sections in the order the README and check-config list them.
    public static let sections = ["dot", "source", "display", "map", "log", "metrics", "transit", "realtime", "kiosk"]

    public static func key(section: String, name: String) -> SettingKey? {
        keys.first { $0.section == section && $0.name == name }
    }

    public static func keys(in section: String) -> [SettingKey] { keys.filter { $0.section == section } }

    /// The README's table of keys of one section (Markdown), generated from this table.
    public static func markdown(section: String) -> String {
        var text = "| key | default | allowed | meaning |\n|---|---|---|---|\n"
        for k in keys(in: section) {
            text += "| `\(k.name)` | `\(k.defaultText)` | \(cell(k.allowed)) | \(cell(k.meaning)) |\n"
        }
        return text
    }

    /// A table cell: a `|` would end it early.
    static func cell(_ text: String) -> String {
        var out = ""
        for c in text { if c == "|" { out += "\\|" } else { out.append(c) } }
        return out
    }

    /// The keys whose values differ between two settings, in the table's order.
    public static func changedKeys(from old: Settings, to new: Settings) -> [SettingKey] {
        keys.filter { $0.show(old) != $0.show(new) }
    }

    /// The sections any of whose keys differ, in the table's order (a reload's one line).
    public static func changedSections(from old: Settings, to new: Settings) -> [String] {
        let changed = Set(changedKeys(from: old, to: new).map { $0.section })
        return sections.filter { changed.contains($0) }
    }

    /// Whether any key of `sections` differs: what a part of the daemon that reads only those
    /// sections asks before it rebuilds anything.
    public static func differ(_ old: Settings, _ new: Settings, in sections: [String]) -> Bool {
        keys.contains { sections.contains($0.section) && $0.show(old) != $0.show(new) }
    }

    static func unknownKeyProblem(section: String, name: String) -> String {
        // The right key in the wrong section is the likelier mistake than a typo.
        let elsewhere = keys.filter { $0.section != section && $0.name.lowercased() == name.lowercased() }.map { "[\($0.section)]" }
        if !elsewhere.isEmpty {
            return "unknown property: \(name) is a key of \(elsewhere.joined(separator: " and ")), not of [\(section)]"
        }
        let names = keys(in: section).map({ $0.name })
        if let close = names.min(by: { editDistance($0.lowercased(), name.lowercased()) < editDistance($1.lowercased(), name.lowercased()) }),
           editDistance(close.lowercased(), name.lowercased()) <= 2 {
            return "unknown property (did you mean \(close)?)"
        }
        return "unknown property (the [\(section)] section has: \(names.joined(separator: ", ")))"
    }

    // MARK: The table

    public static let keys: [SettingKey] = dotKeys + sourceKeys + displayKeys + blankKeys + brightnessKeys + mapKeys + tileKeys + logKeys + metricsKeys + transitKeys + realtimeKeys + kioskKeys

    static let dotKeys: [SettingKey] = [
        color("annotationColor", "colour of the inner dot, and tint of `image` and `headingImage`", { $1(&$0.dot.style.annotationColor) }),
        optionalColor("pulseColor", fallback: "annotationColor", "colour of the halo disc", { $1(&$0.dot.style.pulseColor) }),
        color("outerColor", "colour of the ring disc behind the dot", { $1(&$0.dot.style.outerColor) }),
        number("outerDotAlpha", .closed(0, 1), "opacity of the ring disc and its shadow, together", { $1(&$0.dot.style.outerDotAlpha) }),
        mask("image", "PNG with an alpha channel drawn instead of the inner dot: its alpha is the shape, filled with annotationColor; its size in points is its pixel size ÷ imageScale",
             { $1(&$0.dot.imagePath) }),
        number("imageScale", .above(0), "pixels per point of the `image` and `headingImage` PNGs (2 for an @2x asset)", { $1(&$0.dot.style.imageScale) }),
        mask("headingImage", "PNG with an alpha channel drawn beneath everything, tinted like `image`, turned clockwise to the course over ground",
             { $1(&$0.dot.headingImagePath) }),
        duration("pulseAnimationDuration", .above(0), "half-period of the inner dot's breath", { $1(&$0.dot.style.pulseAnimationDuration) }),
        duration("outerPulseAnimationDuration", .above(0), "time for the halo to grow from nothing to full size", { $1(&$0.dot.style.outerPulseAnimationDuration) }),
        duration("delayBetweenPulseCycles", .atLeast(0), infinity: true,
                 "pause added to each halo cycle; the breath runs only when it is between 0 and inf; `inf` turns halo and breath off (0 with pulseAnimationDuration 1.5 is the stock iOS look)",
                 { $1(&$0.dot.style.delayBetweenPulseCycles) }),
        number("pulseScaleFactor", .above(0), "halo diameter = 22 pt × this (5.3: 116.6 pt)", { $1(&$0.dot.style.pulseScaleFactor) }),
        number("colorDotInset", .halfOpen(0, 11), "inner dot diameter = 22 − 2 × this, in points (the visible white ring)", { $1(&$0.dot.style.colorDotInset) }),
        color("shadowColor", "colour of the ring disc's drop shadow", { $1(&$0.dot.style.shadowColor) }),
        SettingKey(section: "dot", name: "shadowOffset", allowed: "`X,Y` in points", meaning: "offset of the drop shadow (y grows downward)",
                   parse: { text, s, _ throws(SettingProblem) in
                       let p = try parsePoint(text)
                       s.dot.style.shadowOffsetX = p.x
                       s.dot.style.shadowOffsetY = p.y
                   },
                   show: { "\(formatNumber($0.dot.style.shadowOffsetX)),\(formatNumber($0.dot.style.shadowOffsetY))" }),
        number("shadowRadius", .atLeast(0), "blur of the drop shadow in points (Gaussian σ)", { $1(&$0.dot.style.shadowRadius) }),
        number("shadowOpacity", .closed(0, 1), "opacity of the drop shadow", { $1(&$0.dot.style.shadowOpacity) }),
        SettingKey(section: "dot", name: "scale", allowed: "value > 0, or auto", meaning: "pixels per point of the display; auto: 1 below 720 display lines, 2 from 720, 3 from 1440",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.dot.scale = text == "auto" ? nil : try parseNumber(text, range: .above(0))
                   },
                   show: { $0.dot.scale.map(formatNumber) ?? "auto" }),
        optionalColor("accuracyColor", fallback: "annotationColor", "colour of the accuracy disc", { $1(&$0.dot.style.accuracyColor) }),
        number("accuracyAlpha", .closed(0, 1), "opacity of the accuracy disc", { $1(&$0.dot.style.accuracyAlpha) }),
        number("hideHaloAboveError", .atLeast(0), unit: "metres", "hide the halo when the horizontal error exceeds this; 0 = never hide", { $1(&$0.dot.hideHaloAboveError) }),
        number("headingMinSpeed", .atLeast(0), unit: "m/s", "below this speed the course is not trusted and no heading is drawn", { $1(&$0.dot.headingMinSpeed) }),
        color("staleColor", "colour dot and halo fade to when the fix is stale", { $1(&$0.dot.style.staleColor) }),
        SettingKey(section: "dot", name: "noFix", allowed: "none, ring", meaning: "what shows before the first fix: nothing, or a grey ring without dot",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.dot.noFix = try parseChoice(text, NoFixLook.allCases.map { ($0.rawValue, $0) })
                   },
                   show: { $0.dot.noFix.rawValue }),
    ]

    // MARK: Builders (one line per key above)

    /// Where a key's value lives in `Settings`: the closure hands that field to its second
    /// argument to read or change (`{ $1(&$0.display.fps) }`). A closure, not a key path, so the
    /// table compiles as Embedded Swift.
    typealias Path<T> = @Sendable (inout Settings, (inout T) -> Void) -> Void

    /// The value at `path` in `settings`.
    static func read<T>(_ settings: Settings, _ path: Path<T>) -> T {
        var copy = settings
        var value: T?
        path(&copy) { value = $0 }
        return value!
    }

    static func color(section: String = "dot", _ name: String, _ meaning: String, _ path: @escaping Path<Color>) -> SettingKey {
        SettingKey(section: section, name: name, allowed: "colour `#RRGGBB` or `#RRGGBBAA`", meaning: meaning,
                   parse: { text, s, _ throws(SettingProblem) in let v = try parseColor(text); path(&s) { $0 = v } },
                   show: { formatColor(read($0, path)) })
    }

    static func optionalColor(section: String = "dot", _ name: String, fallback: String, _ meaning: String, _ path: @escaping Path<Color?>) -> SettingKey {
        SettingKey(section: section, name: name, allowed: "colour, or \(fallback)", meaning: meaning,
                   parse: { text, s, _ throws(SettingProblem) in
                       let v = text == fallback ? nil : try parseColor(text)
                       path(&s) { $0 = v }
                   },
                   show: { read($0, path).map(formatColor) ?? fallback })
    }

    /// A colour that must be opaque (a map's, a route's: nothing shows through it).
    static func opaqueColor(section: String, _ name: String, _ meaning: String, _ path: @escaping Path<Color>) -> SettingKey {
        SettingKey(section: section, name: name, allowed: "opaque colour `#RRGGBB`", meaning: meaning,
                   parse: { text, s, _ throws(SettingProblem) in
                       let c = try parseColor(text)
                       guard c.a == 255 else { throw SettingProblem("must be opaque (expected #RRGGBB, or alpha FF)") }
                       path(&s) { $0 = c }
                   },
                   show: { formatColor(read($0, path)) })
    }

    static func number(section: String = "dot", _ name: String, _ range: NumberRange, unit: String? = nil, _ meaning: String, _ path: @escaping Path<Double>) -> SettingKey {
        SettingKey(section: section, name: name, allowed: unit.map { "\(range.text) (\($0))" } ?? range.text, meaning: meaning,
                   parse: { text, s, _ throws(SettingProblem) in
                       let v = try parseNumber(text, range: range, unit: unit)
                       path(&s) { $0 = v }
                   },
                   show: { formatNumber(read($0, path)) })
    }

    static func duration(section: String = "dot", _ name: String, _ range: NumberRange, infinity: Bool = false, _ meaning: String, _ path: @escaping Path<Double>) -> SettingKey {
        SettingKey(section: section, name: name, allowed: "seconds, \(range.text)" + (infinity ? ", or inf" : ""), meaning: meaning,
                   parse: { text, s, _ throws(SettingProblem) in
                       let v = try parseDuration(text, range: range, allowInfinity: infinity)
                       path(&s) { $0 = v }
                   },
                   show: { formatNumber(read($0, path)) })
    }

    /// A PNG's path: decoded (and its alpha channel checked) by the users of the settings
    /// (`DotImages` in Scene), not here.
    static func mask(section: String = "dot", _ name: String, _ meaning: String, _ path: @escaping Path<String?>) -> SettingKey {
        SettingKey(section: section, name: name, allowed: "PNG path with alpha, or none", meaning: meaning,
                   parse: { text, s, origin throws(SettingProblem) in
                       guard !text.isEmpty else { throw SettingProblem("empty path (expected a PNG file with an alpha channel, or none)") }
                       let value = text == "none" ? nil : resolvePath(text, origin: origin)
                       path(&s) { $0 = value }
                   },
                   show: { read($0, path) ?? "none" })
    }
}

/// Levenshtein distance, for "did you mean" on a mistyped key.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8), b = Array(b.utf8)
    if a.isEmpty { return b.count }
    var row = Array(0...b.count)
    for i in 1...a.count {
        var previous = row[0]
        row[0] = i
        for j in stride(from: 1, through: b.count, by: 1) {
            let old = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
            previous = old
        }
    }
    return row[b.count]
}
