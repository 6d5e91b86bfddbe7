/// `[display] composition`: how the dot is put over the map. Only software composition exists in
/// this build (the dot painted into the frame, the damage copied out); `planes` is accepted so a
/// configuration written for a build with hardware planes still starts, and says plainly that it
/// runs in software.
public enum Composition: String, Sendable, CaseIterable {
    case auto, software, planes

    /// What this build composes with, whatever was asked.
    public var inUse: Composition { .software }

    /// The one line to say at start when the asked composition is not the one in use; nil when
    /// it is (or when `auto` chose, which promises nothing).
    public var note: String? {
        switch self {
        case .planes: "[display] composition = planes: composition on hardware planes is not available in this build; using software composition"
        case .auto, .software: nil
        }
    }

    /// For STATUS= and the log: "software composition".
    public var phrase: String { "\(rawValue) composition" }
}
