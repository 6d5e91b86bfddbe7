import Config
import Daemon
import Glibc
import Syscall
import Systemd

// `pulsedot run [--config FILE] [--set KEY=VALUE ...]`: the daemon (what the systemd unit starts).
// Hidden, for measurements: `--frames N` stops after N frames, as if SIGTERM had come.

private let runUsage = """
    usage: pulsedot run [--config FILE] [--set KEY=VALUE ...]
      --config  the configuration file (default \(Configuration.defaultPath); a missing default
                file means the defaults)
      --set     override one key after the file: section.key=value, a bare key meaning [dot]
    Signals: SIGTERM/SIGINT stop (console restored, exit 0); SIGHUP reloads the configuration (a
    bad one is rejected and the running one stays); SIGUSR1 writes a snapshot PNG.
    """

func runCommand(_ args: ArraySlice<String>) -> Int32 {
    if args.contains("--help") || args.contains("-h") {
        print(runUsage)
        return 0
    }
    // Before anything else (and before any thread could exist): the signals are read in the poll
    // loop, so a SIGTERM during start-up is an orderly stop, not a kill with the display held.
    let signals: SignalDescriptor
    do {
        signals = try SignalDescriptor(RunDaemon.handledSignals)
    } catch {
        return fail("run: \(error)")
    }
    var options = RunDaemon.Options()
    do {
        let parsed = try Arguments(args, valued: ["config", "set", "frames"])
        guard parsed.positional.isEmpty else {
            throw Arguments.Failure(description: "run takes no arguments, got '\(parsed.positional[0])' (use --config FILE)")
        }
        options.configPath = parsed.value("config")
        options.overrides = parsed.all("set")
        if parsed.value("frames") != nil {
            options.maxFrames = try parsed.int("frames", default: 1, range: 1...Int(Int32.max))
        }
    } catch {
        return fail("run: \(error)\n" + runUsage)
    }
    let log = Journal()
    let configuration: Configuration
    do {
        configuration = try Configuration.load(path: options.configPath, overrides: options.overrides)
    } catch {
        log.error("configuration: \(error)")
        return 1
    }
    let daemon: RunDaemon
    do {
        daemon = try RunDaemon(configuration: configuration, options: options,
                                environment: .system(signals: signals, options: options, log: log), log: log)
    } catch {
        log.error("\(error)")
        return 1
    }
    return daemon.run()
}
