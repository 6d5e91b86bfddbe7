import Glibc
import Syscall

/// A configuration that cannot be used, as one line naming where: `FILE:LINE: key = value: problem
/// (allowed …)` for a value, `FILE:LINE: problem` for a line that is no setting, `FILE: problem`
/// for a file that cannot be read, `--set key = value: problem` for an override.
public struct ConfigurationError: Error, Equatable, CustomStringConvertible, Sendable {
    public var file: String?
    public var line: Int?
    /// What is wrong, after the location.
    public let problem: String
    /// The underlying error when a key's value was refused.
    public let setting: SettingError?

    public init(file: String?, line: Int?, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
        setting = nil
    }

    public init(_ error: SettingError) {
        file = error.file
        line = error.line
        problem = "\(error.key) = \(error.value): \(error.problem)"
        setting = error
    }

    public var description: String {
        guard let file else { return "--set \(problem)" }
        return line.map { "\(file):\($0): \(problem)" } ?? "\(file): \(problem)"
    }
}

/// The configuration file and `--set` overrides turned into `Settings`.
///
/// The file is INI-like: `[section]` headers, `key = value` lines, blank lines, and comments on
/// lines of their own starting with `#` or `;` — nothing is a comment after a value, so
/// `annotationColor = #FF3B30` is a colour. Each key may appear once per file (a second one is an
/// error naming both lines, not a silent winner), and at most one of `[source]` `gpsd`, `position`
/// and `replay`. Overrides (`--set section.key=value`, a bare key meaning `[dot]`) are applied after
/// the file, in order, and win. Relative paths in the file are taken from the file's directory.
/// Then `validate` checks what no single line can: a map image with its bounds, and so on. Files
/// the settings name are not opened here (a replay, a feed or a tile set is only checked to be
/// there): the map's files and the dot's images are opened by their users (Scene's `MapFiles` and
/// `DotImages`: the daemon, the demo, check-config).
public struct Configuration: Sendable {
    public static let defaultPath = "/etc/pulsedot/pulsedot.conf"
    /// A configuration file is small; this refuses a wrong path such as a device or a log.
    static let maximumFileSize = 1 << 20

    public var settings: Settings
    /// The file that was read; nil when there was none (the defaults).
    public var file: String?
    /// How many `--set` overrides were applied.
    public var overrides: Int
    /// What to say once at start-up, such as "no configuration file …: using the defaults".
    public var notes: [String]
    /// The drop-ins read after `file` (`FILE.d/*.conf`), in the order they were read.
    public var dropIns: [String] = []

    /// The file's text as if read from `file` (which names it in errors and anchors its relative
    /// paths), then `overrides`, then the checks.
    public static func parse(_ text: String, file: String, overrides: [String] = []) throws(ConfigurationError) -> Configuration {
        var settings = Settings()
        try read(text, file: file, into: &settings)
        return try apply(settings, file: file, overrides: overrides)
    }

    /// One file's lines applied to `settings`, over what earlier files set: the checks that hold
    /// within a file (a key once, one source) are made here, the whole-configuration ones later.
    static func read(_ text: String, file: String, into settings: inout Settings) throws(ConfigurationError) {
        var section: String?
        var seen: [String: Int] = [:]
        // The [source] alternative this file chose, and where (`none` chooses nothing).
        var chosen: (name: String, line: Int)?
        var lineNumber = 0
        // By bytes: Swift's Characters would take "\r\n" as one and never split a DOS file.
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = trimmedLine(String(decoding: raw, as: UTF8.self))
            // Editors on other systems may start a file with a byte-order mark.
            if lineNumber == 1, line.hasPrefix("\u{FEFF}") { line = trimmed(String(line.dropFirst())) }
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            func fail(_ problem: String) -> ConfigurationError {
                ConfigurationError(file: file, line: lineNumber, problem: problem)
            }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    throw fail("\(line): not a section header (expected [name] alone on its line; comments go on lines of their own)")
                }
                let name = trimmed(String(line.dropFirst().dropLast()))
                guard SettingsTable.sections.contains(name) else {
                    throw fail("[\(name)]: unknown section (\(sectionHint(name)))")
                }
                section = name
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                throw fail("\(line): not a setting (expected [section], key = value, or a comment line starting with # or ;)")
            }
            let name = trimmed(String(line[..<eq]))
            let value = trimmed(String(line[line.index(after: eq)...]))
            guard !name.isEmpty else { throw fail("\(line): no key before = (expected key = value)") }
            guard let section else {
                throw fail("\(name): outside a section (put it under a header such as [dot] or [source])")
            }
            let origin = SettingOrigin(file: file, line: lineNumber)
            let qualified = section == "dot" ? name : "\(section).\(name)"
            if let first = seen[qualified] {
                throw fail("\(qualified): set twice (first at line \(first)); each key may appear once in a file")
            }
            let choosesSource = section == "source" && SourceSettings.alternatives.contains(name) && value != "none"
            if choosesSource, let chosen {
                throw fail("\(qualified): conflicts with \(chosen.name) at line \(chosen.line) ([source] takes one of gpsd, position or replay)")
            }
            do {
                try settings.set(section: section, name: name, value: value, origin: origin)
            } catch {
                throw ConfigurationError(withCommentHint(error))
            }
            seen[qualified] = lineNumber
            if choosesSource {
                chosen = (name, lineNumber)
                // The alternatives an earlier file chose are replaced, so they no longer come from there.
                for other in SourceSettings.alternatives where other != name { settings.origins["source.\(other)"] = nil }
            }
        }
    }

    /// The overrides, then the whole-configuration checks.
    static func apply(_ base: Settings, file: String?, overrides: [String]) throws(ConfigurationError) -> Configuration {
        var settings = base
        do {
            try settings.set(all: overrides)
            try validate(settings)
        } catch {
            throw ConfigurationError(error)
        }
        return Configuration(settings: settings, file: file, overrides: overrides.count, notes: [])
    }

    /// `#` after a value is part of the value: when that made it unusable, say why.
    private static func withCommentHint(_ error: SettingError) -> SettingError {
        guard error.value.contains(" #") || error.value.contains(" ;") else { return error }
        return SettingError(key: error.key, value: error.value,
                            problem: error.problem + "; comments go on lines of their own",
                            origin: SettingOrigin(file: error.file, line: error.line))
    }

    private static func sectionHint(_ name: String) -> String {
        let list = "sections: " + SettingsTable.sections.joined(separator: ", ")
        if let close = SettingsTable.sections.min(by: { editDistance($0, name.lowercased()) < editDistance($1, name.lowercased()) }),
           editDistance(close, name.lowercased()) <= 2 {
            return "did you mean [\(close)]? \(list)"
        }
        return list
    }

    /// Spaces, tabs and a DOS line end around a line.
    private static func trimmedLine(_ raw: String) -> String {
        var sub = Substring(raw)
        while let l = sub.last, l == " " || l == "\t" || l == "\r" { sub = sub.dropLast() }
        return trimmed(String(sub))
    }
}
