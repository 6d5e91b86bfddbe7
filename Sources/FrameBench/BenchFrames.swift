import Compositor
import Geo
import LocationDot
import Raster

/// The benchmark's frames, made the way the daemon and a flipping KMS output make them: restore
/// the damage (this frame's and the previous frame's dot) from the background, paint the dot,
/// copy the damage into one of two scan-out buffers in turn (written, never read), over a
/// textured map in RAM. Nothing is carried from one frame to the next but what the daemon carries
/// (the canvas, last frame's damage). Pure Swift: `pulsedot bench` runs it on the host and
/// `deploy/embedded/arm-check` compiles the same file as Embedded Swift for ARM.
///
/// `step` is one frame and nothing else (no hashing, no clock). It never allocates.
public final class BenchFrames {
    public let options: BenchOptions
    public let scene: BenchScene
    public let map: OwnedPixelBuffer
    public let renderer: FrameRenderer
    /// The two "scan-out" buffers, written alternately like a flipping KMS output.
    public let targets: [OwnedPixelBuffer]
    private var damage: Damage
    private let clock: DotClock
    /// With `composition = planes`: the dot's picture, painted into one of three plane buffers in
    /// turn, and where the last frame put it (nil: that frame's dot went into the map).
    public let sprite: DotSprite?
    public let spriteTargets: [OwnedPixelBuffer]
    public private(set) var spritePlace: Rect?
    /// With `composition = planes` and `pan`: the map pictures a primary plane scrolls over
    /// (`PlaneMap.margin` of map around the screen, the daemon's), the one shown and its window.
    public let pictures: [OwnedPixelBuffer]
    private var mapScroll: MapScroll?
    private var picture = 0
    public private(set) var window: (x: Int, y: Int)?
    /// The daemon's margin of map around the screen in each picture (Scene's `PlaneMap.margin`).
    public static let pictureMargin = 128
    /// With `route`: the bus's route drawn into the map, moved once a second.
    public let route: BenchRoute?

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
        var buffers: [OwnedPixelBuffer] = []
        let panel = options.rotation.physicalSize(logicalWidth: options.width, logicalHeight: options.height)
        for _ in 0..<2 { buffers.append(OwnedPixelBuffer(width: panel.width, height: panel.height, format: options.format)) }
        targets = buffers
        renderer.prepareCopyOut(format: options.format, rotation: options.rotation)
        damage = Damage(bounds: Rect(x: 0, y: 0, width: options.width, height: options.height))
        clock = DotClock(style: options.style)
        if options.composition == .planes {
            let side = min(512, options.width, options.height)
            sprite = DotSprite(style: options.style, scale: options.scale, width: side, height: side)
            var pictures: [OwnedPixelBuffer] = []
            for _ in 0..<3 { pictures.append(OwnedPixelBuffer(width: side, height: side, format: .xrgb8888)) }
            spriteTargets = pictures
        } else {
            sprite = nil
            spriteTargets = []
        }
        if options.composition == .planes, options.scene == .pan {
            let m = Self.pictureMargin
            pictures = (0..<2).map { _ in OwnedPixelBuffer(width: options.width + 2 * m, height: options.height + 2 * m, format: options.format) }
            mapScroll = MapScroll(viewWidth: options.width, viewHeight: options.height, mapWidth: map.buffer.width,
                                  mapHeight: map.buffer.height, pictureWidth: options.width + 2 * m,
                                  pictureHeight: options.height + 2 * m, margin: m)
        } else {
            pictures = []
        }
        if options.scene == .copy {
            // The picture the copy scene copies: frame 0, drawn once.
            let f = scene.frame(0)
            renderer.render(clock.appearance(at: 0), centerX: f.x, centerY: f.y)
        }
    }

    /// One frame. Returns the pixels redrawn in the canvas and the pixels copied into the
    /// scan-out buffer.
    @inline(never)
    public func step(_ n: Int) -> (touched: Int, copied: Int) {
        let target = targets[n & 1].buffer
        if options.scene == .copy {
            return (0, renderer.copyOut(renderer.bounds, to: target, rotation: options.rotation).area)
        }
        let f = scene.frame(n)
        if let route {
            let r = route.step(n, map: map.buffer), o = renderer.backgroundOrigin
            if !r.isEmpty { renderer.invalidate(Rect(x: r.x - o.x, y: r.y - o.y, width: r.width, height: r.height)) }
        }
        if mapScroll != nil { return stepOnPictures(n, f) }
        if options.scene == .pan {
            renderer.scrollBackground(toX: f.originX, y: f.originY)
            renderer.invalidate()
        }
        let appearance = clock.appearance(at: Double(n) / BenchScene.frameRate)
        var changed: Rect
        if let sprite, let place = sprite.placement(appearance, centerX: f.x, centerY: f.y) {
            sprite.paint(appearance, centerX: f.x, centerY: f.y, at: place, into: spriteTargets[n % 3].buffer)
            spritePlace = place
            changed = renderer.render(nil, centerX: f.x, centerY: f.y)
        } else {
            spritePlace = nil
            changed = renderer.render(appearance, centerX: f.x, centerY: f.y)
        }
        damage.add(changed)
        let written = renderer.copyOut(damage.union, to: target, rotation: options.rotation)
        damage.endFrame()
        return (changed.area, written.area)
    }

    /// `pan` with the dot on its plane and the map on a scrolling primary plane: the window
    /// moves, the map is drawn into the other picture only when the window would leave this one,
    /// and the canvas is not touched. A dot too large for its plane goes into the canvas as in
    /// software composition (the pictures then drawn anew).
    private func stepOnPictures(_ n: Int, _ f: (x: Double, y: Double, originX: Int, originY: Int)) -> (touched: Int, copied: Int) {
        let appearance = clock.appearance(at: Double(n) / BenchScene.frameRate)
        guard let sprite, let place = sprite.placement(appearance, centerX: f.x, centerY: f.y) else {
            mapScroll!.forget()
            window = nil
            spritePlace = nil
            renderer.scrollBackground(toX: f.originX, y: f.originY)
            renderer.invalidate()
            let changed = renderer.render(appearance, centerX: f.x, centerY: f.y)
            return (changed.area, renderer.copyOut(changed, to: targets[n & 1].buffer).area)
        }
        sprite.paint(appearance, centerX: f.x, centerY: f.y, at: place, into: spriteTargets[n % 3].buffer)
        spritePlace = place
        var copied = 0
        switch mapScroll!.step(offsetX: f.originX, offsetY: f.originY) {
        case .move(let x, let y):
            window = (x, y)
        case .redraw(let ox, let oy, let x, let y):
            picture ^= 1
            mapScroll!.draw(map.buffer, originX: ox, originY: oy, into: pictures[picture].buffer)
            copied = mapScroll!.usedWidth * mapScroll!.usedHeight
            window = (x, y)
        }
        return (0, copied)
    }

    /// What frame `n` shows under the dot: its scan-out buffer, or with map pictures the window of
    /// the picture shown.
    public func shown(_ n: Int) -> PixelBuffer {
        if let window, !pictures.isEmpty {
            let p = pictures[picture].buffer
            let bpp = p.format.bytesPerPixel
            return PixelBuffer(base: p.row(window.y) + window.x * bpp, width: options.width,
                               height: options.height, stride: p.stride, format: p.format)
        }
        return targets[n & 1].buffer
    }

    /// The hash of what frame `n` shows under the dot (`shown`).
    public func hash(_ n: Int) -> UInt64 { BenchHash.frame(shown(n)) }
}
