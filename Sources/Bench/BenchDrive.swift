import Compositor
import FrameBench
import Geo
import LocationDot
import Raster
import TileDecode
import TileMap
import Tiles

/// `bench --scene drive`: the dot driving through a city-size tiled map with `follow = center`,
/// made the way the daemon makes a frame over tiles — the view moved (cells filled from the
/// pool, tiles around it asked for), tiles that arrived put in place, the whole canvas restored
/// row by row from tile slots, the dot painted, the damage copied out to one of two scan-out
/// buffers. Between frames (`prepare`, not counted) the tiles the next frame shows are decoded
/// on the worker, so every frame finds them and the frames and their hashes do not depend on
/// timing; inside a counted frame no tile is read or decoded.
public final class BenchDrive {
    public let options: BenchOptions
    public let map: TiledMap
    public let renderer: FrameRenderer
    public let targets: [OwnedPixelBuffer]
    private var damage: Damage
    private let clock: DotClock
    private let viewport: MapViewport
    private var offset: ViewOffset
    /// Where the drive starts (map pixels) and how far it goes each frame along x and y.
    private let start: MapPoint
    private let stepX: Double, stepY: Double
    /// With `composition = planes`: the dot's picture in one of three plane buffers in turn, and
    /// the map pictures a primary plane pans over (the daemon's margin around the screen), drawn
    /// from the tiles; the one shown and its window.
    private let sprite: DotSprite?
    public let spriteTargets: [OwnedPixelBuffer]
    /// Where the last frame put the dot's picture (nil: that frame's dot went into the map).
    public private(set) var spritePlace: Rect?
    private let pictures: [OwnedPixelBuffer]
    private var mapScroll: MapScroll?
    private var picture = 0
    private var window: (x: Int, y: Int)?
    /// With `route`: the bus's route along the drive, drawn into the tiles, moved once a second.
    public private(set) var route: BenchRoute?

    /// Map pixels per frame: a fast-forwarded bus (about 200 km/h at zoom 17), so that a few
    /// hundred frames cross several tiles.
    public static let pixelsPerFrame = 4.0

    public init(_ options: BenchOptions, tiles path: String, cacheMegabytes: Int = 24) throws(BenchError) {
        self.options = options
        let set: TileSet
        do { set = try TileSet.open(path: path, scheme: .xyz, measure: TileDimensions.of) } catch { throw BenchError(error) }
        let zoom = set.metadata.maxZoom
        do {
            map = try TiledMap(tileSet: set, zoom: zoom, background: BenchCity.land, cacheBytes: cacheMegabytes << 20,
                               canvasWidth: options.width, canvasHeight: options.height)
        } catch { throw BenchError(error) }
        do {
            renderer = try FrameRenderer(width: options.width, height: options.height, style: options.style,
                                         scale: options.scale, background: .tiles(map.mosaic))
        } catch { throw BenchError(error) }
        renderer.prepareCopyOut(format: options.format)
        var buffers: [OwnedPixelBuffer] = []
        for _ in 0..<2 { buffers.append(OwnedPixelBuffer(width: options.width, height: options.height, format: options.format)) }
        targets = buffers
        damage = Damage(bounds: Rect(x: 0, y: 0, width: options.width, height: options.height))
        clock = DotClock(style: options.style)
        let grid: MapProjection
        do { grid = try map.projection() } catch { throw BenchError(error) }
        viewport = MapViewport(follow: .center, offMap: .edge, canvasWidth: options.width, canvasHeight: options.height,
                               projection: grid)
        start = MapPoint(x: 1000.25, y: 1500.75)
        // Heading 60°, like the other moving scenes: both axes change by a fraction every frame.
        stepX = Self.pixelsPerFrame * 0.866_025_403_784_438_6
        stepY = Self.pixelsPerFrame * 0.5
        offset = ViewOffset(x: 0, y: 0)
        if options.composition == .planes {
            let side = min(512, options.width, options.height), m = BenchFrames.pictureMargin
            sprite = DotSprite(style: options.style, scale: options.scale, width: side, height: side)
            spriteTargets = (0..<3).map { _ in OwnedPixelBuffer(width: side, height: side, format: .xrgb8888) }
            pictures = (0..<2).map { _ in OwnedPixelBuffer(width: options.width + 2 * m, height: options.height + 2 * m, format: options.format) }
            mapScroll = MapScroll(viewWidth: options.width, viewHeight: options.height, pictureWidth: options.width + 2 * m,
                                  pictureHeight: options.height + 2 * m, margin: m)
        } else {
            sprite = nil
            spriteTargets = []
            pictures = []
        }
        if options.route {
            route = BenchRoute(scale: options.scale) { n in (self.dot(n).x, self.dot(n).y) }
            route!.place(0)
            map.setRoute(route!.layer)
        }
    }

    /// The dot's map position in frame `n`: a straight drive, reflected back at the map's edges.
    func dot(_ n: Int) -> MapPoint {
        let w = Double(map.columns * map.tileSet.tileSize), h = Double(map.rows * map.tileSet.tileSize)
        return MapPoint(x: fold(start.x + stepX * Double(n), w), y: fold(start.y + stepY * Double(n), h))
    }

    private func fold(_ v: Double, _ size: Double) -> Double {
        let lo = 600.0, span = size - 1200
        var r = (v - lo).truncatingRemainder(dividingBy: 2 * span)
        if r < 0 { r += 2 * span }
        return lo + (r <= span ? r : 2 * span - r)
    }

    /// Before frame `n` (not counted): the tiles it will show are decoded (with map pictures,
    /// those of a picture centred on it too).
    public func prepare(_ n: Int) {
        let next = viewport.offset(following: dot(n), from: offset)
        renderer.invalidate(map.preload(offset: next))
        guard mapScroll != nil else { return }
        let m = BenchFrames.pictureMargin
        for corner in 0..<4 {
            let dx = corner & 1 == 0 ? -m : m, dy = corner < 2 ? -m : m
            renderer.invalidate(map.preload(offset: ViewOffset(x: next.x + dx, y: next.y + dy)))
        }
    }

    /// One frame, as the daemon draws it over tiles (with planes: as it pans the tiles on the
    /// primary plane while the dot fits its own plane). Allocates nothing.
    @inline(never)
    public func step(_ n: Int) -> (touched: Int, copied: Int) {
        let target = targets[n & 1].buffer
        if let route, n % BenchRoute.framesPerFix == 0 {
            route.place(n)
            renderer.invalidate(map.routeMoved())
        }
        let p = dot(n)
        offset = viewport.offset(following: p, from: offset)
        let centre = viewport.canvasPoint(p, offset: offset)
        let appearance = clock.appearance(at: Double(n) / BenchScene.frameRate)
        if let sprite, let place = sprite.placement(appearance, centerX: centre.x, centerY: centre.y) {
            // The mosaic follows behind the picture, the canvas left as it is.
            map.show(offset: offset)
            if map.hasDeliveries { renderer.invalidate(map.receive()) }
            sprite.paint(appearance, centerX: centre.x, centerY: centre.y, at: place, into: spriteTargets[n % 3].buffer)
            spritePlace = place
            return (0, pan())
        }
        spritePlace = nil
        if window != nil {
            // The canvas back, whole.
            mapScroll!.forget()
            map.forgetPicture()
            window = nil
            renderer.invalidate()
        }
        let was = map.mosaic.offset
        if map.show(offset: offset) { renderer.scrollCanvas(byX: offset.x - was.x, y: offset.y - was.y) }
        if map.hasDeliveries { renderer.invalidate(map.receive()) }
        let changed = renderer.render(appearance, centerX: centre.x, centerY: centre.y)
        damage.add(changed)
        let written = renderer.copyOut(damage.union, to: target)
        damage.endFrame()
        return (changed.area, written.area)
    }

    /// The map on the primary plane, as `PlaneMap` pans it: the window moved, or the map drawn
    /// into the other picture (the window would leave this one, or tiles arrived inside it).
    /// Returns the pixels drawn.
    private func pan() -> Int {
        let step = mapScroll!.step(offsetX: offset.x, offsetY: offset.y)
        var o = (x: 0, y: 0), w = (x: 0, y: 0)
        switch step {
        case .move(let x, let y):
            guard map.pictureOutdated, let origin = mapScroll!.origin else {
                window = (x, y)
                return 0
            }
            (o, w) = (origin, (x, y))
        case .redraw(let ox, let oy, let x, let y):
            (o, w) = ((ox, oy), (x, y))
        }
        picture ^= 1
        map.drawPicture(originX: o.x, originY: o.y, width: mapScroll!.usedWidth, height: mapScroll!.usedHeight,
                        into: pictures[picture].buffer)
        window = w
        return mapScroll!.usedWidth * mapScroll!.usedHeight
    }

    /// What frame `n` shows under the dot: its scan-out buffer, or the window of the picture shown.
    public func shown(_ n: Int) -> PixelBuffer {
        if let window {
            let p = pictures[picture].buffer, bpp = p.format.bytesPerPixel
            return PixelBuffer(base: p.row(window.y) + window.x * bpp, width: options.width, height: options.height,
                               stride: p.stride, format: p.format)
        }
        return targets[n & 1].buffer
    }

    public func hash(_ n: Int) -> UInt64 { BenchHash.frame(shown(n)) }
}
