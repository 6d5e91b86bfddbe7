import Glibc

/// The process environment, read as Swift strings (systemd's NOTIFY_SOCKET, STATE_DIRECTORY, …).
public enum Environment {
    /// The value of the variable `name`; nil when it is not set. A variable set to the empty
    /// string is "", not nil: callers that treat both alike say so themselves.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
