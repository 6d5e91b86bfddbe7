/// `[display] composition`: how the dot is put over the map. `software` paints it into the frame
/// and copies the damage out; `planes` puts it on a display plane of its own (atomic KMS, an
/// overlay), which the KMS output takes only when the card passes its test commit, else it
/// composes in software and says why once; `auto` does the same without promising either.
public enum Composition: String, Sendable, CaseIterable {
    case auto, software, planes

    /// For STATUS= and the log: "software composition", "planes composition".
    public var phrase: String { "\(rawValue) composition" }
}
