import DisplayCore
import Raster

/// The `[display]` section: where frames go and how.
public struct DisplaySettings: Sendable {
    public enum Output: Equatable, Sendable {
        /// KMS when a display can be driven, else the framebuffer, else wait for one and say so.
        case auto
        case kms
        case fbdev
        /// Headless: PNG frames and `frames.jsonl` in this directory.
        case png(directory: String)
        /// Render and discard (measurements).
        case none
    }

    /// `WxH[@HZ]`: a physical mode as the panel reports it; for `png:` and `none` the frame size.
    public struct Mode: Equatable, Sendable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        /// In millihertz (59.94 Hz stays 59940); nil: any refresh.
        public var refreshMilliHz: Int?

        public init(width: Int, height: Int, refreshMilliHz: Int? = nil) {
            self.width = width; self.height = height; self.refreshMilliHz = refreshMilliHz
        }

        public var description: String {
            guard let r = refreshMilliHz else { return "\(width)x\(height)" }
            return "\(width)x\(height)@" + (r % 1000 == 0 ? String(r / 1000) : formatNumber(Double(r) / 1000))
        }
    }

    /// The frame size of `png:` and `none` when no mode is given.
    public static let headlessSize = Mode(width: 1280, height: 800)

    public var output: Output = .auto
    /// The DRM card or framebuffer device; nil: the first DRM card with a connected connector,
    /// or /dev/fb0.
    public var device: String? = nil
    /// The kernel's connector name (`HDMI-A-1`, `DSI-1`); nil: the first connected one.
    public var connector: String? = nil
    /// nil: the connector's own choice (user-defined, else preferred, else largest), or
    /// `headlessSize` for `png:` and `none`.
    public var mode: Mode? = nil
    public var format: PixelFormat = .xrgb8888
    /// Clockwise turn of the content; nil: the panel's orientation, else 0.
    public var rotation: Rotation? = nil
    public var update: UpdateMode = .auto
    public var composition: Composition = .auto
    public var fps: Double = 60
    public var pngFps: Double = 2
    public var blanking = BlankingSettings()
    public var brightness = BrightnessSettings()

    public init() {}

    /// The `output` key's value as the file writes it.
    public var outputText: String {
        switch output {
        case .auto: return "auto"
        case .kms: return "kms"
        case .fbdev: return "fbdev"
        case .png(let dir): return "png:" + dir
        case .none: return "none"
        }
    }

    /// The frame size a headless output (`png:`, `none`) renders: `mode`, else 1280x800.
    public var headlessFrameSize: (width: Int, height: Int) {
        let m = mode ?? Self.headlessSize
        return (m.width, m.height)
    }
}

extension SettingsTable {
    static let displayKeys: [SettingKey] = [
        SettingKey(section: "display", name: "output", allowed: "auto, kms, fbdev, png:DIR, none",
                   meaning: "auto: KMS when a display can be driven, else the framebuffer, else wait for one and say so; png:DIR writes PNG frames and DIR/frames.jsonl (headless testbeds); none renders and discards",
                   parse: { text, s, origin throws(SettingProblem) in
                       if text.hasPrefix("png:") {
                           let dir = String(text.dropFirst(4))
                           guard !dir.isEmpty else { throw SettingProblem("png: needs a directory (e.g. png:/var/lib/pulsedot/frames)") }
                           s.display.output = .png(directory: resolvePath(dir, origin: origin))
                       } else {
                           s.display.output = try parseChoice(text, [("auto", .auto), ("kms", .kms), ("fbdev", .fbdev), ("none", .none)]
                                                               as [(String, DisplaySettings.Output)], also: "png:DIR")
                       }
                   },
                   show: { $0.display.outputText }),
        SettingKey(section: "display", name: "device", allowed: "device path, or auto",
                   meaning: "the DRM card (auto: the first with a connected connector) or, for fbdev, the framebuffer (auto: /dev/fb0)",
                   parse: { text, s, _ throws(SettingProblem) in
                       if text == "auto" { s.display.device = nil; return }
                       guard text.hasPrefix("/"), text.count > 1 else {
                           throw SettingProblem("not a device path (expected an absolute path such as /dev/dri/card0 or /dev/fb0, or auto)")
                       }
                       s.display.device = text
                   },
                   show: { $0.display.device ?? "auto" }),
        SettingKey(section: "display", name: "connector", allowed: "connector name (`HDMI-A-1`, `DSI-1`), or auto",
                   meaning: "which output of the card to drive (`pulsedot probe` lists them); auto: the first connected one",
                   parse: { text, s, _ throws(SettingProblem) in
                       if text == "auto" { s.display.connector = nil; return }
                       guard !text.isEmpty, !text.contains(where: { $0 == " " || $0 == "\t" || $0 == "/" }) else {
                           throw SettingProblem("not a connector name (expected the kernel's name such as HDMI-A-1 or DSI-1, or auto)")
                       }
                       s.display.connector = text
                   },
                   show: { $0.display.connector ?? "auto" }),
        SettingKey(section: "display", name: "mode", allowed: "`WxH` or `WxH@HZ`, or auto",
                   meaning: "the physical mode; auto: the mode set on the kernel command line, else the panel's preferred one, else the largest; for png: and none the frame size (auto: 1280x800)",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.display.mode = text == "auto" ? nil : try parseMode(text)
                   },
                   show: { $0.display.mode?.description ?? "auto" }),
        SettingKey(section: "display", name: "format", allowed: "xrgb8888, rgb565",
                   meaning: "pixel format of the frames; rgb565 halves scan-out bandwidth on weak boards (another is used, and said, when the display lacks it)",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.display.format = try parseChoice(text, PixelFormat.allCases.map { ($0.rawValue, $0) })
                   },
                   show: { $0.display.format.rawValue }),
        SettingKey(section: "display", name: "rotation", allowed: "0, 90, 180, 270, or auto",
                   meaning: "clockwise turn of the content in degrees, for panels mounted sideways; auto: from the panel's orientation, else 0",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.display.rotation = text == "auto" ? nil
                           : try parseChoice(text, Rotation.allCases.map { (String($0.degrees), $0) }, also: "auto")
                   },
                   show: { $0.display.rotation.map { String($0.degrees) } ?? "auto" }),
        SettingKey(section: "display", name: "update", allowed: "auto, flip, damage",
                   meaning: "flip: two buffers and page flips; damage: one buffer updated in place (SPI/USB panels, virtual GPUs); auto chooses from what the display offers",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.display.update = try parseChoice(text, UpdateMode.allCases.map { ($0.rawValue, $0) })
                   },
                   show: { $0.display.update.rawValue }),
        SettingKey(section: "display", name: "composition", allowed: "auto, software, planes",
                   meaning: "software: the dot painted into the frame; planes: the dot on an overlay (or cursor) plane through atomic KMS where the card passes the test commit, turned in software on a turned panel, and a followed map (image or tiles; under a map credit only where the credit gets an overlay of its own above the dot's) panned by the primary plane's source rectangle (unturned panels), else software, said once; auto: the same",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.display.composition = try parseChoice(text, Composition.allCases.map { ($0.rawValue, $0) })
                   },
                   show: { $0.display.composition.rawValue }),
        number(section: "display", "fps", .closed(1, 240), unit: "frames per second", "how often a frame is drawn", { $1(&$0.display.fps) }),
        number(section: "display", "pngFps", NumberRange(lower: 0, lowerInclusive: false, upper: 240), unit: "frames per second",
               "how often png: writes a frame (and one on SIGUSR1); at most fps", { $1(&$0.display.pngFps) }),
    ]
}

/// `WxH` or `WxH@HZ` (HZ may have a fraction: 59.94).
func parseMode(_ text: String) throws(SettingProblem) -> DisplaySettings.Mode {
    let bad = SettingProblem("not a mode (expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1280x800@60)")
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count <= 2 else { throw bad }
    let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
    guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]) else { throw bad }
    guard w > 0, h > 0, w <= 16384, h <= 16384 else {
        throw SettingProblem("out of range (width and height from 1 to 16384)")
    }
    var mode = DisplaySettings.Mode(width: w, height: h)
    if parts.count == 2 {
        guard let hz = try? parseNumber(String(parts[1]), range: .any) else { throw bad }
        guard hz > 0, hz < 1000 else { throw SettingProblem("out of range (refresh above 0 and below 1000 Hz)") }
        mode.refreshMilliHz = Int((hz * 1000).rounded())
    }
    return mode
}

/// `parseChoice` for keys that also take a form outside the list (`png:DIR`, `auto`), so the
/// message lists every accepted form.
func parseChoice<T>(_ text: String, _ choices: [(String, T)], also: String) throws(SettingProblem) -> T {
    guard let hit = choices.first(where: { $0.0 == text }) else {
        throw SettingProblem("not one of \((choices.map({ $0.0 }) + [also]).joined(separator: ", "))")
    }
    return hit.1
}
