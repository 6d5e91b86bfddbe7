import Config
import Daemon
import Syscall

// `pulsedot status`: what a technician types first. Reads the metrics file the configuration
// names (no privileges needed: the file is world-readable) and prints a one-screen summary.

let statusUsage = Usage(
    command: "status", summary: "a one-screen summary of the running daemon, from its metrics file",
    options: [
        .valued("config", "FILE", "the configuration file naming [metrics] textfile (default \(Configuration.defaultPath); a missing default file means the defaults)"),
        .set,
    ],
    notes: """
        Exit 0 with the summary (WARNING lines first when something is wrong: a file that is no longer
        rewritten, no frame reaching the screen, no live fix); exit 1 when the file cannot be read.
        """)

func statusCommand(_ parsed: Arguments) -> Int32 {
    guard parsed.positional.isEmpty else {
        writeError("pulsedot: status: takes no arguments, got '\(parsed.positional[0])' (use --config FILE)\n" + statusUsage.text)
        return 2
    }
    let settings: MetricsSettings
    do {
        settings = try Configuration.load(path: parsed.value("config"), overrides: parsed.all("set")).settings.metrics
    } catch {
        return fail("status: \(error)")
    }
    guard let path = settings.textfile else {
        writeError("pulsedot: status: [metrics] textfile = none: the daemon writes no metrics file to read (set it, e.g. --set metrics.textfile=/run/pulsedot/metrics.prom)\n")
        return 1
    }
    let status: FileStatus
    let bytes: [UInt8]
    do {
        status = try FileStatus(path: path)
        bytes = try FileDescriptor.readWholeFile(path, limit: 1 << 20)
    } catch {
        writeError("pulsedot: status: \(error) (is the daemon running? systemctl status pulsedot)\n")
        return 1
    }
    do {
        let text = try StatusSummary.text(metrics: String(decoding: bytes, as: UTF8.self), path: path,
                                          written: Double(status.modificationTime) / 1e9, now: WallClock.now(), every: settings.every)
        print(text, terminator: "")
        return 0
    } catch {
        writeError("pulsedot: status: \(path): \(error)\n")
        return 1
    }
}
