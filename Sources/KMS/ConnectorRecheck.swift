import DisplayCore

/// What a look at the driven connector after a uevent found, before an output acts on it: the
/// same for the legacy and the atomic output, which differ only in how they set the mode again.
enum ConnectorRecheck {
    /// Nothing to do: `check` is the answer (connected as before, gone, or without the mode).
    case settled(ConnectorCheck)
    /// The monitor is back or its link failed: set `mode` (its own timings for the mode driven)
    /// again, then present the whole canvas.
    case setAgain(DisplayMode)

    /// Reads the connector's state from `card`. `unplugged` records a disconnection seen, so the
    /// return of a monitor is told from a connector that never went away.
    static func look(at connector: ConnectorInfo, on card: DRMCard, driving mode: DisplayMode,
                     unplugged: inout Bool) throws(KMSError) -> ConnectorRecheck {
        let now: ConnectorState
        do { now = try card.connectorState(connector.id) } catch { throw KMSError.classify(error, device: card.path) }
        if now.state == .disconnected {
            unplugged = true
            return .settled(.disconnected)
        }
        guard now.linkBad || unplugged else { return .settled(.connected) }
        // The monitor there now may be another: its own timings for the mode driven, if it has it.
        let same = now.modes.first { $0.width == mode.width && $0.height == mode.height && $0.refreshMilliHz == mode.refreshMilliHz }
        guard let same else { return .settled(.modeGone) }
        return .setAgain(same)
    }
}
