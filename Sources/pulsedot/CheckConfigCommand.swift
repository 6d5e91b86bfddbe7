import Config
import Daemon

// `pulsedot check-config [FILE] [--set KEY=VALUE ...]`: what `run` would do with a configuration
// (the file, its drop-ins, the overrides), without running: exit 0 and the effective configuration
// with where each value comes from, or exit 1 and the one-line error. The
// unit's ExecReload runs it first, so a bad file is refused before the daemon is signalled.

let checkConfigUsage = Usage(
    command: "check-config", summary: "validate a configuration and print the effective one",
    operands: [.init(name: "FILE", summary: "the configuration file (default \(Configuration.defaultPath); a missing default file means the defaults)")],
    options: [
        .set,
        .flag("keys-markdown", "print the README's table of every key, generated from the settings table"),
    ],
    notes: """
        The drop-ins FILE.d/*.conf are read after the file, in the order of their names, a later value
        winning; --set applies last. Each value that a file or --set gave is preceded by a line
        "# from FILE:LINE" or "# from --set". --keys-markdown takes nothing else. Exit 0 and the
        effective configuration, or exit 1 and the one-line error.
        """)

func checkConfigCommand(_ parsed: Arguments) -> Int32 {
    do throws(Arguments.Failure) {
        guard parsed.positional.count <= 1 else {
            throw Arguments.Failure(description: "check-config takes one file, got \(parsed.positional.count)")
        }
        if parsed.has("keys-markdown") {
            guard parsed.positional.isEmpty, parsed.all("set").isEmpty else {
                throw Arguments.Failure(description: "--keys-markdown takes nothing else")
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
