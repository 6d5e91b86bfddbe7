/// What the screen is doing, as the metrics' `pulsedot_display_state{state=…}` and `pulsedot
/// status` name it.
public enum DisplayState: String, CaseIterable, Sendable {
    /// No display yet (none found, taken by another master, refused the configuration).
    case waiting
    /// Frames are being drawn and presented.
    case driving
    /// Off on purpose: night blanking.
    case blanked
    /// The driven connector was unplugged; waiting for it to come back.
    case disconnected
}
