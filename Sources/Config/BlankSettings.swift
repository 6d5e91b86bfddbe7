/// Night blanking: when the screen is off, in local time, and what runs at each edge.
public struct BlankSchedule: Equatable, Sendable, CustomStringConvertible {
    /// From `start` up to (not including) `end`, in minutes after local midnight (`end` may be
    /// 1440, midnight at the end of the day); a span whose end is before its start crosses midnight.
    public struct Span: Equatable, Sendable {
        public var start: Int
        public var end: Int

        public init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }

        public func contains(minuteOfDay m: Int) -> Bool {
            start < end ? m >= start && m < end : m >= start || m < end
        }
    }

    public var spans: [Span] = []

    public init(spans: [Span] = []) { self.spans = spans }

    /// Whether the screen is off at `minuteOfDay` (0 ..< 1440) of the local day.
    public func blanks(minuteOfDay m: Int) -> Bool { spans.contains { $0.contains(minuteOfDay: m) } }

    public var description: String {
        spans.isEmpty ? "none" : spans.map { Self.clock($0.start) + "-" + Self.clock($0.end) }.joined(separator: ",")
    }

    static func clock(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
    }
}

/// The `[display]` keys of night blanking.
public struct BlankingSettings: Equatable, Sendable {
    public var schedule = BlankSchedule()
    /// Run (by /bin/sh -c) as the screen goes off and as it comes back: for what DPMS cannot
    /// reach, such as a TV over CEC or a backlight. nil: nothing.
    public var blankCommand: String?
    public var unblankCommand: String?

    public init() {}
}

extension SettingsTable {
    static let blankKeys: [SettingKey] = [
        SettingKey(section: "display", name: "blank", allowed: "`HH:MM-HH:MM[,HH:MM-HH:MM…]` in local time, or none",
                   meaning: "when the screen is switched off (DPMS Off, FBIOBLANK, else black), e.g. 23:00-05:30; a span may cross midnight; fixes are still taken and the watchdog fed; the dot comes back with its entrance pop",
                   parse: { text, s, _ throws(SettingProblem) in s.display.blanking.schedule = try parseBlankSchedule(text) },
                   show: { $0.display.blanking.schedule.description }),
        command("blankCommand", "a command run by /bin/sh as the screen goes off (a TV over CEC; a backlight has brightness and dim); none: nothing",
                { $1(&$0.display.blanking.blankCommand) }),
        command("unblankCommand", "a command run by /bin/sh as the screen comes back on; none: nothing",
                { $1(&$0.display.blanking.unblankCommand) }),
    ]

    static func command(_ name: String, _ meaning: String, _ path: @escaping Path<String?>) -> SettingKey {
        SettingKey(section: "display", name: name, allowed: "a shell command line, or none", meaning: meaning,
                   parse: { text, s, _ throws(SettingProblem) in
                       guard !text.isEmpty else { throw SettingProblem("empty command (expected a command line, or none)") }
                       path(&s) { $0 = text == "none" ? nil : text }
                   },
                   show: { read($0, path) ?? "none" })
    }
}

/// `HH:MM-HH:MM` spans separated by commas; `none` for no blanking. 24:00 may end a span.
func parseBlankSchedule(_ text: String) throws(SettingProblem) -> BlankSchedule {
    if text == "none" { return BlankSchedule() }
    var spans: [BlankSchedule.Span] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        let span = trimmed(String(part))
        let ends = span.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let start = clockMinutes(String(ends[0]), allowEndOfDay: false),
              let end = clockMinutes(String(ends[1]), allowEndOfDay: true) else {
            throw SettingProblem("not a time span: '\(span)' (expected HH:MM-HH:MM in local time, e.g. 23:00-05:30, spans separated by commas, or none)")
        }
        guard start != end else { throw SettingProblem("'\(span)' is empty (start and end are the same time)") }
        spans.append(.init(start: start, end: end))
    }
    return BlankSchedule(spans: spans)
}

private func clockMinutes(_ text: String, allowEndOfDay: Bool) -> Int? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
          parts[0].allSatisfy({ $0.isASCII }), parts[1].allSatisfy({ $0.isASCII }),
          let h = Int(parts[0]), let m = Int(parts[1]), m >= 0, m < 60 else { return nil }
    if allowEndOfDay && h == 24 && m == 0 { return 1440 }
    guard h >= 0, h < 24 else { return nil }
    return h * 60 + m
}
