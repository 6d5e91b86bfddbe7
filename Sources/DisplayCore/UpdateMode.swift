/// How frames reach the panel, as configured: `flip` (two buffers and page flips), `damage` (one
/// buffer updated in place: SPI/USB panels, virtual GPUs), or `auto` (chosen from what the
/// display offers).
public enum UpdateMode: String, Sendable, CaseIterable {
    case auto, flip, damage
}
