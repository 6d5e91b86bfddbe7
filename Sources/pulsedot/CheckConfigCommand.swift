import Config
import Daemon
import Scene
import Syscall
import Transit

// `pulsedot check-config [FILE] [--set KEY=VALUE ...]`: what `run` would do with a configuration
// (the file, its drop-ins, the overrides), without running: exit 0 and the effective configuration
// with where each value comes from, or exit 1 and the one-line error. The
// unit's ExecReload runs it first, so a bad file is refused before the daemon is signalled.

let checkConfigUsage = Usage(
    command: "check-config", summary: "validate a configuration and print the effective one",
    operands: [.init(name: "FILE", summary: "the configuration file (default \(Configuration.defaultPath); a missing default file means the defaults)")],
    options: [
        .valued("config", "FILE", "the configuration file, as the operand FILE gives it (the spelling every other command takes)"),
        .set,
        .flag("quiet", "print nothing when the configuration is valid (warnings still go to stderr): the unit's ExecReload, so that a reload does not write the whole configuration into the journal"),
        .flag("keys-markdown", "print the README's table of every key, generated from the settings table"),
    ],
    notes: """
        The drop-ins FILE.d/*.conf are read after the file, in the order of their names, a later value
        winning; --set applies last. Each value that a file or --set gave is preceded by a line
        "# from FILE:LINE" or "# from --set". The dot's images and the map's files are opened as
        the daemon opens them.
        With [transit] gtfs set, the feed is checked and hashed and its index looked for in [transit]
        cache, never built (the daemon builds it, off its frame loop; `pulsedot transit import` builds
        it now): the feed and the trip are described in comments "# transit: ..." when it is there,
        else what the daemon will do is said; a feed or trip that cannot be taken is a warning, as
        the daemon runs without it. --keys-markdown takes nothing else. Exit 0 and the effective
        configuration, or exit 1 and the one-line error.
        """)

func checkConfigCommand(_ parsed: Arguments) -> Int32 {
    do throws(Arguments.Failure) {
        guard parsed.positional.count + (parsed.value("config") == nil ? 0 : 1) <= 1 else {
            throw Arguments.Failure(description: "check-config takes one file, as the operand or as --config, got \(parsed.positional.count + (parsed.value("config") == nil ? 0 : 1))")
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
    do throws(ConfigurationError) {
        var configuration = try Configuration.load(path: parsed.positional.first ?? parsed.value("config"), overrides: parsed.all("set"))
        // The files the settings name are opened as the daemon opens them, so what it would refuse
        // is refused here, and what they decide (a tiled map's zoom) is shown.
        let files: MapFiles
        do throws(SettingError) {
            try DotImages.load(&configuration.settings)
            var settled = configuration.settings
            let opened = try MapFiles.openOrLeaveOut(&settled)
            files = opened.files
            // The effective configuration is shown as written when its map is left out.
            if opened.leftOut == nil { configuration.settings = settled }
            // A map of the wrong kind, or corrupt, is a mistake to refuse here (the unit's
            // ExecReload); one not there yet is the daemon's to take up when it appears.
            if let leftOut = opened.leftOut, !leftOut.missing { _ = try MapFiles.open(&configuration.settings) }
            if let leftOut = opened.leftOut {
                writeError("pulsedot: warning: \(leftOut.reason); the daemon would draw the dot on the background colour and take the map up when it can be read\n")
            }
        } catch { throw ConfigurationError(error) }
        for note in configuration.notes { writeError("pulsedot: \(note)\n") }
        let report = transitReport(configuration.settings.transit)
        guard !parsed.has("quiet") else { return 0 }
        print(configuration.effectiveText(), terminator: "")
        for line in MapTileReport.lines(configuration.settings, files) { print("# \(line)") }
        for line in report { print("# transit: \(line)") }
        return 0
    } catch {
        writeError("pulsedot: \(error)\n")
        return 1
    }
}

/// The feed and the trip as the daemon would take them, as comments after the configuration. The
/// feed is checked and hashed and the daemon's index for that hash looked up, never built: the
/// unit's ExecReload runs check-config, and an import of a large feed takes minutes and is the
/// daemon's to run, off its frame loop (two importers at once would also share the index's
/// temporary file). Without the index, what the daemon will do is said. A feed or trip that cannot
/// be taken is said here and on stderr, yet the configuration is valid: the daemon runs without
/// transit then.
func transitReport(_ settings: TransitSettings) -> [String] {
    func tripNotSet(_ settings: TransitSettings) -> String {
        settings.autoTrip ? "auto (told from the fixes as the vehicle drives: the shape they follow, then the run the clock says)" : "none (no trip followed)"
    }
    guard let gtfs = settings.gtfs else { return [] }
    let now = WallClock.now()
    do throws(TransitError) {
        let found = try TransitImporter.lookUp(feedAt: gtfs, cacheDirectory: settings.cacheDirectory)
        guard let info = found.info else {
            return ["index: \(found.path) (not built yet: the daemon builds it from the feed as it starts or reloads; "
                        + "`pulsedot transit import \(gtfs) --cache \(settings.cacheDirectory)` builds it now)",
                    "trip: " + (settings.trip.map { "\($0) (looked up once the index is built)" } ?? tripNotSet(settings))]
        }
        var lines = ["index: \(found.path) (already built for this feed)"]
        lines += TransitSummary.feed(info, now: now)
        if let choice = settings.trip {
            let index = try TransitIndex(path: found.path)
            let taken = try index.resolve(choice)
            // A text with `@HH:MM:SS` may name a trip or a run of one: which the feed made of it.
            if choice.whole != nil { lines.append("trip \(choice) read as \(taken.reading)") }
            lines += try TransitSummary.trip(try index.trip(taken), in: index, now: now)
        } else {
            lines.append("trip: " + tripNotSet(settings))
        }
        return lines
    } catch {
        writeError("pulsedot: warning: transit: \(error); the daemon would run without it\n")
        return ["cannot be taken: \(error)"]
    }
}
