import Compositor
import Geo
import LocationDot
import Raster

/// The benchmark's frames, made the way the daemon and a flipping KMS output make them: the
/// scene says where the dot is and how it looks, the daemon's `FrameStep` moves the map and draws
/// (restore the damage, paint the dot), and the damage is copied into one of two scan-out
/// buffers in turn (`FlipScanout`), over a textured map in RAM. Nothing is carried from one frame
/// to the next but what the daemon carries (the canvas, last frame's damage). Pure Swift:
/// `pulsedot bench` runs it on the host and `deploy/embedded/arm-check` compiles the same file as
/// Embedded Swift for ARM. With `composition = planes`, `pulsedot bench` gives the step the
/// daemon's plane layers (over planes in memory).
///
/// `step` is one frame and nothing else (no hashing, no clock). It never allocates.
public final class BenchFrames {
    public let options: BenchOptions
    public let scene: BenchScene
    public let map: OwnedPixelBuffer
    public let renderer: FrameRenderer
    /// The daemon's frame step over the map.
    public let frameStep: FrameStep
    public let scanout: FlipScanout
    private let clock: DotClock
    /// With `route`: the bus's route drawn into the map, moved once a second.
    public let route: BenchRoute?
    public let markers: MarkerLayer?

    public init(_ options: BenchOptions) throws(FrameError) {
        self.options = options
        do {
            scene = try BenchScene(options)
        } catch {
            throw FrameError("bench scene: \(error.description)")
        }
        map = BenchBackground.make(width: scene.mapWidth, height: scene.mapHeight)
        if options.route {
            let scene = scene
            route = BenchRoute(scale: options.scale) { n in
                let f = scene.frame(n)
                return (f.x + Double(f.originX), f.y + Double(f.originY))
            }
            route!.apply(to: map.buffer)
        } else {
            route = nil
        }
        renderer = try FrameRenderer(width: options.width, height: options.height, style: options.style,
                                     scale: options.scale, background: .frame(map))
        if options.vehicles > 0 {
            let layer = BenchMarkers.layer(count: options.vehicles, scene: scene, scale: options.scale, frames: options.frames)
            renderer.add(layer, on: .map)
            markers = layer
        } else {
            markers = nil
        }
        frameStep = FrameStep(renderer: renderer, map: .scrolled)
        scanout = FlipScanout(width: options.width, height: options.height, format: options.format, rotation: options.rotation)
        renderer.prepareCopyOut(format: options.format, rotation: options.rotation)
        clock = DotClock(style: options.style)
        if options.scene == .copy {
            // The picture the copy scene copies: frame 0, drawn once.
            let f = scene.frame(0)
            renderer.render(clock.appearance(at: 0), centerX: f.x, centerY: f.y)
        }
    }

    /// One frame drawn and copied out. Returns the pixels redrawn in the canvas and the pixels
    /// copied into the scan-out buffer (none while the frame goes to the planes alone).
    @inline(never)
    public func step(_ n: Int) -> (touched: Int, copied: Int) {
        let drawn = draw(n)
        if frameStep.onPlanes { return (0, 0) }
        return (drawn.touched, scanout.present(drawn.changed, frame: n, from: renderer))
    }

    /// Frame `n` drawn into the canvas, as the frame loop asks for it: what changed (empty while
    /// the frame goes to the planes alone; the whole canvas for the copy scene, which draws
    /// nothing) and the pixels redrawn.
    public func draw(_ n: Int) -> (changed: DamageRegion, touched: Int) {
        if options.scene == .copy { return (DamageRegion(renderer.bounds), 0) }
        let f = scene.frame(n)
        if let route {
            let r = route.step(n, map: map.buffer), o = renderer.backgroundOrigin
            if !r.isEmpty { renderer.invalidate(Rect(x: r.x - o.x, y: r.y - o.y, width: r.width, height: r.height)) }
        }
        markers?.advance(to: Double(n) / BenchScene.frameRate)
        let appearance = clock.appearance(at: Double(n) / BenchScene.frameRate)
        let changed = frameStep.draw(appearance, centerX: f.x, centerY: f.y, offset: ViewOffset(x: f.originX, y: f.originY))
        return (changed, frameStep.onPlanes ? 0 : changed.area)
    }

    /// The hash of frame `n`'s scan-out buffer.
    public func hash(_ n: Int) -> UInt64 { BenchHash.frame(scanout.shown(n)) }
}
