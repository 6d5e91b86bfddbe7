import Glibc
import Outputs
import PNG
import Syscall

/// The signals `run` acts on, read from a signalfd in the poll loop (never in a handler):
/// SIGTERM/SIGINT stop (console restored, exit 0), SIGHUP reloads the configuration, SIGUSR1
/// writes a snapshot PNG.
extension RunDaemon {
    /// The set to block before any thread starts, and to give `SignalDescriptor`.
    public static let handledSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1]

    func readSignals(now: MonotonicInstant) {
        while true {
            let signal: Int32?
            do {
                signal = try signals.next()
            } catch {
                log.error("\(error)")
                return
            }
            guard let signal else { return }
            switch signal {
            case SIGTERM, SIGINT:
                log.notice("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
                running = false
            case SIGHUP:
                reload(now: now)
            case SIGUSR1:
                snapshot(now: now)
            default:
                break
            }
        }
    }

    /// SIGUSR1: with `png:` an extra frame in the sequence (at the next frame); otherwise a PNG of
    /// the canvas in the snapshot directory.
    func snapshot(now: MonotonicInstant) {
        guard case .active = display else {
            log.warning("SIGUSR1: no snapshot, no display is being driven (\(statusText()))")
            return
        }
        snapshotRequested = true
    }

    /// Where SIGUSR1 snapshots of a display go: systemd's `$STATE_DIRECTORY` (the unit's
    /// `StateDirectory=pulsedot`, /var/lib/pulsedot: the one place the service may write), else
    /// the current directory. `png:` outputs put them among their frames instead.
    static func snapshotDirectory() -> String {
        guard let value = getenv("STATE_DIRECTORY").map({ String(cString: $0) }), !value.isEmpty else { return "." }
        // Several state directories are separated by colons; the first is ours.
        return String(value.split(separator: ":").first ?? Substring(value))
    }

    /// Writes the canvas as it is now (logical orientation) to the snapshot directory.
    func writeSnapshot(_ d: ActiveDisplay, now: MonotonicInstant) {
        snapshotRequested = false
        let t = started.duration(to: now).seconds
        let path = Self.snapshotDirectory() + "/snapshot-" + formatFixed(t, 3) + ".png"
        do {
            try PNGWrite.frame(d.view.renderer.shadow.buffer, to: path)
            log.notice("snapshot: \(path)")
        } catch {
            log.error("snapshot: \(error)")
        }
    }
}
