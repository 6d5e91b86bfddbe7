import Systemd
/// The `[log]` section.
public struct LogSettings: Sendable {
    public var level: LogLevel = .info
    /// Seconds between summary lines (frame rate, frame times, fix age, reconnects); 0: none.
    public var summaryEvery: Double = 60

    public init() {}

    /// Whether a message at `level` is written.
    public func says(_ level: LogLevel) -> Bool { level <= self.level }
}

extension SettingsTable {
    static let logKeys: [SettingKey] = [
        SettingKey(section: "log", name: "level", allowed: "error, warning, notice, info, debug",
                   meaning: "the least important messages written (each level includes those before it)",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.log.level = try parseChoice(text, LogLevel.allCases.map { ($0.rawValue, $0) })
                   },
                   show: { $0.log.level.rawValue }),
        duration(section: "log", "summaryEvery", .atLeast(0),
                 "seconds between summary lines (frame rate, frame times, fix age, reconnects); 0: none", { $1(&$0.log.summaryEvery) }),
    ]
}
