import Config
import Daemon
import Glibc
import Syscall
import Systemd

// `pulsedot run`: the daemon (what the systemd unit starts). `--frames` is for measurements, so
// the usage leaves it out.

let runUsage = Usage(command: "run", summary: "the daemon: the dot on the display, positions from gpsd (the unit runs it)", options: [
    .valued("config", "FILE", "the configuration file (default \(Configuration.defaultPath); a missing default file means the defaults)"),
    .set,
    .valued("frames", "N", "stop after N frames, as if SIGTERM had come", hidden: true),
], notes: """
    --set applies after the file. Signals: SIGTERM/SIGINT stop (console restored, exit 0); SIGHUP
    reloads the configuration (a bad one is rejected and the running one stays); SIGUSR1 writes a
    snapshot PNG.
    """)

func runCommand(_ parsed: Arguments) -> Int32 {
    // Before anything that could start a thread: the signals are read in the poll loop, so a
    // SIGTERM during start-up is an orderly stop, not a kill with the display held.
    let signals: SignalDescriptor
    do {
        signals = try SignalDescriptor(RunDaemon.handledSignals)
    } catch {
        return fail("run: \(error)")
    }
    var options = RunDaemon.Options()
    do throws(Arguments.Failure) {
        guard parsed.positional.isEmpty else {
            throw Arguments.Failure(description: "run takes no arguments, got '\(parsed.positional[0])' (use --config FILE)")
        }
        options.configPath = parsed.value("config")
        options.overrides = parsed.all("set")
        if parsed.value("frames") != nil {
            options.maxFrames = try parsed.int("frames", default: 1, range: 1...Int(Int32.max))
        }
    } catch {
        writeError("pulsedot: run: \(error)\n" + runUsage.text)
        return 2
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
