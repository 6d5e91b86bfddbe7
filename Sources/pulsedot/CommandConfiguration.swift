import Config
import Scene

/// The configuration a tool reads so that it does what the service would: `--config FILE` (the
/// default file when absent; a missing default file means the defaults), its drop-ins, then
/// `--set`, the dot's images decoded. The tool's own options are applied after this by the tool,
/// so they win.
func serviceConfiguration(_ args: Arguments) throws(Arguments.Failure) -> Configuration {
    var overrides = args.all("set")
    if let scale = args.value("scale") { overrides.append("scale=\(scale)") }
    var configuration: Configuration
    do { configuration = try Configuration.load(path: args.value("config"), overrides: overrides) } catch { throw Arguments.Failure(error) }
    do { try DotImages.load(&configuration.settings) } catch { throw Arguments.Failure(error) }
    return configuration
}

extension Configuration {
    /// Where the values came from, for a tool's report: "/etc/pulsedot/pulsedot.conf and 2
    /// drop-ins, 1 --set", or "the defaults".
    var sourcePhrase: String {
        var parts: [String] = []
        if let file { parts.append(dropIns.isEmpty ? file : "\(file) and \(dropIns.count) drop-in\(dropIns.count == 1 ? "" : "s")") }
        else if !dropIns.isEmpty { parts.append("the defaults and \(dropIns.count) drop-in\(dropIns.count == 1 ? "" : "s")") }
        if overrides > 0 { parts.append("\(overrides) --set") }
        return parts.isEmpty ? "the defaults" : parts.joined(separator: ", ")
    }
}
