import Config
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

    /// `systemctl status`'s line: output, fix state, frame rate and source.
    func statusText() -> String {
        let output: String
        switch display {
        case .active(let d): output = d.name
        case .waiting(let reason, _): output = "waiting for display (\(outputSetting)): \(reason)"
        }
        let fps: String
        if case .active = display, let measured = measuredFps {
            fps = formatFixed(measured, 1) + " fps"
        } else {
            fps = formatNumber(settings.display.fps) + " fps set"
        }
        return "\(output) · \(shownPhase.rawValue) · \(fps) · \(feed.name)"
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
        guard case .active = display else { return true }
        let allowed = max(2.0, 10 / settings.display.fps)
        return lastFrameAt.duration(to: now).seconds < allowed
    }

    func pingWatchdog(now: MonotonicInstant) {
        guard var cadence = watchdog, cadence.isDue(at: now), isHealthy(now: now) else { return }
        notify { n throws(SyscallError) in try n.watchdog() }
        cadence.sent(at: now)
        watchdog = cadence
    }

    // MARK: Summary

    func scheduleSummary(from now: MonotonicInstant) {
        let every = settings.log.summaryEvery
        nextSummary = every > 0 && every.isFinite ? now.advanced(by: .nanoseconds(Int64(every * 1e9))) : nil
    }

    /// Frames per second over the current summary period.
    var measuredFps: Double? {
        let elapsed = summaryStart.duration(to: .now()).seconds
        guard elapsed > 0.5 else { return nil }
        return Double(frameTimes.framesInPeriod) / elapsed
    }

    /// One line: frame rate, frame time p50/p99, fix age, gpsd reconnects, skipped lines.
    func summary(now: MonotonicInstant) {
        let elapsed = summaryStart.duration(to: now).seconds
        let fps = elapsed > 0 ? Double(frameTimes.framesInPeriod) / elapsed : 0
        var line = "summary: " + formatFixed(fps, 1) + " fps"
        if let (p50, p99) = frameTimes.percentiles(50, 99) {
            line += ", frame time p50 " + formatFixed(Double(p50) / 1e6, 2) + " ms p99 " + formatFixed(Double(p99) / 1e6, 2) + " ms"
        } else {
            line += ", no frames"
        }
        if let lastFix {
            line += ", fix age " + formatFixed(lastFix.receivedAt.duration(to: now).seconds, 1) + " s"
        } else {
            line += ", no fix yet"
        }
        line += ", \(shownPhase.rawValue), gpsd reconnects \(feed.reconnects), skipped lines \(feed.skippedLines)"
        if case .waiting(let reason, _) = display { line += ", waiting for display: \(reason)" }
        log.info(line)
        sendStatus()
        frameTimes.startPeriod()
        summaryStart = now
        scheduleSummary(from: now)
    }
}

/// `v` with exactly `digits` decimals (no libc printf: one shared formatter for log lines).
func formatFixed(_ v: Double, _ digits: Int) -> String {
    guard v.isFinite else { return "\(v)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let n = Int((abs(v) * scale).rounded())
    let whole = n / Int(scale), fraction = n % Int(scale)
    var text = (v < 0 && n != 0 ? "-" : "") + String(whole)
    if digits > 0 {
        let f = String(fraction)
        text += "." + String(repeating: "0", count: digits - f.count) + f
    }
    return text
}
