import Config
import Daemon
import DisplayCore
import FBDev
import Glibc
import KMS
import Raster
import Scene
import Syscall

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

    /// What the loop shows, as the options say.
    var show: ShowSettings {
        var s = ShowSettings()
        (s.display, s.tty, s.background, s.dot) = (display, tty, background, settings.dot)
        (s.x, s.y, s.fps, s.at, s.from, s.screenshot) = (x, y, fps, at, from, screenshot)
        return s
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
    var show = ShowLoop(settings: options.show, signals: signals) { line in writeError("pulsedot: \(line)\n") }
    switch show.run() {
    case .stopped: return 0
    case .failed(let message): return fail("show: \(message)")
    }
}
