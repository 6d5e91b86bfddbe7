import Config
import Daemon

// `pulsedot check-config [FILE] [--set KEY=VALUE ...]`: what `run` would do with a configuration,
// without running: exit 0 and the effective configuration, or exit 1 and the one-line error. The
// unit's ExecReload runs it first, so a bad file is refused before the daemon is signalled.

let checkConfigUsage = Usage(
    command: "check-config", summary: "validate a configuration and print the effective one",
    operands: [.init(name: "FILE", summary: "the configuration file (default \(Configuration.defaultPath); a missing default file means the defaults)")],
    options: [
        .set,
        .flag("keys-markdown", "print the README's table of every key, generated from the settings table"),
        .flag("default-file", "print the default configuration file (every key commented out)"),
    ],
    notes: """
        --set applies after the file. --keys-markdown and --default-file take nothing else. Exit 0 and
        the effective configuration, or exit 1 and the one-line error.
        """)

func checkConfigCommand(_ parsed: Arguments) -> Int32 {
    do throws(Arguments.Failure) {
        guard parsed.positional.count <= 1 else {
            throw Arguments.Failure(description: "check-config takes one file, got \(parsed.positional.count)")
        }
        if parsed.has("keys-markdown") || parsed.has("default-file") {
            guard parsed.positional.isEmpty, parsed.all("set").isEmpty, !(parsed.has("keys-markdown") && parsed.has("default-file")) else {
                throw Arguments.Failure(description: "--keys-markdown and --default-file take nothing else")
            }
        }
    } catch {
        writeError("pulsedot: check-config: \(error)\n" + checkConfigUsage.text)
        return 2
    }
    if parsed.has("keys-markdown") {
        print(SettingsTable.markdownDocument(), terminator: "")
        return 0
    }
    if parsed.has("default-file") {
        print(SettingsTable.defaultConfigurationFile(), terminator: "")
        return 0
    }
    do {
        let configuration = try Configuration.load(path: parsed.positional.first, overrides: parsed.all("set"))
        for note in configuration.notes { writeError("pulsedot: \(note)\n") }
        print(configuration.effectiveText(), terminator: "")
        for line in MapTileReport.lines(configuration.settings) { print("# \(line)") }
        return 0
    } catch {
        writeError("pulsedot: \(error)\n")
        return 1
    }
}
