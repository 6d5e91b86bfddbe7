import Config
import Daemon

// `pulsedot man 8|5`: the manual pages, written from the same tables `--help` and the
// configuration parser use, so the pages cannot describe options or keys the program does not
// have. build-deb installs what this prints; docs/man/ holds a copy a test keeps equal to it.

let manUsage = Usage(
    command: "man", summary: "print a manual page in roff: 8 for pulsedot(8), 5 for pulsedot.conf(5)",
    operands: [.init(name: "8|5", summary: "8 (the default): the commands and their options; 5: the configuration file and every key")],
    options: [],
    notes: "Read one with `pulsedot man 5 | man -l -`; the package installs both.")

func manCommand(_ parsed: Arguments) -> Int32 {
    switch parsed.positional {
    case [], ["8"]:
        print(commandsManPage(), terminator: "")
    case ["5"]:
        print(SettingsTable.manPage(version: PulseDotVersion.string), terminator: "")
    default:
        writeError("pulsedot: man: expected the section, 8 or 5\n" + manUsage.text)
        return 2
    }
    return 0
}

/// pulsedot(8): every command of `commands` with its synopsis, options and notes.
func commandsManPage() -> String {
    var page = Roff.title("PULSEDOT", section: 8, version: PulseDotVersion.string, manual: "System Administration")
    page += ".SH NAME\npulsedot \\- pulsing \"you are here\" dot for kiosk and vehicle displays\n"
    page += ".SH SYNOPSIS\n.nf\n\\fBpulsedot\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n"
    page += "\\fBpulsedot\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR\n\\fBpulsedot \\-\\-version\\fR\n.fi\n"
    page += ".SH DESCRIPTION\n"
    page += Roff.paragraphs("""
        PulseDot paints an iOS-style pulsing location dot on a map, straight to a DRM/KMS display or a \
        legacy framebuffer, with positions from gpsd, a fixed position or a recorded drive. `pulsedot run` \
        is the daemon the systemd unit pulsedot.service starts; the other commands check a \
        configuration, test a display or a receiver, and render frames.

        Every command answers `--help` (or `-h`) with its usage. Options take their value as \
        `--name VALUE` or `--name=VALUE`; an unknown option is an error naming it. `--set KEY=VALUE` \
        takes a key of pulsedot.conf(5): a bare key is in `[dot]`, `section.key` reaches the others.
        """)
    page += ".SH COMMANDS\n"
    for usage in commands.flatMap({ [$0.usage] + $0.subcommands.map { $0.usage } }) {
        page += ".SS \(Roff.text(usage.command))\n"
        var synopsis = "\\fBpulsedot " + Roff.text(usage.command) + "\\fR"
        for operand in usage.operands { synopsis += " [\\fI" + Roff.text(operand.name) + "\\fR]" }
        for option in usage.visibleOptions { synopsis += " " + synopsisWord(option) }
        page += synopsis + "\n.PP\n" + Roff.text(sentence(usage.summary)) + "\n"
        for operand in usage.operands {
            page += ".TP\n\\fI\(Roff.text(operand.name))\\fR\n\(Roff.text(sentence(operand.summary)))\n"
        }
        for option in usage.visibleOptions {
            page += ".TP\n\(optionWords(option, separator: " "))\n\(Roff.text(sentence(option.summary)))\n"
        }
        if !usage.notes.isEmpty { page += Roff.paragraphs(usage.notes) }
    }
    page += ".SH EXIT STATUS\n"
    page += Roff.paragraphs("""
        0 when the command did what it was asked; 1 when it could not (a configuration refused, a \
        device that could not be read), with one line on stderr saying why; 2 for a command line it \
        does not take, with the usage.
        """)
    page += ".SH SIGNALS\n"
    page += Roff.paragraphs("""
        `pulsedot run`: SIGTERM and SIGINT stop it (the console restored, exit 0); SIGHUP reloads the \
        configuration, the main file and its drop-ins (a bad one is refused and the running one stays); \
        SIGUSR1 writes a snapshot PNG into the state directory.
        """)
    page += ".SH FILES\n"
    page += ".TP\n\(Roff.text(Configuration.defaultPath))\nThe configuration; see \\fBpulsedot.conf\\fR(5).\n"
    page += ".TP\n\(Roff.text(Configuration.dropInDirectory(of: Configuration.defaultPath)))/*.conf\n"
    page += "Drop-ins read after it, where a board's own settings belong.\n"
    page += ".TP\n/lib/systemd/system/pulsedot.service\nThe unit that runs \\fBpulsedot run\\fR.\n"
    page += ".TP\n/var/lib/pulsedot/\nThe state directory: snapshots and the metrics file.\n"
    page += ".TP\n/usr/share/pulsedot/examples/\nConfigurations for real set-ups.\n"
    page += ".SH SEE ALSO\n.BR pulsedot.conf (5),\n.BR systemctl (1),\n.BR gpsd (8)\n"
    return page
}

/// `[--name VALUE ...]`, kept on one output line by unbreakable spaces.
private func synopsisWord(_ option: Option) -> String {
    let word = optionWords(option, separator: "\\ ") + (option.repeatable ? "\\ ..." : "")
    return option.required ? word : "[" + word + "]"
}

private func optionWords(_ option: Option, separator: String) -> String {
    "\\fB" + Roff.text("--" + option.name) + "\\fR" + (option.value.map { separator + "\\fI" + Roff.text($0) + "\\fR" } ?? "")
}

/// A usage's fragment as a sentence of the page: capital first, full stop last.
private func sentence(_ fragment: String) -> String {
    guard let first = fragment.first else { return fragment }
    let text = String(first).uppercased() + fragment.dropFirst()
    return text.hasSuffix(".") ? text : text + "."
}
