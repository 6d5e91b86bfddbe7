/// How much the daemon says, from least to most. The names are syslog's, which the journal shows.
public enum LogLevel: String, Sendable, CaseIterable, Comparable {
    case error, warning, notice, info, debug

    /// `level >= .info`: a message at `info` is written when the configured level is `info` or `debug`.
    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rank < b.rank }

    private var rank: Int { Self.allCases.firstIndex(of: self)! }

    /// The syslog priority (3 error … 7 debug), for journal prefixes such as `<6>`.
    public var syslogPriority: Int { rank + 3 }
}
