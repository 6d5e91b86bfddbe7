import Location
import Syscall

/// What the client last said about gpsd. The client reports a state only when it differs from the
/// previous one, so a gpsd that stays down is reported once, not once per retry.
public enum GPSDClientState: Equatable, Sendable {
    case stopped
    /// The first connection attempt is under way.
    case connecting
    /// Connecting failed; retrying with backoff.
    case unreachable(reason: String)
    /// gpsd answered (VERSION) with its release.
    case connected(release: String?)
    /// gpsd is up and answering but has no active receiver: healthy, just silent.
    case noReceiver
    /// gpsd reports these receivers active.
    case receiving(devices: [String])
    /// A working connection ended (EOF, error, silence); reconnecting with backoff.
    case lost(reason: String)
}

/// Coarse health for a status line: is gpsd there, and is a receiver feeding it?
public enum GPSDHealth: Equatable, Sendable {
    case unreachable
    case noReceiver
    case receiving
}

/// Everything the client tells its owner, in the order it happened.
public enum GPSDEvent: Equatable, Sendable {
    /// A state change and the one line to log for it (includes the retry delay where there is one).
    case stateChanged(GPSDClientState, message: String)
    /// A TPV with a position.
    case fix(Fix)
    /// A TPV without a position: the receiver has no fix now (mode 0/1) or sent no lat/lon.
    case noFix(TPVReport)
    case sky(SkyReport)
    case gst(GSTReport)
    /// Bad input from the peer or an ERROR from gpsd: the first line of each kind per connection;
    /// later ones are only counted.
    case warning(String)
}

/// Counters for the daemon's periodic log line.
public struct GPSDStatistics: Equatable, Sendable, CustomStringConvertible {
    public var connectionAttempts = 0
    public var connections = 0
    public var bytesReceived = 0
    public var linesReceived = 0
    public var fixes = 0
    public var tpvsWithoutFix = 0
    public var skipped = SkipCounts()

    public init() {}

    public var description: String {
        "attempts \(connectionAttempts), connections \(connections), bytes \(bytesReceived), "
            + "lines \(linesReceived), fixes \(fixes), no-fix TPVs \(tpvsWithoutFix), skipped: \(skipped)"
    }
}

/// `0.25 s`, `1.3 s`, `30 s`: a short human form for delays in log lines.
func formatSeconds(_ d: Duration) -> String {
    var ms = max(0, d.nanoseconds / 1_000_000)
    if ms >= 995 && ms < 1_000 { ms = 1_000 }
    if ms >= 10_000 { return "\(ms / 1000) s" }
    if ms >= 1_000 { return "\(ms / 1000).\(ms % 1000 / 100) s" }
    let hundredths = (ms + 5) / 10
    return "0.\(hundredths < 10 ? "0" : "")\(hundredths) s"
}
