/// What a caller does about a display that cannot be driven: every display's errors answer this
/// one question, so the daemon and `show` decide retries in one place.
public enum Recovery: Sendable, Equatable {
    /// Configuration or hardware that waiting will not change: `show` stops; the daemon still
    /// waits, longer, since a panel plugged in later may take the configuration.
    case giveUp
    /// Try the same again later (display unplugged, device busy or not there yet).
    case retry
    /// Look for the device again (it vanished; it may come back under another number).
    case findDeviceAgain

    /// How long the daemon waits before opening the display again.
    public var retryDelay: Duration { self == .giveUp ? .seconds(10) : .seconds(2) }

    /// Whether waiting can help.
    public var isTransient: Bool { self != .giveUp }

    #if !hasFeature(Embedded)
    /// The recovery of any error a display throws; errors of no display are not waited out.
    public static func of(_ error: any Error) -> Recovery {
        (error as? any DisplayError)?.recovery ?? .giveUp
    }
    #endif
}

/// An error a display throws: one line a person can act on, and what to do about it.
public protocol DisplayError: Error, CustomStringConvertible {
    var recovery: Recovery { get }
}
