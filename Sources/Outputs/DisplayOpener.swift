import Config
import Glibc
import DisplayCore
import FBDev
import KMS
import Raster
import Systemd

/// Opens what `[display] output` names — KMS, the framebuffer with its console, PNG frames, or
/// none — as one `Display`, not yet started. `auto` takes KMS when a display can be driven there,
/// else the framebuffer. What cannot be opened comes back as one line and the delay after which
/// opening again may help. `pulsedot run` and `pulsedot show` open their displays through this.
public final class DisplayOpener {
    public struct Unavailable: Error, CustomStringConvertible, Sendable {
        public let description: String
        public let recovery: Recovery

        public init(description: String, recovery: Recovery) {
            self.description = description
            self.recovery = recovery
        }
    }

    /// Replaced at a reload; the console stays.
    public var settings: DisplaySettings
    private let log: Journal
    /// The virtual console a framebuffer puts into graphics mode: one for the process, so a
    /// missing VT is said once however often the display is opened again. The unit makes
    /// /dev/tty1 the daemon's (TTYPath=, Conflicts=getty@tty1) and restores it after a kill
    /// (ExecStopPost=pulsedot console-restore).
    private let console: VirtualConsole

    public init(settings: DisplaySettings, log: Journal, tty: String = VirtualConsole.defaultPath) {
        self.settings = settings
        self.log = log
        console = VirtualConsole(path: tty, log: { [log] in log.warning($0) })
    }

    /// The configured display, opened at `now` (monotonic seconds; PNG frames are due from then).
    public func open(now: Double) -> Result<any Display, Unavailable> {
        let headless = settings.headlessFrameSize
        switch settings.output {
        case .none:
            return .success(NullDisplay(width: headless.width, height: headless.height))
        case .png(let directory):
            do {
                return .success(try PNGFrames(directory: directory, width: headless.width, height: headless.height,
                                              pngFps: settings.pngFps, now: now, log: log))
            } catch {
                // A state directory on a late mount, a full disk: keep trying, never exit.
                return .failure(Unavailable(description: "png:\(directory): \(error)", recovery: .retry))
            }
        case .fbdev:
            return openFramebuffer(why: nil)
        case .auto where FBDevConfiguration.namesFramebuffer(settings.device):
            return openFramebuffer(why: "output = auto: device \(settings.device ?? "") is a framebuffer")
        case .kms, .auto:
            do {
                let output = try Discovery.open(KMSConfiguration(settings), log: { [log] in log.info($0) })
                if settings.output == .auto { log.info("output = auto chose KMS: \(output.name) has a display connected") }
                return .success(composed(output))
            } catch {
                if settings.output == .auto { return openFramebufferInstead(of: error) }
                return .failure(Unavailable(description: "\(error)", recovery: error.recovery))
            }
        }
    }

    /// The KMS output that composes as `[display] composition` asks: the dot on an overlay plane
    /// (atomic) where the card passes the test commit, else the legacy output in software. Which
    /// one, and why not planes, is said once for as long as it stays the same.
    private func composed(_ legacy: KMSOutput) -> any Display {
        let asked = settings.composition
        if asked == .software { return legacy }
        switch AtomicKMSOutput.choose(from: legacy, log: { [log] in log.info($0) }) {
        case .success(let atomic):
            sayComposition("composition = \(asked.rawValue): \(atomic.name) composes the dot on a hardware plane (atomic KMS)")
            return atomic
        case .failure(let refusal):
            sayComposition("composition = \(asked.rawValue): \(legacy.name): \(refusal); using software composition")
            return legacy
        }
    }

    private var compositionSaid: String?

    private func sayComposition(_ line: String) {
        if line == compositionSaid { return }
        compositionSaid = line
        log.info(line)
    }

    /// `output = fbdev`, or `auto` where no DRM display can be driven. `why` (auto's choice) is logged.
    private func openFramebuffer(why: String?) -> Result<any Display, Unavailable> {
        do {
            let output = try FramebufferDiscovery.open(FBDevConfiguration(settings), log: { [log] in log.info($0) })
            output.console = console
            if let why { log.info(why) }
            return .success(output)
        } catch {
            return .failure(Unavailable(description: "\(error)", recovery: error.recovery))
        }
    }

    /// `output = auto` after KMS could not be driven: the framebuffer, unless it is the same DRM
    /// card's emulated one (drawing there shows nothing while KMS is what is wrong), else wait
    /// for either.
    private func openFramebufferInstead(of kmsError: KMSError) -> Result<any Display, Unavailable> {
        let configuration = FBDevConfiguration(settings)
        let output: FBDevOutput
        do {
            output = try FramebufferDiscovery.open(configuration, log: { _ in })
        } catch {
            if case .noDevice = error {
                return .failure(Unavailable(description: "\(kmsError); no framebuffer at \(configuration.device) either",
                                            recovery: kmsError.recovery))
            }
            return .failure(Unavailable(description: "\(kmsError); and the framebuffer: \(error)", recovery: kmsError.recovery))
        }
        let emulated = output.fixed.isDRMEmulation
        output.close()
        if emulated {
            return .failure(Unavailable(description: "\(kmsError) (\(output.name) is that DRM driver's emulation, not used instead)",
                                        recovery: kmsError.recovery))
        }
        // Opened again with its messages logged, now that it is the choice.
        return openFramebuffer(why: "output = auto chose fbdev \(configuration.device): no DRM display can be driven (\(kmsError))")
    }
}

extension KMSConfiguration {
    /// The `[display]` keys as the KMS output takes them.
    public init(_ d: DisplaySettings) {
        self.init(device: d.device, connector: d.connector,
                  mode: d.mode.map { ModeRequest(width: $0.width, height: $0.height, refreshMilliHz: $0.refreshMilliHz) },
                  format: d.format, rotation: d.rotation, update: d.update)
    }
}

extension FBDevConfiguration {
    /// The `[display]` keys as the framebuffer output takes them: `device` (under `auto`, a DRM
    /// card's path means the default framebuffer), rotation and update. Mode and format are only
    /// compared: a framebuffer's are the kernel's. The default format (xrgb8888) is not worth a
    /// word on a 16-bit framebuffer; asking for rgb565 on a 32-bit one is.
    public init(_ d: DisplaySettings) {
        let device = d.output == .fbdev ? d.device : d.device.flatMap { Self.namesFramebuffer($0) ? $0 : nil }
        self.init(device: device, rotation: d.rotation, update: d.update,
                  format: d.format == .xrgb8888 ? nil : d.format, mode: d.mode.map { ($0.width, $0.height) })
    }

    /// Whether `path` is a framebuffer node (/dev/fb0, /dev/fb1, …) rather than a DRM card.
    static func namesFramebuffer(_ path: String?) -> Bool {
        guard let name = path?.split(separator: "/").last, name.hasPrefix("fb") else { return false }
        return Int(name.dropFirst(2)) != nil
    }
}
