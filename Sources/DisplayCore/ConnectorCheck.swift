/// What a second look at the driven output found after a hot-plug event.
public enum ConnectorCheck: Sendable, Equatable {
    /// Still there, as it was.
    case connected
    /// Unplugged (or switched off at the source): nothing to show frames on.
    case disconnected
    /// The link failed (`link-status` BAD), or the connector is back after being unplugged, and
    /// the mode was set again: the caller presents the whole canvas.
    case modesetAgain
    /// Back after being unplugged, but the monitor there now does not offer the mode driven (a
    /// different one): the caller opens the display anew.
    case modeGone
}
