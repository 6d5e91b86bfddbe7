import Config
import FBDev
import KMS
import Raster
import Scene
import Systemd

extension FBDevConfiguration {
    /// The `[display]` keys as the framebuffer output takes them: `device` (under `auto`, a DRM
    /// card's path means the default framebuffer), rotation and update. Mode and format are only
    /// compared: a framebuffer's are the kernel's. The default format (xrgb8888) is not worth a
    /// word on a 16-bit framebuffer; asking for rgb565 on a 32-bit one is.
    init(_ d: DisplaySettings) {
        let device = d.output == .fbdev ? d.device : d.device.flatMap { Self.namesFramebuffer($0) ? $0 : nil }
        self.init(device: device, rotation: d.rotation, update: FBDevUpdate(rawValue: d.update.rawValue) ?? .auto,
                  format: d.format == .xrgb8888 ? nil : d.format, mode: d.mode.map { ($0.width, $0.height) })
    }

    /// Whether `path` is a framebuffer node (/dev/fb0, /dev/fb1, …) rather than a DRM card.
    static func namesFramebuffer(_ path: String?) -> Bool {
        guard let name = path?.split(separator: "/").last, name.hasPrefix("fb") else { return false }
        return Int(name.dropFirst(2)) != nil
    }
}

/// The virtual console the daemon puts into graphics mode while it drives a framebuffer: one for
/// the process, so a missing VT is said once however often the display is opened again. The unit
/// makes /dev/tty1 the daemon's (TTYPath=, Conflicts=getty@tty1) and restores it after a kill
/// (ExecStopPost=pulsedot console-restore).
enum RunConsole {
    nonisolated(unsafe) private static var console: VirtualConsole?

    static func shared(_ log: Journal) -> VirtualConsole {
        if let console { return console }
        let made = VirtualConsole(log: { log.warning($0) })
        console = made
        return made
    }

    static func leaveGraphics() { console?.leaveGraphics() }
}

/// `output = fbdev`, or `auto` where no DRM display can be driven: opens the framebuffer, puts
/// the console into graphics mode, shows the first frame. `why` (auto's choice) is logged.
func openFramebuffer(_ settings: DisplaySettings, now: Double, log: Journal, why: String? = nil,
                     makeView: (Int, Int, Int) throws(SceneView.SetupError) -> SceneView) -> DisplayAttempt {
    let configuration = FBDevConfiguration(settings)
    let output: FBDevOutput
    do {
        output = try FramebufferDiscovery.open(configuration, log: { log.info($0) })
    } catch {
        return .waiting(reason: "\(error)", retryAfter: error.recovery == .retry ? .seconds(2) : .seconds(10))
    }
    return startFramebuffer(output, now: now, log: log, why: why, makeView: makeView)
}

/// `output = auto` after KMS could not be driven (`kmsError`): the framebuffer, unless it is the
/// same DRM card's emulated one (drawing there shows nothing while KMS is what is wrong), else
/// wait for either.
func openFramebufferInstead(of kmsError: KMSError, _ settings: DisplaySettings, now: Double, log: Journal,
                            makeView: (Int, Int, Int) throws(SceneView.SetupError) -> SceneView) -> DisplayAttempt {
    let kmsRetry: Duration = kmsError.recovery == .giveUp ? .seconds(10) : .seconds(2)
    let configuration = FBDevConfiguration(settings)
    let output: FBDevOutput
    do {
        output = try FramebufferDiscovery.open(configuration, log: { _ in })
    } catch {
        if case .noDevice = error {
            return .waiting(reason: "\(kmsError); no framebuffer at \(configuration.device) either", retryAfter: kmsRetry)
        }
        return .waiting(reason: "\(kmsError); and the framebuffer: \(error)", retryAfter: kmsRetry)
    }
    if output.fixed.id.hasSuffix("drmfb") {
        output.close()
        return .waiting(reason: "\(kmsError) (\(output.name) is that DRM driver's emulation, not used instead)", retryAfter: kmsRetry)
    }
    output.close()
    // Opened again with its messages logged, now that it is the choice.
    return openFramebuffer(settings, now: now, log: log,
                           why: "output = auto chose fbdev \(configuration.device): no DRM display can be driven (\(kmsError))",
                           makeView: makeView)
}

private func startFramebuffer(_ output: FBDevOutput, now: Double, log: Journal, why: String?,
                              makeView: (Int, Int, Int) throws(SceneView.SetupError) -> SceneView) -> DisplayAttempt {
    do {
        let view = try makeView(output.canvasWidth, output.canvasHeight, output.height)
        output.adopt(canvas: view.renderer.shadow.buffer)
        _ = view.draw(at: now)
        if let why { log.info(why) }
        // Graphics mode before the first frame, so the cursor never blinks on it.
        RunConsole.shared(log).enterGraphics()
        try output.start()
        return .opened(ActiveDisplay(sink: .fbdev(output), view: view, name: "\(output.name) \(output.width)x\(output.height)",
                                     physicalHeight: output.height, canvasOwner: view.renderer))
    } catch let error as FBDevError {
        output.close()
        RunConsole.leaveGraphics()
        return .waiting(reason: "\(error)", retryAfter: error.recovery == .retry ? .seconds(2) : .seconds(10))
    } catch {
        output.close()
        RunConsole.leaveGraphics()
        return .waiting(reason: "\(error)", retryAfter: .seconds(10))
    }
}
