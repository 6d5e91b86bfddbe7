import Syscall

/// The daemon's log: one line per event on stderr, each prefixed with its syslog priority (`<3>`
/// error … `<7>` debug) so the journal files it at the right level, and filtered by `[log] level`.
///
/// A retry loop says a problem once: lines given a `topic` are dropped while they repeat the last
/// line of that topic word for word ("waiting for display …" every two seconds would bury
/// everything else), and the next different line on that topic is written as usual.
public final class Journal {
    public var level: LogLevel
    private let sink: (String) -> Void
    /// The last line written per topic.
    private var lastByTopic: [String: String] = [:]

    /// `sink` receives whole lines with their prefix and newline; the default writes to stderr.
    public init(level: LogLevel = .info, sink: ((String) -> Void)? = nil) {
        self.level = level
        self.sink = sink ?? Journal.writeStandardError
    }

    public func error(_ text: String, topic: String? = nil) { say(.error, text, topic: topic) }
    public func warning(_ text: String, topic: String? = nil) { say(.warning, text, topic: topic) }
    public func notice(_ text: String, topic: String? = nil) { say(.notice, text, topic: topic) }
    public func info(_ text: String, topic: String? = nil) { say(.info, text, topic: topic) }
    public func debug(_ text: String, topic: String? = nil) { say(.debug, text, topic: topic) }

    public func say(_ level: LogLevel, _ text: String, topic: String? = nil) {
        guard level <= self.level else { return }
        if let topic {
            if lastByTopic[topic] == text { return }
            lastByTopic[topic] = text
        }
        sink("<\(level.syslogPriority)>\(Self.oneLine(text))\n")
    }

    /// `text` as one journal line: a newline would start a second entry (one that could pass for
    /// the daemon's own), so it becomes a space; a carriage return, NUL, escape or other control
    /// character — from a configuration value, a file name, a server's reply — is written as
    /// `\xNN`, so no line can be forged or hidden on a terminal.
    public static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += " "
            case 0x09: out += "\t"
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef")
                out += "\\x" + String(hex[Int(scalar.value >> 4)]) + String(hex[Int(scalar.value & 0xF)])
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Forgets what `topic` said last, so its next line is written even if it repeats (the problem
    /// went away and came back).
    public func clear(topic: String) { lastByTopic[topic] = nil }

    static func writeStandardError(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            // A log line that cannot be written (stderr closed) must not stop the daemon.
            _ = try? FileDescriptor(rawValue: 2, name: "stderr").write(UnsafeRawBufferPointer(bytes))
        }
    }
}
