import DisplayCore
import FrameBench
import Loop
import Raster
import Syscall

/// What `pulsedot bench` plugs into the daemon's frame loop: its display, always held and always
/// drawn to; no position source, no hot-plug, no deadlines of its own. Frames are numbered from
/// 0 and drawn by the scene (`BenchFrames.draw` or `BenchDrive.draw`); the loop turns until
/// frame `end` is presented, and each presented frame's figures, time and hash are kept. After
/// each turn the next frame is prepared, as the daemon's workers prepare tiles between frames.
final class BenchLoop: FrameLoopClient {
    let options: BenchOptions
    let frames: BenchFrames?
    let drive: BenchDrive?
    let planes: BenchPlanes?
    let display: BenchDisplay
    let reference: BenchReference?
    let hashing: Bool
    /// The frame drawn next.
    private(set) var next = 0
    /// The loop ends once this frame number is reached.
    var end = 0
    /// Inside `BenchRun.counted`: the frames callgrind counts.
    var counting = false

    /// Per frame: pixels redrawn in the canvas, pixels copied out, wall time, hash.
    private(set) var touched: [Int]
    private(set) var copied: [Int]
    private(set) var nanoseconds: [Int64]
    private(set) var hashes: [UInt64]
    /// Frames beyond `BenchTolerance` of the reference painter's.
    private(set) var mismatches = 0
    /// Frames not byte-equal to the reference painter's, and the largest channel difference seen.
    private(set) var inexact = 0
    private(set) var largestDifference = 0
    private(set) var firstMismatch: Int?

    private var drawnTouched = 0
    private var copiedBefore = 0
    private var started = MonotonicInstant(nanoseconds: 0)
    private var stopped = false
    private var prepared = -1

    init(_ options: BenchOptions, frames: BenchFrames?, drive: BenchDrive?, planes: BenchPlanes?, display: BenchDisplay,
         reference: BenchReference?, hashing: Bool) {
        self.options = options
        self.frames = frames
        self.drive = drive
        self.planes = planes
        self.display = display
        self.reference = reference
        self.hashing = hashing
        touched = [Int](repeating: 0, count: options.frames)
        copied = [Int](repeating: 0, count: options.frames)
        nanoseconds = [Int64](repeating: 0, count: options.frames)
        hashes = [UInt64](repeating: 0, count: options.frames)
    }

    var running: Bool { !stopped && next < end }
    var loopDisplay: (any Display)? { display }
    var drawsFrames: Bool { true }
    var displayRetryAt: MonotonicInstant? { nil }
    var sourceDescriptor: Int32 { -1 }
    var sourceEvents: Int16 { 0 }
    var hotplugDescriptor: Int32? { nil }
    func nextDeadline() -> MonotonicInstant? { nil }
    /// The virtual clock's stop (its limit passed): the bench has lost count of its frames.
    func handle(signal: Int32, now: MonotonicInstant) { stopped = true }
    func displayEventsHandled(now: MonotonicInstant) throws(DisplayFailure) {}
    func woke(_ wakeup: Wakeup, now: MonotonicInstant) {}

    func drawFrame(now: MonotonicInstant) -> FrameLoop.Frame {
        started = .now()
        copiedBefore = display.scanoutStatistics?.pixelsCopied ?? 0
        let drawn = drive?.draw(next) ?? frames!.draw(next)
        drawnTouched = drawn.touched
        let t = Double(next) / BenchScene.frameRate
        return FrameLoop.Frame(damage: drawn.changed, stamp: FrameStamp(sinceStart: t, monotonic: t))
    }

    /// The frame presented: its figures kept, its hash taken and checked.
    func framePresented(drawnAt now: MonotonicInstant, end: MonotonicInstant) {
        let n = next
        next += 1
        touched[n] = drawnTouched
        copied[n] = (display.scanoutStatistics?.pixelsCopied ?? 0) - copiedBefore + (planes?.takeDrawn() ?? 0)
        nanoseconds[n] = MonotonicInstant.now().nanoseconds - started.nanoseconds
        guard hashing else { return }
        hashes[n] = BenchHash.frame(shown(n))
        if let reference, reference.frame(options.scene == .copy ? 0 : n) != hashes[n] {
            let difference = BenchTolerance.largestDifference(shown(n), reference.out.buffer)
            largestDifference = max(largestDifference, difference)
            inexact += 1
            if difference > BenchTolerance.allowed(options.format) {
                mismatches += 1
                if firstMismatch == nil { firstMismatch = n }
            }
        }
    }

    /// The bench's display keeps its frames in RAM and never fails.
    func displayFailed(_ failure: DisplayFailure, now: MonotonicInstant) {
        preconditionFailure("the bench's display failed: \(failure)")
    }

    func turnDone(now: MonotonicInstant) {}
    func retryDisplay(now: MonotonicInstant) {}
    func turnEnded(now: MonotonicInstant) { prepareNext() }

    /// Before the next frame, between frames, once: the drive's tiles decoded (a frame never
    /// decodes). Inside `BenchRun.counted` it runs behind `uncounted`, which the guard toggles off.
    func prepareNext() {
        guard prepared != next, next < options.frames, let drive else { return }
        prepared = next
        if counting { uncounted(next) } else { drive.prepare(next) }
    }

    @inline(never)
    func uncounted(_ n: Int) { drive?.prepare(n) }

    /// What frame `n` shows under the dot: the scan-out buffer on screen, or the window of the map
    /// picture on the primary plane (before any flip: the buffer frame `n` would have written).
    func shown(_ n: Int) -> PixelBuffer {
        if let picture = planes?.shownPicture { return picture }
        return display.front ?? display.scanout.shown(n)
    }
}
