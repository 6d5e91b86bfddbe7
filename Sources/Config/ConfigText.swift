// The texts generated from the settings table: check-config's listing, the default configuration
// file (deploy/pulsedot.conf) and the README's key tables. Tests hold the committed copies equal
// to these, so documentation cannot drift from the code.

extension SettingsTable {
    /// One sentence per section, for the README and the default file.
    public static func summary(of section: String) -> String {
        switch section {
        case "dot": return "The look of the dot (sizes in points, turned into pixels by `scale`) and what it shows about the fix."
        case "source": return "Where positions come from: gpsd (the default), a fixed `position` or a `replay`; one of the three."
        case "display": return "Where frames go and how."
        case "map": return "What lies under the dot: a map image with `bounds`, a tiled map (`tiles`: an MBTiles file or a tile folder, decoded a few tiles at a time into a fixed cache), or a plain `background` around a `center` at a `zoom`."
        case "log": return "What the daemon writes to the journal."
        case "metrics": return "The Prometheus metrics file for node_exporter's textfile collector (see docs/operations.md)."
        default: return ""
        }
    }

    /// Every section's heading, summary and key table (Markdown): the README's key reference.
    public static func markdownDocument() -> String {
        sections.map { "### `[\($0)]`\n\n\(summary(of: $0))\n\n" + markdown(section: $0) }.joined(separator: "\n")
    }

    /// The default configuration file: every key commented out with its default, its meaning and
    /// what it allows. Parsing it gives the defaults.
    public static func defaultConfigurationFile() -> String {
        var text = """
            # /etc/pulsedot/pulsedot.conf: PulseDot's configuration.
            # Every key is shown commented out with its default; uncomment and change what you need.
            # Check a change with `pulsedot check-config /etc/pulsedot/pulsedot.conf`, apply it with
            # `systemctl reload pulsedot` (a bad file is refused and the running configuration stays).
            # Comments are lines of their own starting with # or ; (a value such as #FF3B30 is a colour).
            # Each key may appear once. Relative paths are taken from this file's directory.
            # Examples for real set-ups: /usr/share/pulsedot/examples/.
            # Files named here (map and dot images, replays) must be readable by the user pulsedot and
            # lie outside /home, which the service cannot see: /etc/pulsedot/ is a good place for them.
            # This file is generated from the settings table: `pulsedot check-config --default-file`.

            """
        for section in sections {
            text += "\n[\(section)]\n" + wrapComment(summary(of: section))
            for key in keys(in: section) {
                text += "\n" + wrapComment("\(key.meaning.prefix(1).uppercased() + key.meaning.dropFirst()). Allowed: \(key.allowed).")
                text += "# \(key.name) = \(key.defaultText)\n"
            }
        }
        return text
    }

    /// `# `-prefixed lines of at most `width` characters, broken between words.
    static func wrapComment(_ text: String, width: Int = 100) -> String {
        var out = "", line = "#"
        for word in text.split(separator: " ") {
            if line.count + 1 + word.count > width, line != "#" {
                out += line + "\n"
                line = "#"
            }
            line += " " + word
        }
        return out + line + "\n"
    }
}

extension Configuration {
    /// The effective configuration in configuration-file syntax, every key grouped by section:
    /// keys at their default commented out, the others (changed by the file or `--set`) not. Read
    /// back as a file, it gives the same settings.
    public func effectiveText() -> String {
        let from: String
        if let file {
            from = file + (overrides > 0 ? " with \(overrides) --set override\(overrides == 1 ? "" : "s")" : "")
        } else {
            from = "no file, defaults" + (overrides > 0 ? " with \(overrides) --set override\(overrides == 1 ? "" : "s")" : "")
        }
        var changed = 0
        var body = ""
        for section in SettingsTable.sections {
            body += "\n[\(section)]\n"
            for key in SettingsTable.keys(in: section) {
                let value = settings.value(of: key)
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
