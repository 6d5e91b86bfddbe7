// The manual page pulsedot.conf(5), generated from the settings table like the README's key
// tables, and the roff that pulsedot(8) is written in too. A test keeps the committed copy in
// docs/man/ equal to this and clean under `groff -ww`.

/// Turning plain text (with Markdown's `code` spans, as the table's texts have) into roff.
public enum Roff {
    /// One line of running text: backslashes and dashes escaped (a `-` in roff may be set as a
    /// hyphen, and options must stay copyable), `code` in bold and unbroken, anything beyond ASCII as a groff
    /// Unicode escape (groff reads its input as Latin-1 unless told otherwise), and a leading
    /// `.` or `'` kept from being read as a request.
    public static func text(_ plain: String) -> String {
        var out = ""
        var inCode = false
        for scalar in plain.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "`":
                out += inCode ? "\\fR" : "\\fB"
                inCode.toggle()
            case "\n", "\t": out += " "
            // Code is copied as a whole: `--set scale=2` is not broken across lines.
            case " " where inCode: out += "\\ "
            default:
                if scalar.value < 0x80 {
                    out.unicodeScalars.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.utf8.count)) + hex + "]"
                }
            }
        }
        if inCode { out += "\\fR" }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// `text` in bold, then back to roman.
    public static func bold(_ plain: String) -> String { "\\fB" + text(plain) + "\\fR" }

    /// `text` in italics, then back to roman.
    public static func italic(_ plain: String) -> String { "\\fI" + text(plain) + "\\fR" }

    /// The title line (no date, so the page is the same whenever it is built), then ragged right
    /// and no hyphenation: option names and keys must stay whole to be copied.
    public static func title(_ name: String, section: Int, version: String, manual: String) -> String {
        ".TH \(name) \(section) \"\" \"pulsedot \(text(version))\" \"\(manual)\"\n.ad l\n.nh\n"
    }

    /// Paragraphs of prose: lines joined, a blank line starting a new paragraph.
    public static func paragraphs(_ prose: String) -> String {
        var out = "", current: [String] = []
        func flush() {
            if !current.isEmpty { out += ".PP\n" + text(current.joined(separator: " ")) + "\n" }
            current = []
        }
        for line in prose.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmedLine = trimmed(String(line))
            if trimmedLine.isEmpty { flush() } else { current.append(trimmedLine) }
        }
        flush()
        return out
    }
}

extension SettingsTable {
    /// pulsedot.conf(5): the file's rules, drop-ins, and every section and key with its default,
    /// what it allows and what it means.
    public static func manPage(version: String) -> String {
        let main = Configuration.defaultPath, dropIns = Configuration.dropInDirectory(of: Configuration.defaultPath)
        var page = Roff.title("PULSEDOT.CONF", section: 5, version: version, manual: "File Formats")
        page += ".SH NAME\npulsedot.conf \\- configuration of the PulseDot daemon\n"
        page += ".SH SYNOPSIS\n.nf\n\(Roff.text(main))\n\(Roff.text(dropIns))/*.conf\n.fi\n"
        page += ".SH DESCRIPTION\n"
        page += Roff.paragraphs("""
            `pulsedot run` (the service) reads \(main), or the file named by `--config FILE`, then the \
            drop-ins beside it; `pulsedot check-config` checks them without running anything and prints \
            the effective configuration, each value with the file and line it comes from.

            The syntax is INI-like: `[section]` headers, `key = value` lines, blank lines, and comments on \
            lines of their own whose first character (after spaces) is `#` or `;`. Nothing after a value is \
            a comment: `annotationColor = #FF3B30` is a colour, and `scale = 2 # two` is an error that says so. \
            Keys are case-sensitive. Each key may appear once per file; a section may be opened again. An \
            unknown section or key, a bad value, or a line that is none of these is an error naming the \
            file, the line and the key.

            Relative paths (map and dot images, `replay`, `png:DIR`) are taken from the directory of the \
            file that names them; with `--set` they are relative to the current directory.
            """)
        page += ".SH DROP-INS\n"
        page += Roff.paragraphs("""
            Settings for one site or one vehicle belong in drop-ins, not in \(main): files in \(dropIns)/ \
            (the main file's name with `.d` added, for any `--config FILE`) are read after the main file, \
            in the byte order of their names, and a later value wins over an earlier one, so \
            `10-site.conf` can set the map and `50-vehicle.conf` the panel. The package never changes \
            them, and leaves the main file unchanged, so an upgrade never asks about the configuration.

            Only names ending in `.conf` and not starting with a dot are read: dpkg's `.dpkg-dist` and \
            `.dpkg-old` files and editors' backups are left alone. A missing directory means no \
            drop-ins; a drop-in that cannot be read is an error naming it. Each drop-in is a file of its \
            own: a key may appear once in it, and it may choose its own `[source]` (replacing the one \
            chosen before). `systemctl reload pulsedot` (SIGHUP) reads the main file and every drop-in again.
            """)
        page += ".SH OVERRIDES\n"
        page += Roff.paragraphs("""
            Every command that reads the configuration takes `--set KEY=VALUE` in the same vocabulary: a \
            bare key is in `[dot]` (`--set scale=2`), `section.key` reaches the others \
            (`--set display.rotation=90`). Overrides apply after the files, in order, and win.
            """)
        page += ".SH SECTIONS AND KEYS\n"
        for section in sections {
            page += ".SS [\(section)]\n" + Roff.text(summary(of: section)) + "\n"
            for key in keys(in: section) {
                page += ".TP\n\(Roff.bold(key.name)) = \(Roff.italic(key.defaultText))\n"
                page += Roff.text(key.meaning.prefix(1).uppercased() + key.meaning.dropFirst()) + ". Allowed: " + Roff.text(key.allowed) + ".\n"
            }
        }
        page += ".SH FILES\n.TP\n\(Roff.text(main))\nThe main file, installed by the package; edits belong in drop-ins.\n"
        page += ".TP\n\(Roff.text(dropIns))/*.conf\nDrop-ins, read after the main file in the order of their names.\n"
        page += ".SH EXAMPLES\nA drop-in \\fI\(Roff.text(dropIns))/50\\-vehicle.conf\\fR for a portrait panel:\n"
        page += ".PP\n.nf\n.RS\n[display]\nrotation = 90\nfps = 30\n[dot]\nannotationColor = #FF3B30\n.RE\n.fi\n"
        page += ".PP\nReady-made set-ups are in \\fI/usr/share/pulsedot/examples/\\fR.\n"
        page += ".SH SEE ALSO\n.BR pulsedot (8)\n"
        return page
    }
}
