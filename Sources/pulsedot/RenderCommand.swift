import Config
import Daemon
import Raster
import Scene

// `pulsedot render`: argument parsing only; the frame comes from Daemon's StillFrame.

let renderUsage = Usage(command: "render", summary: "render one frame of the dot to a PNG", options: [
    .valued("at", "SECONDS", "the animation clock: which moment of the pulse", required: true),
    .valued("out", "FILE.png", "where the PNG goes", required: true),
    .valued("width", "W", "image width in pixels (default 240)"),
    .valued("height", "H", "image height in pixels (default 240)"),
    .valued("scale", "S", "pixels per point (default 2; the same as --set scale=S)"),
    .valued("background", "COLOR", "the opaque colour behind the dot, #RRGGBB (default #E5E3DF)"),
    .valued("format", "xrgb8888|rgb565", "the pixel format drawn in, as a display would (default xrgb8888)"),
    .valued("heading", "DEG", "course in degrees clockwise from north, for the headingImage key (-360 to 360)"),
    .flag("entrance", "the entrance pop, started at clock 0"),
    .set,
])

func renderCommand(_ args: Arguments) -> Int32 {
    guard args.positional.isEmpty else { return fail("render: unexpected argument '\(args.positional[0])'") }
    guard args.value("at") != nil else { return fail("render needs --at SECONDS (the animation clock)") }
    guard let out = args.value("out") else { return fail("render needs --out FILE.png") }
    var frame = StillFrame()
    do {
        frame.time = try args.double("at", default: 0, range: 0...1e9)
        frame.width = try args.int("width", default: 240, range: 1...16384)
        frame.height = try args.int("height", default: 240, range: 1...16384)
        if args.value("heading") != nil {
            frame.heading = try args.double("heading", default: 0, range: -360...360)
        }
    } catch {
        return fail("\(error)")
    }
    if let text = args.value("format") {
        guard let format = PixelFormat(rawValue: text) else {
            return fail("render: --format \(text): expected xrgb8888 or rgb565")
        }
        frame.format = format
    }
    if let text = args.value("background") {
        let color: Color
        do { color = try Settings.color(text, option: "--background") } catch { return fail("\(error)") }
        guard color.a == 255 else {
            return fail("--background = \(text): the background must be opaque (#RRGGBB, or alpha FF)")
        }
        frame.background = color
    }
    frame.entrance = args.has("entrance")
    let settings: Settings
    do { settings = try lookSettings(args) } catch { return fail("\(error)") }
    frame.scale = settings.dot.scale ?? 2
    do { try frame.write(style: settings.dot.style, to: out) } catch { return fail("\(error)") }
    return 0
}

/// `--set KEY=VALUE ...` then `--scale S` (the option wins over a `--set scale=`).
func lookSettings(_ args: Arguments) throws(SettingError) -> Settings {
    var settings = Settings()
    try settings.set(all: args.all("set"))
    if let scale = args.value("scale") { try settings.set("scale=\(scale)") }
    try DotImages.load(&settings)
    return settings
}
