import Compositor
import Config
import Display
import FBDev
import KMS
import Raster
import Scene
import Syscall
import Systemd

/// Where finished frames go.
public enum FrameSink {
    /// A panel through DRM/KMS, whose canvas is the first view's shadow frame.
    case kms(KMSOutput)
    /// A legacy framebuffer, likewise; its console is in graphics mode while it is driven.
    case fbdev(FBDevOutput)
    /// PNG files and `frames.jsonl` (headless testbeds).
    case png(PNGFrames)
    /// Rendered and discarded (measurements).
    case none
}

/// A display being driven: the sink and the view drawn for it.
public final class ActiveDisplay {
    public let sink: FrameSink
    public var view: SceneView
    /// "png:/srv/frames 1280x800", "/dev/dri/card0 (bochs) Virtual-1 1024x768": for STATUS and the log.
    public let name: String
    /// Physical lines of the display, which choose the default `scale`.
    public let physicalHeight: Int
    /// The renderer whose shadow frame the KMS output took as its canvas (so the frame is not
    /// copied twice). Kept alive with the output; a view made later (a reload) draws into its own
    /// shadow frame, whose damage is then copied into this one.
    private let canvasOwner: FrameRenderer?

    init(sink: FrameSink, view: SceneView, name: String, physicalHeight: Int, canvasOwner: FrameRenderer? = nil) {
        self.sink = sink
        self.view = view
        self.name = name
        self.physicalHeight = physicalHeight
        self.canvasOwner = canvasOwner
    }

    /// The descriptor to poll for flip events, or -1.
    public var pollDescriptor: Int32 {
        if case .kms(let output) = sink { return output.pollDescriptor ?? -1 }
        return -1
    }

    public var canvasWidth: Int { view.renderer.width }
    public var canvasHeight: Int { view.renderer.height }

    /// Hands the frame's changed rectangle to the sink (KMS: into its canvas, then present).
    package func present(_ damage: Rect) throws {
        let output: FrameOutput
        switch sink {
        case .kms(let o): output = o
        case .fbdev(let o): output = o
        default: return
        }
        if view.renderer !== canvasOwner { output.canvas.copy(damage, from: view.renderer.shadow.buffer) }
        try output.present(damage: damage)
    }

    /// Puts the display back (the console, for KMS) and frees it. Safe to call twice.
    package func close() {
        if case .kms(let output) = sink { output.close() }
        if case .fbdev(let output) = sink {
            output.close()
            RunConsole.leaveGraphics()
        }
    }
}

/// The outcome of trying to open the configured output.
package enum DisplayAttempt {
    case opened(ActiveDisplay)
    /// Nothing to drive yet (no card, nothing connected, another master): say it, retry later.
    case waiting(reason: String, retryAfter: Duration)
}

extension KMSConfiguration {
    /// The `[display]` keys as the KMS output takes them.
    init(_ d: DisplaySettings) {
        self.init(device: d.device, connector: d.connector,
                  mode: d.mode.map { ModeRequest(width: $0.width, height: $0.height, refreshMilliHz: $0.refreshMilliHz) },
                  format: d.format, rotation: d.rotation, update: UpdateMode(rawValue: d.update.rawValue) ?? .auto)
    }
}

/// Opens what `[display] output` names and makes a view for it. `makeView` builds the view for a
/// canvas size and the display's physical height.
package func openDisplay(_ settings: DisplaySettings, now: Double, log: Journal,
                 makeView: (Int, Int, Int) throws(SceneView.SetupError) -> SceneView) -> DisplayAttempt {
    let headless = settings.headlessFrameSize
    switch settings.output {
    case .none:
        do {
            let view = try makeView(headless.width, headless.height, headless.height)
            return .opened(ActiveDisplay(sink: .none, view: view, name: "none \(headless.width)x\(headless.height)",
                                         physicalHeight: headless.height))
        } catch {
            return .waiting(reason: "\(error)", retryAfter: .seconds(10))
        }
    case .png(let directory):
        do {
            let view = try makeView(headless.width, headless.height, headless.height)
            let frames = try PNGFrames(directory: directory, pngFps: settings.pngFps, now: now)
            return .opened(ActiveDisplay(sink: .png(frames), view: view,
                                         name: "png:\(directory) \(headless.width)x\(headless.height)",
                                         physicalHeight: headless.height))
        } catch {
            // A state directory on a late mount, a full disk: keep trying, never exit.
            return .waiting(reason: "png:\(directory): \(error)", retryAfter: .seconds(5))
        }
    case .fbdev:
        return openFramebuffer(settings, now: now, log: log, makeView: makeView)
    case .auto where FBDevConfiguration.namesFramebuffer(settings.device):
        return openFramebuffer(settings, now: now, log: log, why: "output = auto: device \(settings.device ?? "") is a framebuffer",
                               makeView: makeView)
    case .kms, .auto:
        let output: KMSOutput
        do {
            output = try Discovery.open(KMSConfiguration(settings), log: { log.info($0) })
        } catch {
            if settings.output == .auto { return openFramebufferInstead(of: error, settings, now: now, log: log, makeView: makeView) }
            // Waiting is the rule (a display that is late, unplugged or busy); a configuration the
            // display cannot take is also waited on, since a panel plugged in later may take it.
            let retry: Duration = error.recovery == .giveUp ? .seconds(10) : .seconds(2)
            return .waiting(reason: "\(error)", retryAfter: retry)
        }
        do {
            let view = try makeView(output.canvasWidth, output.canvasHeight, output.mode.height)
            output.adopt(canvas: view.renderer.shadow.buffer)
            // The first frame (the map, and the dot if a fix is known) is on the canvas before the
            // mode set shows it.
            _ = view.draw(at: now)
            try output.start()
            if settings.output == .auto { log.info("output = auto chose KMS: \(output.name) has a display connected") }
            return .opened(ActiveDisplay(sink: .kms(output), view: view, name: "\(output.name) \(output.mode)",
                                         physicalHeight: output.mode.height, canvasOwner: view.renderer))
        } catch let error as KMSError {
            output.close()
            return .waiting(reason: "\(error)", retryAfter: error.recovery == .giveUp ? .seconds(10) : .seconds(2))
        } catch {
            output.close()
            return .waiting(reason: "\(error)", retryAfter: .seconds(10))
        }
    }
}
