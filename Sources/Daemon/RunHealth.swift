import Config
import Location
import Loop
import Outputs
import Positioning
import Scene
import Syscall
import Systemd

/// What the daemon tells systemd and the log about its health: STATUS, the watchdog ping and the
/// periodic summary line.
extension RunDaemon {
    /// Sends a notification when running under systemd; a failure is logged once, never fatal.
    func notify(_ body: (SystemdNotifier) throws(SyscallError) -> Void) {
        guard let notifier else { return }
        do {
            try body(notifier)
        } catch {
            log.warning("systemd notification to \(notifier.address): \(error)", topic: "notify")
        }
    }

    /// `systemctl status`'s line: output (with the composition that draws it), fix state, frame
    /// rate and source.
    func statusText() -> String {
        let output: String
        if blanking.blanked {
            output = "screen off for the night (blank \(blanking.settings.schedule))"
        } else if let d = display.driven {
            output = d.displayName + " · " + d.compositionPhrase
        } else {
            output = "waiting for display (\(outputSetting)): \(display.waitingReason ?? "")"
        }
        let fps: String
        if display.driven != nil, !blanking.blanked, let measured = counters.measuredFps(at: waiting.now()) {
            fps = formatFixed(measured, 1) + " fps"
        } else {
            fps = formatNumber(settings.display.fps) + " fps set"
        }
        let transitPart = (transitStatus ?? kioskStatus).map { " · " + $0 } ?? ""
        let degradedPart = degradedParts.isEmpty ? "" : " · degraded: " + degradedParts.map { $0.part }.joined(separator: ", ")
        return "\(output) · \(shownPhase.rawValue) · \(fps) · \(source.name)\(transitPart)\(degradedPart)"
    }

    /// The parts left out because a file they need cannot be read now, with why: the screen runs
    /// without them and takes them up when they can be read.
    var degradedParts: [(part: String, reason: String)] {
        var parts: [(part: String, reason: String)] = []
        if let leftOut = map.leftOut { parts.append(("map", leftOut.reason)) }
        if let failure = transit.failure, settings.transit.gtfs != nil { parts.append(("transit", failure)) }
        return parts
    }

    func sendStatus() {
        guard announced else { return }
        notify { n throws(SyscallError) in try n.status(statusText()) }
    }

    /// `[display] output` as written in the configuration.
    var outputSetting: String {
        switch settings.display.output {
        case .auto: "auto"
        case .kms: "kms"
        case .fbdev: "fbdev"
        case .png(let dir): "png:" + dir
        case .none: "none"
        }
    }

    /// The loop's own health: it is running (this is called from it), and while a display is
    /// driven, frames are being drawn. Display flips are not asked: a panel that is off stops
    /// them, and that is no reason to be restarted.
    func isHealthy(now: MonotonicInstant) -> Bool {
        // Off for the night, drawing nothing is what it should do.
        guard display.driven != nil, !blanking.blanked else { return true }
        let allowed = max(2.0, 10 / settings.display.fps)
        return counters.lastFrameAt.duration(to: now).seconds < allowed
    }

    func pingWatchdog(now: MonotonicInstant) {
        guard var cadence = watchdog, cadence.isDue(at: now) else { return }
        watchdogWithheld = !isHealthy(now: now)
        if watchdogWithheld { return }
        notify { n throws(SyscallError) in try n.watchdog() }
        cadence.sent(at: now)
        watchdog = cadence
    }

    // MARK: Summary

    /// One line: frame rate, frame time p50/p99, fix age, gpsd reconnects, skipped lines.
    func summary(now: MonotonicInstant) {
        var line = "summary: " + counters.framesText(at: now)
        if let lastFix {
            line += ", fix age " + formatFixed(lastFix.receivedAt.duration(to: now).seconds, 1) + " s"
        } else {
            line += ", no fix yet"
        }
        line += ", \(shownPhase.rawValue), gpsd reconnects \(source.reconnects), skipped lines \(source.skippedLines)"
        if let reason = display.waitingReason { line += ", waiting for display: \(reason)" }
        log.info(line)
        sendStatus()
        counters.startPeriod(at: now)
    }
}
