import Compositor
import DisplayCore
import FrameBench
import Raster

/// `pulsedot bench`'s display: the daemon's frame loop presents to it as to a flipping KMS output,
/// in RAM. The renderer's canvas is its canvas; a present copies this frame's damage and the
/// previous one's into the buffer not on screen (`FlipScanout`, through the renderer's copy-out,
/// the one the outputs route their copies through) and flips; a present with nothing changed
/// (every layer on its plane) writes nothing and does not flip, as `KMSOutput` does. A flip
/// completes at once, counted by the scan-out queue every output keeps.
final class BenchDisplay: Display {
    let scanout: FlipScanout
    private let renderer: FrameRenderer
    private let format: PixelFormat
    private var queue = ScanoutQueue()
    /// Flips so far: the next one writes buffer `flips & 1`.
    private var flips = 0

    init(scanout: FlipScanout, renderer: FrameRenderer, format: PixelFormat) {
        self.scanout = scanout
        self.renderer = renderer
        self.format = format
    }

    var displayName: String { "bench \(canvasWidth)x\(canvasHeight)" }
    var canvasWidth: Int { renderer.bounds.width }
    var canvasHeight: Int { renderer.bounds.height }
    var physicalHeight: Int { scanout.buffers[0].buffer.height }
    var modeDescription: String { "\(scanout.buffers[0].buffer.width)x\(physicalHeight)" }
    var scanoutFormat: PixelFormat { format }
    var canvas: PixelBuffer { renderer.canvas.buffer }
    /// The renderer's own frame is the canvas from the start.
    func adopt(canvas: PixelBuffer) { precondition(canvas.base == renderer.canvas.buffer.base, "the bench draws into its renderer's canvas") }
    func start() {}
    func close() {}
    var presentation: PresentationCount { queue.presentation }
    var scanoutStatistics: ScanoutQueue.Statistics? { queue.statistics }

    /// The buffer on screen; nil before the first flip.
    var front: PixelBuffer? { flips == 0 ? nil : scanout.shown(flips - 1) }

    func present(damage: DamageRegion) {
        queue.handedOver()
        if damage.isEmpty { return }
        queue.copied(scanout.present(damage, frame: flips, from: renderer))
        flips += 1
        queue.queuedWithoutEvent()
        queue.shown()
    }
}
