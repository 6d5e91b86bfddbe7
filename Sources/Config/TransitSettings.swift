import Syscall

/// The `[transit]` section: the agency's GTFS feed.
public struct TransitSettings: Sendable, Equatable {
    /// A GTFS .zip or a folder of its .txt files; nil: no transit information.
    public var gtfs: String? = nil

    public init() {}
}

extension SettingsTable {
    static let transitKeys: [SettingKey] = [
        SettingKey(section: "transit", name: "gtfs", allowed: "path of a GTFS .zip or folder, or none",
                   meaning: "the agency's GTFS feed (`pulsedot transit import` builds its index); none: no transit information",
                   parse: { text, s, origin throws(SettingProblem) in
                       if text == "none" { s.transit.gtfs = nil; return }
                       s.transit.gtfs = try parseFeedPath(text, origin: origin)
                   },
                   show: { $0.transit.gtfs ?? "none" }),
    ]

    /// Checked now, like a replay file, so a typo fails at check-config rather than at the import;
    /// a folder is as good as a file here (a feed may be either).
    static func parseFeedPath(_ text: String, origin: SettingOrigin) throws(SettingProblem) -> String {
        guard !text.isEmpty else { throw SettingProblem("empty path (expected a GTFS .zip or folder, or none)") }
        let path = resolvePath(text, origin: origin)
        let status: FileStatus
        do { status = try FileStatus(path: path) } catch {
            let shown = path == text ? "" : "\(path): "
            throw SettingProblem("\(shown)cannot be read (\(error.message); a GTFS .zip or folder is expected here)")
        }
        guard status.kind != .other else { throw SettingProblem("not a file or folder (a GTFS .zip or folder is expected here)") }
        return path
    }
}
