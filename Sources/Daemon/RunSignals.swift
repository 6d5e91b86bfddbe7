import Compositor
import DisplayCore
import Glibc
import Outputs
import PNG
import Raster
import Scene
import Syscall
import Systemd

/// The signals `run` acts on, read in the loop (never in a handler): SIGTERM/SIGINT stop
/// (console restored, exit 0), SIGHUP reloads the configuration, SIGUSR1 writes a snapshot PNG.
extension RunDaemon {
    /// The set to block before any thread starts, and to give `SignalDescriptor`.
    public static let handledSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1]

    public func handle(signal: Int32, now: MonotonicInstant) {
        switch signal {
        case SIGTERM, SIGINT:
            log.notice("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
            running = false
        case SIGHUP:
            countedReload(now: now)
        case SIGUSR1:
            snapshot()
        default:
            break
        }
    }

    /// SIGUSR1: a display that keeps frames (png:) takes an extra one into its sequence; for a
    /// panel, the next frame's canvas is written to the snapshot directory.
    func snapshot() {
        guard let d = display.driven else {
            log.warning("SIGUSR1: no snapshot, no display is being driven (\(statusText()))")
            return
        }
        if let recorder = d.display.recorder { recorder.recordNextFrame() } else { snapshotRequested = true }
    }

    /// Writes the canvas as it is now (logical orientation) to the snapshot directory.
    func writeSnapshot(_ d: DrivenDisplay, now: MonotonicInstant) {
        snapshotRequested = false
        let t = started.duration(to: now).seconds
        let path = environment.snapshotDirectory + "/snapshot-" + formatFixed(t, 3) + ".png"
        do {
            if let screen = d.view.screen() {
                // The buffer is a view of the picture's pixels: the picture must outlive the write.
                try withExtendedLifetime(screen.picture) { () throws(PNGError) in try PNGWrite.frame(screen.picture.buffer, to: path) }
                log.notice("snapshot: \(path) (\(screen.source))")
            } else {
                try PNGWrite.frame(d.view.currentCanvas(), to: path)
                log.notice("snapshot: \(path)")
            }
        } catch {
            log.error("snapshot: \(error)")
        }
    }
}
