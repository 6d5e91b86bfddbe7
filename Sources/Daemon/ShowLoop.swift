import Compositor
import Config
import DisplayCore
import Geo
import LocationDot
import Outputs
import PNG
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
/// opening when the display goes away or is taken by another master. It waits as `run` waits
/// (`PollWaiting`: signals, the frame timer, the display's events) and draws through the same
/// `FrameStep`, the dot on the display's sprite plane where it has one.
public struct ShowLoop {
    let settings: ShowSettings
    let waiting: PollWaiting
    /// Kept for the whole run: its framebuffer console is one (a missing one is said once).
    let opener: DisplayOpener
    /// A line for the terminal.
    let say: (String) -> Void
    private var lastMessage = ""

    /// `signals` must already block SIGTERM and SIGINT.
    public init(settings: ShowSettings, signals: SignalDescriptor, say: @escaping (String) -> Void) {
        self.settings = settings
        self.say = say
        waiting = PollWaiting(signals: signals)
        // The opener's lines go to the terminal as show's own, without the journal's priority.
        let log = Journal(sink: { line in say(String(line.drop { $0 != ">" }.dropFirst().dropLast())) })
        opener = settings.tty.map { DisplayOpener(settings: settings.display, log: log, tty: $0) }
            ?? DisplayOpener(settings: settings.display, log: log)
    }

    /// How showing ended: by a signal (the console is back), or a failure that waiting cannot mend.
    public enum End: Equatable {
        case stopped
        case failed(String)
    }

    enum Outcome { case terminated, reopen, failed(String) }

    public mutating func run() -> End {
        defer { waiting.close() }
        while true {
            let display: any Display
            switch opener.open(now: MonotonicInstant.now().seconds) {
            case .success(let opened):
                display = opened
            case .failure(let unavailable):
                guard unavailable.recovery.isTransient else { return .failed("\(unavailable)") }
                sayOnce("\(unavailable)")
                if waitForSignal(seconds: 2) { return .stopped }
                continue
            }
            switch animate(display) {
            case .terminated:
                display.close()
                say("stopped; the console is back")
                return .stopped
            case .reopen:
                display.close()
                if waitForSignal(seconds: 1) { return .stopped }
            case .failed(let message):
                display.close()
                return .failed(message)
            }
        }
    }

    private mutating func animate(_ output: any Display) -> Outcome {
        let scale = settings.dot.scale(forDisplayLines: output.physicalHeight)
        let renderer: FrameRenderer
        do {
            renderer = try FrameRenderer(width: output.canvasWidth, height: output.canvasHeight, style: settings.dot.style,
                                         scale: scale, background: .color(settings.background))
        } catch {
            return .failed("\(error)")
        }
        output.adopt(canvas: renderer.canvas.buffer)
        let step = FrameStep(renderer: renderer, map: .window(MapWindow(color: settings.background, source: nil,
                                                                        canvasWidth: output.canvasWidth, canvasHeight: output.canvasHeight)))
        let planeDot = output.spritePlane.map { PlaneDot(plane: $0, style: settings.dot.style, scale: scale) }
        step.dotPlane = planeDot
        let cx = settings.x ?? Double(output.canvasWidth) / 2
        let cy = settings.y ?? Double(output.canvasHeight) / 2
        let still = ViewOffset(x: 0, y: 0)
        // The first frame is the background alone: the dot then always reaches the panel through
        // the per-frame path (flip or DirtyFB), the one that must work for the animation.
        renderer.render(nil, centerX: cx, centerY: cy)
        do { try output.start() } catch { return outcome(of: error) }
        lastMessage = ""
        say("\(output.displayName): dot at (\(cx), \(cy)) on a \(output.canvasWidth)x\(output.canvasHeight) canvas, scale \(scale); SIGTERM or SIGINT to stop")
        do { try waiting.setFrameRate(settings.fps) } catch { return .failed("\(error)") }
        let clock = DotClock(style: settings.dot.style)
        let start = MonotonicInstant.now()
        var drawnAt: Double?
        // The still frame's time once drawn, until it is on the screen.
        var stillUnshown: Double?
        while true {
            do throws(DisplayFailure) {
                let wakeup = try system { () throws(SyscallError) in
                    try waiting.wait(frames: true, display: output.pollDescriptor, source: -1, sourceEvents: 0, hotplug: nil, deadline: nil)
                }
                if !wakeup.signals.isEmpty { return .terminated }
                if wakeup.displayReady {
                    try output.handleEvents()
                    // Damage that waited for this flip or vblank goes out now, not a frame later.
                    if let t = stillUnshown, !output.isSettled {
                        output.recorder?.stamp(FrameStamp(sinceStart: t, monotonic: t))
                        try output.present(damage: .empty)
                    }
                }
                if wakeup.frameDue {
                    let t = settings.clock(elapsed: start.duration(to: .now()).seconds)
                    // A still frame is drawn once; the timer keeps the loop presenting until a
                    // deferred flip has gone out.
                    var damage = Rect.empty
                    if t != drawnAt {
                        damage = step.draw(clock.appearance(at: t), centerX: cx, centerY: cy, offset: still)
                        drawnAt = t
                        if t == settings.at { stillUnshown = t }
                    }
                    output.recorder?.stamp(FrameStamp(sinceStart: t, monotonic: t))
                    try output.present(damage: damage)
                }
                // Tests and installers wait for this before judging the screen: say it only once
                // the still frame is on the display, not when it was drawn or handed over.
                if let t = stillUnshown, output.isSettled {
                    if let path = settings.screenshot { writeScreenshot(path, canvas: renderer.canvas.buffer, planeDot: planeDot) }
                    say("still frame at clock \(t) s")
                    stillUnshown = nil
                }
            } catch {
                return outcome(of: error)
            }
        }
    }

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

    private mutating func outcome(of error: DisplayFailure) -> Outcome {
        guard error.recovery.isTransient else { return .failed("\(error)") }
        sayOnce("\(error)")
        return .reopen
    }

    /// A failed system call of the loop's own (poll, signals, timer): nothing to wait out.
    private func system<T>(_ call: () throws(SyscallError) -> T) throws(DisplayFailure) -> T {
        do { return try call() } catch { throw DisplayFailure(description: error.description, recovery: .giveUp) }
    }

    /// Waits up to `seconds` for SIGTERM/SIGINT; true when one came.
    private func waitForSignal(seconds: Double) -> Bool {
        let deadline = MonotonicInstant.now().advanced(by: .milliseconds(Int64(seconds * 1000)))
        let wakeup = try? waiting.wait(frames: false, display: nil, source: -1, sourceEvents: 0, hotplug: nil, deadline: deadline)
        return !(wakeup?.signals.isEmpty ?? true)
    }

    /// Says a waiting message once, not every retry.
    private mutating func sayOnce(_ message: String) {
        if message == lastMessage { return }
        lastMessage = message
        say(message)
    }
}
