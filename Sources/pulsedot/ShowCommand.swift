import Compositor
import Config
import Daemon
import DisplayCore
import FBDev
import Glibc
import KMS
import LocationDot
import Outputs
import PNG
import Positioning
import Raster
import Scene
import Syscall
import Systemd

// `pulsedot show`, on a DRM card or (`--fbdev PATH`) a legacy framebuffer: the animated dot on
// the display until SIGTERM/SIGINT, then the console back and exit 0. It is the installer's
// display test ("does this panel work, which way is up?"); `--at` freezes the animation clock so
// the screen can be compared with `pulsedot render --at`.

let showUsage = Usage(command: "show", summary: "show the animated dot on the display the service would use (or the one given) until SIGTERM/SIGINT", options: [
    .valued("device", "PATH", "the DRM card (default: the configuration's, else the first /dev/dri/card* with a connected connector)"),
    .valued("connector", "NAME", "the connector by its kernel name, e.g. HDMI-A-1, or auto (default: the configuration's, else the first connected)"),
    .valued("mode", "WxH[@HZ]", "the mode (default: the configuration's, else the user-defined one, else the preferred, else the largest)"),
    .valued("format", "xrgb8888|rgb565", "the pixel format (default: the configuration's; xrgb8888 means the framebuffer's own with --fbdev)"),
    .valued("rotation", "0|90|180|270", "turn the picture clockwise (default: the configuration's, else the panel orientation)"),
    .valued("update", "auto|flip|damage", "page flips or DirtyFB (default: the configuration's, else what the driver supports)"),
    .valued("background", "COLOR", "the opaque colour behind the dot, #RRGGBB (default #E5E3DF)"),
    .valued("scale", "S", "pixels per point (the same as --set scale=S; default from the display's size)"),
    .valued("x", "X", "the dot's centre in canvas pixels, with --y (default: the middle)"),
    .valued("y", "Y", "the dot's centre in canvas pixels, with --x (default: the middle)"),
    .valued("fps", "N", "frames per second (default 60, from 1 to 240)"),
    .valued("at", "SECONDS", "freeze the animation clock here: a still frame, as `pulsedot render --at`"),
    .valued("from", "SECONDS", "with --at: run the clock from here to --at at real speed, then stay"),
    .valued("screenshot", "FILE.png", "with --at: once the still frame is on the display, write what it shows (read back from the display controller where the dot is on a plane and a writeback connector can capture it)"),
    .config,
    .set,
    .valued("fbdev", "PATH", "a legacy framebuffer (/dev/fbN) instead of a DRM card"),
    .valued("tty", "PATH", "with a framebuffer: the virtual console to put into graphics mode (default \(VirtualConsole.defaultPath))"),
], notes: """
    The installer's display test. It reads the service's configuration (--config, its drop-ins,
    --set) for the display and the dot's look, and each option here overrides it, so with no
    options it opens the display exactly as `run` would. SIGTERM or SIGINT puts the console back
    and exits 0. With --at it says "still frame at clock T s" on stderr once that frame is on the
    display.
    """)

struct ShowOptions {
    /// The display exactly as `run` would open it: the configuration's `[display]`, then the
    /// options given here.
    var display = DisplaySettings()
    /// `--tty`: the virtual console a framebuffer puts into graphics mode.
    var tty = VirtualConsole.defaultPath
    var background = StillFrame.defaultBackground
    var x: Double?
    var y: Double?
    var fps = 60.0
    var at: Double?
    var from: Double?
    var screenshot: String?
    var settings = Settings()

    init(_ args: Arguments) throws(Arguments.Failure) {
        guard args.positional.isEmpty else { throw Arguments.Failure(description: "unexpected argument '\(args.positional[0])'") }
        try readClock(args)
        if let text = args.value("background") {
            let c: Color
            do { c = try Settings.color(text, option: "--background") } catch { throw Arguments.Failure(error) }
            guard c.a == 255 else { throw Arguments.Failure(description: "--background \(text): the background must be opaque (#RRGGBB)") }
            background = c
        }
        settings = try serviceConfiguration(args).settings
        display = settings.display
        try readDisplay(args)
    }

    private mutating func readClock(_ args: Arguments) throws(Arguments.Failure) {
        if args.value("x") != nil || args.value("y") != nil {
            guard args.value("x") != nil, args.value("y") != nil else { throw Arguments.Failure(description: "--x and --y go together") }
            x = try args.double("x", default: 0, range: -1e6...1e6)
            y = try args.double("y", default: 0, range: -1e6...1e6)
        }
        fps = try args.double("fps", default: 60, range: 1...240)
        if args.value("at") != nil { at = try args.double("at", default: 0, range: 0...1e9) }
        if args.value("from") != nil {
            guard let at else { throw Arguments.Failure(description: "--from needs --at (where the clock stops)") }
            let from = try args.double("from", default: 0, range: 0...1e9)
            guard from <= at else { throw Arguments.Failure(description: "--from \(from) is after --at \(at)") }
            self.from = from
        }
        if let path = args.value("screenshot") {
            guard at != nil else { throw Arguments.Failure(description: "--screenshot needs --at (a still frame to capture)") }
            screenshot = path
        }
    }

    /// The options over the configured display. A device or connector given here means a DRM
    /// card, `--fbdev` a framebuffer; a headless output (png:, none) has no screen to show on.
    private mutating func readDisplay(_ args: Arguments) throws(Arguments.Failure) {
        if let text = args.value("mode") {
            do {
                let m = try ModeRequest(parsing: text)
                display.mode = DisplaySettings.Mode(width: m.width, height: m.height, refreshMilliHz: m.refreshMilliHz)
            } catch { throw Arguments.Failure(error) }
        }
        if let text = args.value("format") {
            guard let f = PixelFormat(rawValue: text) else { throw Arguments.Failure(description: "--format \(text): expected xrgb8888 or rgb565") }
            display.format = f
        }
        if let text = args.value("rotation") {
            guard let degrees = Int(text), let r = Rotation(degrees: degrees) else {
                throw Arguments.Failure(description: "--rotation \(text): expected 0, 90, 180 or 270 (clockwise)")
            }
            display.rotation = r
        }
        if let text = args.value("update") {
            guard let u = UpdateMode(rawValue: text) else { throw Arguments.Failure(description: "--update \(text): expected auto, flip or damage") }
            display.update = u
        }
        if let path = args.value("fbdev") {
            for drmOnly in ["device", "connector"] where args.value(drmOnly) != nil {
                throw Arguments.Failure(description: "--\(drmOnly) is for DRM devices; --fbdev \(path) names the framebuffer")
            }
            display.output = .fbdev
            display.device = path
        } else if args.value("device") != nil || args.value("connector") != nil {
            display.output = .kms
            if let device = args.value("device") { display.device = device }
            if let connector = args.value("connector") { display.connector = connector == "auto" ? nil : connector }
        }
        switch display.output {
        case .png, .none:
            throw Arguments.Failure(description: "the configuration's [display] output is \(display.outputText), which has no screen to show on (give --device or --fbdev, or --set output=auto)")
        case .auto, .kms, .fbdev:
            break
        }
        if let path = args.value("tty") {
            guard display.output != .kms else { throw Arguments.Failure(description: "--tty goes with a framebuffer (--fbdev); a DRM display needs no console switch") }
            tty = path
        }
    }

    /// The animation clock after `elapsed` seconds of showing.
    func clock(elapsed: Double) -> Double {
        guard let at else { return elapsed }
        guard let from else { return at }
        return min(at, from + elapsed)
    }
}

func showCommand(_ args: Arguments) -> Int32 {
    let options: ShowOptions
    do { options = try ShowOptions(args) } catch { return fail("show: \(error)") }
    // Blocked before anything else, so a SIGTERM during start-up is read by the loop, not fatal
    // with the CRTC still ours.
    let signals: SignalDescriptor
    do { signals = try SignalDescriptor([SIGTERM, SIGINT]) } catch { return fail("show: \(error)") }
    defer { signals.close() }
    var show = ShowLoop(options: options, signals: signals)
    return show.run()
}

/// Open, start and animate until a termination signal, going back to opening when the display
/// goes away or is taken by another master.
struct ShowLoop {
    let options: ShowOptions
    let signals: SignalDescriptor
    /// Kept for the whole run: its framebuffer console is one (a missing one is said once).
    let opener: DisplayOpener
    private var lastMessage = ""

    init(options: ShowOptions, signals: SignalDescriptor) {
        self.options = options
        self.signals = signals
        // The opener's lines go to the terminal as show's own, without the journal's priority.
        let log = Journal(sink: { line in say(String(line.drop { $0 != ">" }.dropFirst().dropLast())) })
        opener = DisplayOpener(settings: options.display, log: log, tty: options.tty)
    }

    enum Outcome { case terminated, reopen, failed(String) }

    mutating func run() -> Int32 {
        while true {
            let display: any Display
            switch opener.open(now: MonotonicInstant.now().seconds) {
            case .success(let opened):
                display = opened
            case .failure(let unavailable):
                guard unavailable.recovery.isTransient else { return fail("show: \(unavailable)") }
                sayOnce("\(unavailable)")
                if waitForSignal(seconds: 2) { return 0 }
                continue
            }
            switch animate(display) {
            case .terminated:
                display.close()
                say("stopped; the console is back")
                return 0
            case .reopen:
                display.close()
                if waitForSignal(seconds: 1) { return 0 }
            case .failed(let message):
                display.close()
                return fail("show: \(message)")
            }
        }
    }

    private mutating func animate(_ output: any Display) -> Outcome {
        let scale = options.settings.dot.scale(forDisplayLines: output.physicalHeight)
        let renderer: FrameRenderer
        do {
            renderer = try FrameRenderer(width: output.canvasWidth, height: output.canvasHeight, style: options.settings.dot.style,
                                         scale: scale, background: .color(options.background))
        } catch {
            return .failed("\(error)")
        }
        output.adopt(canvas: renderer.canvas.buffer)
        let planeDot = output.spritePlane.map { PlaneDot(plane: $0, style: options.settings.dot.style, scale: scale) }
        let cx = options.x ?? Double(output.canvasWidth) / 2
        let cy = options.y ?? Double(output.canvasHeight) / 2
        // The first frame is the background alone: the dot then always reaches the panel through
        // the per-frame path (flip or DirtyFB), the one that must work for the animation.
        renderer.render(nil, centerX: cx, centerY: cy)
        do { try output.start() } catch { return outcome(of: error) }
        lastMessage = ""
        say("\(output.displayName): dot at (\(cx), \(cy)) on a \(output.canvasWidth)x\(output.canvasHeight) canvas, scale \(scale); SIGTERM or SIGINT to stop")
        let timer: FrameTimer
        do { timer = try FrameTimer(rate: options.fps) } catch { return .failed("\(error)") }
        defer { timer.close() }
        let clock = DotClock(style: options.settings.dot.style)
        let start = MonotonicInstant.now()
        var drawnAt: Double?
        // The still frame's time once drawn, until it is on the screen.
        var stillUnshown: Double?
        var fds = [pollfd(fd: signals.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: timer.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: output.pollDescriptor ?? -1, events: Int16(POLLIN), revents: 0)]
        while true {
            do throws(DisplayFailure) {
                _ = try system { () throws(SyscallError) in try Poll.wait(&fds, timeoutMilliseconds: -1) }
                if fds[0].revents != 0, try system({ () throws(SyscallError) in try signals.next() }) != nil { return .terminated }
                if fds[2].revents != 0 {
                    try output.handleEvents()
                    // Damage that waited for this flip or vblank goes out now, not a frame later.
                    if let t = stillUnshown, !output.isSettled {
                        output.recorder?.stamp(FrameStamp(sinceStart: t, monotonic: t))
                        try output.present(damage: .empty)
                    }
                }
                if fds[1].revents != 0, try system({ () throws(SyscallError) in try timer.expirations() }) > 0 {
                    let t = options.clock(elapsed: start.duration(to: .now()).seconds)
                    // A still frame is drawn once; the timer keeps the loop presenting until a
                    // deferred flip has gone out.
                    var damage = Rect.empty
                    if t != drawnAt {
                        let appearance = clock.appearance(at: t)
                        damage = planeDot?.render(renderer, appearance, centerX: cx, centerY: cy)
                            ?? renderer.render(appearance, centerX: cx, centerY: cy)
                        drawnAt = t
                        if t == options.at { stillUnshown = t }
                    }
                    output.recorder?.stamp(FrameStamp(sinceStart: t, monotonic: t))
                    try output.present(damage: damage)
                }
                // Tests and installers wait for this before judging the screen: say it only once
                // the still frame is on the display, not when it was drawn or handed over.
                if let t = stillUnshown, output.isSettled {
                    if let path = options.screenshot { writeScreenshot(path, canvas: renderer.canvas.buffer, planeDot: planeDot) }
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
        var fds = [pollfd(fd: signals.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        guard (try? Poll.wait(&fds, timeoutMilliseconds: Int32(seconds * 1000))) ?? 0 > 0 else { return false }
        return (try? signals.next()) != nil
    }

    /// Says a waiting message once, not every retry.
    private mutating func sayOnce(_ message: String) {
        if message == lastMessage { return }
        lastMessage = message
        say(message)
    }
}

private func say(_ line: String) {
    writeError("pulsedot: \(line)\n")
}
