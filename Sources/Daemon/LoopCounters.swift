import Metrics
import Syscall

/// What the loop counts for the summary line, STATUS and the watchdog: frames, their work (drawing,
/// copying, presenting, and the display's own event handling, which may copy a frame just after a
/// vblank) apart from the time the display took to show them, when the last one was drawn, and
/// the summary period. Nothing here allocates after `init`.
final class LoopCounters {
    let frameTimes = FrameTimes()
    /// Per frame shown: how long the display took to take it (flip completion, vblank).
    let displayWaits = FrameTimes()
    /// Work done handling display events since the last frame, counted into the next frame's work.
    private var eventWork: Int64 = 0
    /// Every frame of the run, for the metrics file (the ring above only holds the latest).
    let frameHistogram = FrameTimeHistogram()
    private(set) var frames = 0
    private(set) var lastFrameAt: MonotonicInstant
    private(set) var periodStart: MonotonicInstant
    private(set) var nextSummary: MonotonicInstant?
    private var every: Double

    init(now: MonotonicInstant, summaryEvery: Double) {
        lastFrameAt = now
        periodStart = now
        every = summaryEvery
        schedule(from: now)
    }

    func frameDone(took work: Int64, at end: MonotonicInstant) {
        let nanoseconds = work + eventWork
        eventWork = 0
        frameTimes.add(nanoseconds: nanoseconds)
        frameHistogram.observe(nanoseconds: nanoseconds)
        lastFrameAt = end
        frames += 1
    }

    func displayEventsTook(_ nanoseconds: Int64) { eventWork &+= max(nanoseconds, 0) }

    func displayWaited(_ nanoseconds: Int64) { displayWaits.add(nanoseconds: nanoseconds) }

    /// Starts a new summary period at `now` (after a summary, or a reload with a new `summaryEvery`).
    func startPeriod(at now: MonotonicInstant, summaryEvery: Double? = nil) {
        if let summaryEvery { every = summaryEvery }
        frameTimes.startPeriod()
        displayWaits.startPeriod()
        periodStart = now
        schedule(from: now)
    }

    /// Frames per second over the current period; nil in its first half second.
    func measuredFps(at now: MonotonicInstant) -> Double? {
        let elapsed = periodStart.duration(to: now).seconds
        guard elapsed > 0.5 else { return nil }
        return Double(frameTimes.framesInPeriod) / elapsed
    }

    /// "12.0 fps, frame work p50 0.41 ms p99 0.93 ms, display wait p50 16.10 ms p99 16.90 ms" over
    /// the current period: the work is what the daemon spends, the wait what the display takes.
    func framesText(at now: MonotonicInstant) -> String {
        let elapsed = periodStart.duration(to: now).seconds
        let fps = elapsed > 0 ? Double(frameTimes.framesInPeriod) / elapsed : 0
        var line = formatFixed(fps, 1) + " fps"
        if let (p50, p99) = frameTimes.percentiles(50, 99) {
            line += ", frame work p50 " + Self.ms(p50) + " p99 " + Self.ms(p99)
            if let (w50, w99) = displayWaits.percentiles(50, 99) {
                line += ", display wait p50 " + Self.ms(w50) + " p99 " + Self.ms(w99)
            }
        } else {
            line += ", no frames"
        }
        return line
    }

    private static func ms(_ nanoseconds: Int64) -> String { formatFixed(Double(nanoseconds) / 1e6, 2) + " ms" }

    private func schedule(from now: MonotonicInstant) {
        nextSummary = every > 0 && every.isFinite ? now.advanced(by: .nanoseconds(Int64(every * 1e9))) : nil
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
