import Raster

/// A display's error as one concrete type: what a caller holding any display catches. It keeps
/// the display's own line and recovery, so the log and the retry decision are the same as if
/// the display's error had been caught directly.
public struct DisplayFailure: DisplayError {
    public let description: String
    public let recovery: Recovery

    public init(description: String, recovery: Recovery) {
        self.description = description
        self.recovery = recovery
    }

    public init<E: DisplayError>(_ error: E) {
        self.init(description: error.description, recovery: error.recovery)
    }
}

extension DisplayFailure {
    /// Runs `body`, a display's own work, and throws its error as a `DisplayFailure` with the
    /// same line and recovery: how an output's calls meet the one error type of the seam.
    @inline(__always)
    public static func from<T, E: DisplayError>(_ body: () throws(E) -> T) throws(DisplayFailure) -> T {
        do { return try body() } catch { throw DisplayFailure(error) }
    }
}
