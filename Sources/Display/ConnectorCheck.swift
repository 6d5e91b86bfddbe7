/// What a second look at the driven output found after a hot-plug event.
public enum ConnectorCheck: Sendable, Equatable {
    /// Still there, as it was.
    case connected
    /// Unplugged (or switched off at the source): nothing to show frames on.
    case disconnected
    /// The link failed (`link-status` BAD) and the mode was set again: the caller presents the
    /// whole canvas.
    case modesetAgain
}
