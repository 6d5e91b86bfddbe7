/// The `[metrics]` section: the Prometheus textfile the daemon keeps up to date.
public struct MetricsSettings: Sendable, Equatable {
    /// Where node_exporter's textfile collector finds the file (through the package's link);
    /// nil: no file. In /run, so rewriting it every few seconds never wears an SD card.
    public var textfile: String? = "/run/pulsedot/metrics.prom"
    /// Seconds between rewrites.
    public var every: Double = 10

    public init() {}

    /// The folder and file name `textfile` splits into (the temporary name goes in the same folder).
    public var textfileParts: (directory: String, name: String)? {
        guard let textfile, let slash = textfile.lastIndex(of: "/") else {
            return textfile.map { (".", $0) }
        }
        let directory = String(textfile[..<slash])
        return (directory.isEmpty ? "/" : directory, String(textfile[textfile.index(after: slash)...]))
    }
}

extension SettingsTable {
    static let metricsKeys: [SettingKey] = [
        SettingKey(section: "metrics", name: "textfile", allowed: "file path ending in `.prom`, or none",
                   meaning: "the Prometheus metrics file, rewritten atomically (mode 0644) for node_exporter's textfile collector; none: no file",
                   parse: { text, s, origin throws(SettingProblem) in
                       if text == "none" { s.metrics.textfile = nil; return }
                       let path = resolvePath(text, origin: origin)
                       guard path.hasSuffix(".prom"), !path.hasSuffix("/.prom") else {
                           throw SettingProblem("not a metrics file name (node_exporter reads only files ending in .prom, e.g. /run/pulsedot/metrics.prom)")
                       }
                       s.metrics.textfile = path
                   },
                   show: { $0.metrics.textfile ?? "none" }),
        duration(section: "metrics", "every", .closed(1, 3600), "seconds between rewrites of the metrics file", { $1(&$0.metrics.every) }),
    ]
}
