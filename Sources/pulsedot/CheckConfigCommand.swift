import Config
import Daemon

// `pulsedot check-config [FILE] [--set KEY=VALUE ...]`: what `run` would do with a configuration,
// without running: exit 0 and the effective configuration, or exit 1 and the one-line error. The
// unit's ExecReload runs it first, so a bad file is refused before the daemon is signalled.

private let checkConfigUsage = """
    usage: pulsedot check-config [FILE] [--set KEY=VALUE ...]
           pulsedot check-config --keys-markdown | --default-file
      FILE             the configuration file (default \(Configuration.defaultPath); a missing
                       default file means the defaults)
      --set            override one key after the file: section.key=value, a bare key meaning [dot]
      --keys-markdown  print the README's table of every key, generated from the settings table
      --default-file   print the default configuration file (every key commented out)
    """

func checkConfigCommand(_ args: ArraySlice<String>) -> Int32 {
    if args.contains("--help") || args.contains("-h") {
        print(checkConfigUsage)
        return 0
    }
    let parsed: Arguments
    do {
        parsed = try Arguments(args, valued: ["set"], booleans: ["keys-markdown", "default-file"])
        guard parsed.positional.count <= 1 else {
            throw Arguments.Failure(description: "check-config takes one file, got \(parsed.positional.count)")
        }
        if parsed.has("keys-markdown") || parsed.has("default-file") {
            guard parsed.positional.isEmpty, parsed.all("set").isEmpty, !(parsed.has("keys-markdown") && parsed.has("default-file")) else {
                throw Arguments.Failure(description: "--keys-markdown and --default-file take nothing else")
            }
        }
    } catch {
        return fail("check-config: \(error)\n" + checkConfigUsage)
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
        return 0
    } catch {
        writeError("pulsedot: \(error)\n")
        return 1
    }
}
