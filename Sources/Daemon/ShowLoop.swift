import Compositor
import Config
import DisplayCore
import Geo
import LocationDot
import Loop
import Outputs
import PNG
import Positioning
import Raster
import Scene
import Syscall
import Systemd

/// What `pulsedot show` shows: the display as `run` would open it, the dot at a fixed place on a
/// plain background, its animation clock running or held.
public struct ShowSettings: Sendable {
    /// The display exactly as `run` would open it, with show's options over it.
    public var display = DisplaySettings()
    /// The virtual console a framebuffer puts into graphics mode; nil: the opener's own.
    public var tty: String?
    public var background = StillFrame.defaultBackground
    public var dot = DotSettings()
    /// The dot's centre in canvas pixels; nil: the middle.
    public var x: Double?
    public var y: Double?
    public var fps = 60.0
    /// Where the animation clock stops (a still frame), and where it runs from to there.
    public var at: Double?
    public var from: Double?
    /// With `at`: where the still frame as the screen shows it is written.
    public var screenshot: String?

    public init() {}

    /// The animation clock after `elapsed` seconds of showing.
    public func clock(elapsed: Double) -> Double {
        guard let at else { return elapsed }
        guard let from else { return at }
        return min(at, from + elapsed)
    }
}

/// `pulsedot show`'s loop: open, start and animate until a termination signal, going back to
/// opening when the display goes away or is taken by another master. It is `run`'s `FrameLoop`
/// (signals, the frame timer, the display's events, the retry) with what show plugs in
/// (`ShowFrames`): the dot at a fixed place drawn through the same `FrameStep`, on the display's
/// sprite plane where it has one, its clock running or held, the still frame's screenshot.
public struct ShowLoop {
    let frames: ShowFrames
    let waiting: PollWaiting

    /// `signals` must already block SIGTERM and SIGINT.
    public init(settings: ShowSettings, signals: SignalDescriptor, say: @escaping (String) -> Void) {
        waiting = PollWaiting(signals: signals)
        frames = ShowFrames(settings: settings, waiting: waiting, say: say)
    }

    /// How showing ended: by a signal (the console is back), or a failure that waiting cannot mend.
    public enum End: Equatable {
        case stopped
        case failed(String)
    }

    public mutating func run() -> End {
        defer { waiting.close() }
        do {
            try FrameLoop(waiting: waiting).run(frames)
        } catch {
            frames.shown?.output.close()
            return .failed("\(error)")
        }
        return frames.end
    }
}

/// What `show` plugs into the frame loop: the display as `run` would open it, the dot at a fixed
/// place on a plain background, its clock running or held (a still frame drawn once, the
/// screenshot written once the screen shows it), no source, no hot-plug, no deadlines of its own.
final class ShowFrames: FrameLoopClient {
    let settings: ShowSettings
    let waiting: PollWaiting
    /// Kept for the whole run: its framebuffer console is one (a missing one is said once).
    let opener: DisplayOpener
    /// A line for the terminal.
    let say: (String) -> Void
    private var lastMessage = ""
    private(set) var running = true
    private(set) var end = ShowLoop.End.stopped
    /// The display shown on, and how its frames are drawn; nil: waiting for one.
    private(set) var shown: Shown?
    private(set) var displayRetryAt: MonotonicInstant?

    /// A display started, the dot drawn on it.
    struct Shown {
        let output: any Display
        let step: FrameStep
        let renderer: FrameRenderer
        let planeDot: PlaneDot?
        let clock: DotClock
        let cx: Double
        let cy: Double
        let start: MonotonicInstant
    }
    private var drawnAt: Double?
    /// The still frame's time once drawn, until it is on the screen.
    private var stillUnshown: Double?

    init(settings: ShowSettings, waiting: PollWaiting, say: @escaping (String) -> Void) {
        self.settings = settings
        self.waiting = waiting
        self.say = say
        // The opener's lines go to the terminal as show's own, without the journal's priority.
        let log = Journal(sink: { line in say(String(line.drop { $0 != ">" }.dropFirst().dropLast())) })
        opener = settings.tty.map { DisplayOpener(settings: settings.display, log: log, tty: $0) }
            ?? DisplayOpener(settings: settings.display, log: log)
        displayRetryAt = waiting.now()
    }

    var loopDisplay: (any Display)? { shown?.output }
    var drawsFrames: Bool { shown != nil }
    var sourceDescriptor: Int32 { -1 }
    var sourceEvents: Int16 { 0 }
    var hotplugDescriptor: Int32? { nil }
    func nextDeadline() -> MonotonicInstant? { nil }

    func handle(signal: Int32, now: MonotonicInstant) {
        guard running else { return }
        running = false
        if let shown {
            shown.output.close()
            self.shown = nil
            say("stopped; the console is back")
        }
    }

    func retryDisplay(now: MonotonicInstant) {
        displayRetryAt = nil
        switch opener.open(now: now.seconds) {
        case .success(let opened):
            animate(opened, now: now)
        case .failure(let unavailable):
            guard unavailable.recovery.isTransient else { return fail("\(unavailable)") }
            sayOnce("\(unavailable)")
            displayRetryAt = now.advanced(by: .seconds(2))
        }
    }

    private func animate(_ output: any Display, now: MonotonicInstant) {
        let scale = settings.dot.scale(forDisplayLines: output.physicalHeight)
        let renderer: FrameRenderer
        do {
            renderer = try FrameRenderer(width: output.canvasWidth, height: output.canvasHeight, style: settings.dot.style,
                                         scale: scale, background: .color(settings.background))
        } catch {
            output.close()
            return fail("\(error)")
        }
        output.adopt(canvas: renderer.canvas.buffer)
        let step = FrameStep(renderer: renderer, map: .window(MapWindow(color: settings.background, source: nil,
                                                                        canvasWidth: output.canvasWidth, canvasHeight: output.canvasHeight)))
        let planeDot = output.spritePlane.map { PlaneDot(plane: $0, style: settings.dot.style, scale: scale) }
        step.dotPlane = planeDot
        let cx = settings.x ?? Double(output.canvasWidth) / 2
        let cy = settings.y ?? Double(output.canvasHeight) / 2
        // The first frame is the background alone: the dot then always reaches the panel through
        // the per-frame path (flip or DirtyFB), the one that must work for the animation.
        renderer.render(nil, centerX: cx, centerY: cy)
        do throws(DisplayFailure) {
            try output.start()
        } catch {
            output.close()
            return failed(error, now: now)
        }
        lastMessage = ""
        say("\(output.displayName): dot at (\(cx), \(cy)) on a \(output.canvasWidth)x\(output.canvasHeight) canvas, scale \(scale); SIGTERM or SIGINT to stop")
        do {
            try waiting.setFrameRate(settings.fps)
        } catch {
            output.close()
            return fail("\(error)")
        }
        (drawnAt, stillUnshown) = (nil, nil)
        shown = Shown(output: output, step: step, renderer: renderer, planeDot: planeDot, clock: DotClock(style: settings.dot.style),
                      cx: cx, cy: cy, start: waiting.now())
    }

    func displayEventsHandled(now: MonotonicInstant) throws(DisplayFailure) {
        // Damage that waited for this flip or vblank goes out now, not a frame later.
        if let t = stillUnshown, let output = shown?.output, !output.isSettled {
            output.recorder?.stamp(FrameStamp(sinceStart: t, monotonic: t))
            try output.present(damage: DamageRegion())
        }
    }

    func woke(_ wakeup: Wakeup, now: MonotonicInstant) {}

    func drawFrame(now: MonotonicInstant) -> FrameLoop.Frame {
        let shown = shown!
        let t = settings.clock(elapsed: shown.start.duration(to: now).seconds)
        // A still frame is drawn once; the timer keeps the loop presenting until a deferred flip
        // has gone out.
        var damage = DamageRegion()
        if t != drawnAt {
            damage = shown.step.draw(shown.clock.appearance(at: t), centerX: shown.cx, centerY: shown.cy, offset: ViewOffset(x: 0, y: 0))
            drawnAt = t
            if t == settings.at { stillUnshown = t }
        }
        return FrameLoop.Frame(damage: damage, stamp: FrameStamp(sinceStart: t, monotonic: t))
    }

    func framePresented(drawnAt now: MonotonicInstant, end: MonotonicInstant) {}

    func displayFailed(_ failure: DisplayFailure, now: MonotonicInstant) {
        shown?.output.close()
        shown = nil
        failed(failure, now: now)
    }

    /// Tests and installers wait for the still frame's line before judging the screen: it is said
    /// only once the frame is on the display, not when it was drawn or handed over.
    func turnDone(now: MonotonicInstant) {
        guard let t = stillUnshown, let shown, shown.output.isSettled else { return }
        if let path = settings.screenshot { writeScreenshot(path, canvas: shown.renderer.canvas.buffer, planeDot: shown.planeDot) }
        say("still frame at clock \(t) s")
        stillUnshown = nil
    }

    func turnEnded(now: MonotonicInstant) {}

    /// The still frame as the screen shows it: with the dot on a plane, read back (or composed
    /// like the plane does); otherwise the canvas, which is what was copied out.
    private func writeScreenshot(_ path: String, canvas: PixelBuffer, planeDot: PlaneDot?) {
        let picture = planeDot?.screen(canvas: canvas)
        do {
            // The buffer is a view of the picture's pixels: the picture must outlive the write.
            try withExtendedLifetime(picture?.picture) { () throws(PNGError) in try PNGWrite.frame(picture?.picture.buffer ?? canvas, to: path) }
            say("screenshot \(path) (\(picture?.source ?? "the frame as drawn"))")
        } catch {
            say("screenshot \(path): \(error)")
        }
    }

    /// A display that failed (already closed): opened again a second later, unless waiting
    /// cannot mend it.
    private func failed(_ error: DisplayFailure, now: MonotonicInstant) {
        guard error.recovery.isTransient else { return fail("\(error)") }
        sayOnce("\(error)")
        displayRetryAt = now.advanced(by: .seconds(1))
    }

    private func fail(_ message: String) {
        end = .failed(message)
        running = false
    }

    /// Says a waiting message once, not every retry.
    private func sayOnce(_ message: String) {
        if message == lastMessage { return }
        lastMessage = message
        say(message)
    }
}
