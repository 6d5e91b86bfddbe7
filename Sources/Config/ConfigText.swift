// The texts generated from the settings table: check-config's listing and the README's key
// tables (the manual page is in ManPage.swift). Tests hold the committed copies equal to these,
// so documentation cannot drift from the code.

extension SettingsTable {
    /// One sentence per section, for the README and the manual page.
    public static func summary(of section: String) -> String {
        switch section {
        case "dot": return "The look of the dot (sizes in points, turned into pixels by `scale`) and what it shows about the fix."
        case "source": return "Where positions come from: gpsd (the default), a fixed `position` or a `replay`; one of the three."
        case "display": return "Where frames go and how."
        case "map": return "What lies under the dot: a map image with `bounds`, a tiled map (`tiles`: an MBTiles file or a tile folder, decoded a few tiles at a time into a fixed cache), or a plain `background` around a `center` at a `zoom`."
        case "log": return "What the daemon writes to the journal."
        case "metrics": return "The Prometheus metrics file for node_exporter's textfile collector (see docs/operations.md)."
        case "transit": return "The agency's GTFS feed: its routes, trips and stops, read into an index by `pulsedot transit import`; the followed trip's line and stops on the map, and the banner with the line, the destination and the next stops (docs/transit.md)."
        case "realtime": return "The agency's GTFS-realtime feeds over HTTPS, fetched on a worker thread while a `[kiosk]` is shown (and by `pulsedot realtime fetch`): the board's predictions and cancellations, the vehicles' places, the alerts (docs/kiosk.md)."
        case "kiosk": return "A stop's screen: the routes serving the stop, the vehicles coming as markers moving along their routes, a departures board from the timetable and TripUpdates, an alerts line, and plainly \"no live data\" when the feeds cannot be trusted (docs/kiosk.md)."
        default: return ""
        }
    }

    /// Every section's heading, summary and key table (Markdown): the README's key reference.
    public static func markdownDocument() -> String {
        sections.map { "### `[\($0)]`\n\n\(summary(of: $0))\n\n" + markdown(section: $0) }.joined(separator: "\n")
    }
}

extension Configuration {
    /// The effective configuration in configuration-file syntax, every key grouped by section:
    /// keys at their default commented out, the others (changed by a file or `--set`) not. A key
    /// that a file or `--set` gave is preceded by a comment line saying where: `# from FILE:LINE`
    /// or `# from --set` (a comment of its own, since nothing after a value is a comment). Read
    /// back as a file, it gives the same settings.
    public func effectiveText() -> String {
        var from = file ?? "no file, defaults"
        if let first = dropIns.first, let slash = first.lastIndex(of: "/") {
            from += ", then \(count(dropIns.count, "drop-in")) from \(first[..<slash])"
        }
        if overrides > 0 { from += " with \(count(overrides, "--set override"))" }
        var changed = 0
        var body = ""
        for section in SettingsTable.sections {
            body += "\n[\(section)]\n"
            for key in SettingsTable.keys(in: section) {
                let value = settings.value(of: key)
                if let origin = settings.origins[key.qualifiedName] {
                    body += "# from " + (origin.file.map { file in origin.line.map { "\(file):\($0)" } ?? file } ?? "--set") + "\n"
                }
                if value == key.defaultText {
                    body += "# \(key.name) = \(value)\n"
                } else {
                    body += "\(key.name) = \(value)\n"
                    changed += 1
                }
            }
        }
        return "# Effective configuration (\(from)): valid.\n"
            + "# \(changed) key\(changed == 1 ? "" : "s") differ\(changed == 1 ? "s" : "") from the defaults; keys at their default are commented out.\n"
            + body
    }
}
