import Metrics
import Syscall

/// What the loop counts for the summary line, STATUS and the watchdog: frames, their times, when
/// the last one was drawn, and the summary period. Nothing here allocates after `init`.
final class LoopCounters {
    let frameTimes = FrameTimes()
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

    func frameDone(took nanoseconds: Int64, at end: MonotonicInstant) {
        frameTimes.add(nanoseconds: nanoseconds)
        frameHistogram.observe(nanoseconds: nanoseconds)
        lastFrameAt = end
        frames += 1
    }

    /// Starts a new summary period at `now` (after a summary, or a reload with a new `summaryEvery`).
    func startPeriod(at now: MonotonicInstant, summaryEvery: Double? = nil) {
        if let summaryEvery { every = summaryEvery }
        frameTimes.startPeriod()
        periodStart = now
        schedule(from: now)
    }

    /// Frames per second over the current period; nil in its first half second.
    func measuredFps(at now: MonotonicInstant) -> Double? {
        let elapsed = periodStart.duration(to: now).seconds
        guard elapsed > 0.5 else { return nil }
        return Double(frameTimes.framesInPeriod) / elapsed
    }

    /// "12.0 fps, frame time p50 0.41 ms p99 0.93 ms" over the current period.
    func framesText(at now: MonotonicInstant) -> String {
        let elapsed = periodStart.duration(to: now).seconds
        let fps = elapsed > 0 ? Double(frameTimes.framesInPeriod) / elapsed : 0
        var line = formatFixed(fps, 1) + " fps"
        if let (p50, p99) = frameTimes.percentiles(50, 99) {
            line += ", frame time p50 " + formatFixed(Double(p50) / 1e6, 2) + " ms p99 " + formatFixed(Double(p99) / 1e6, 2) + " ms"
        } else {
            line += ", no frames"
        }
        return line
    }

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
