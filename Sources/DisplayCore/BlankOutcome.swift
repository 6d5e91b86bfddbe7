/// How a display went dark for night blanking.
public enum BlankOutcome: Sendable, Equatable {
    /// The panel itself is off (DPMS Off, FBIOBLANK powerdown): near-zero light and power.
    case poweredDown
    /// It could not be switched off, so it shows black; `reason` says why, for the log (once).
    case black(reason: String)
    /// There is no panel (files, `none`): frames simply stop.
    case nothingToSwitch
}
