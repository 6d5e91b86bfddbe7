import Compositor
import FrameBench
import Geo
import LocationDot
import Raster
import Scene
import TileDecode
import TileMap
import Tiles

/// `bench --scene drive`: the dot driving through a city-size tiled map with `follow = center`,
/// drawn by the daemon's `FrameStep` over tiles — the view moved (cells filled from the pool,
/// tiles around it asked for), tiles that arrived put in place, the canvas scrolled and what that
/// uncovered restored from tile slots, the dot painted — and the damage presented to the bench's display (one of two
/// scan-out buffers, `BenchDisplay`). Between frames (`prepare`, not counted) the tiles the next frame shows are
/// decoded on the worker, so every frame finds them and the frames and their hashes do not depend
/// on timing; inside a counted frame no tile is read or decoded.
public final class BenchDrive {
    public let options: BenchOptions
    public let map: TiledMap
    public let renderer: FrameRenderer
    /// The daemon's frame step over the tiles.
    public let frameStep: FrameStep
    public let scanout: FlipScanout
    private let clock: DotClock
    private let viewport: MapViewport
    private var offset: ViewOffset
    /// Where the drive starts (map pixels) and how far it goes each frame along x and y.
    private let start: MapPoint
    private let stepX: Double, stepY: Double
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
        frameStep = FrameStep(renderer: renderer, map: .tiles(map))
        scanout = FlipScanout(width: options.width, height: options.height, format: options.format)
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

    /// Before frame `n` (not counted): the tiles it will show are decoded (with the map on a
    /// plane, those of a picture centred on it too).
    public func prepare(_ n: Int) {
        let next = viewport.offset(following: dot(n), from: offset)
        renderer.invalidate(map.preload(offset: next))
        guard frameStep.mapPlane != nil else { return }
        let m = PlaneMap.margin
        for corner in 0..<4 {
            let dx = corner & 1 == 0 ? -m : m, dy = corner < 2 ? -m : m
            renderer.invalidate(map.preload(offset: ViewOffset(x: next.x + dx, y: next.y + dy)))
        }
    }

    /// Frame `n` drawn into the canvas as the daemon draws it over tiles (with planes: as it pans
    /// the tiles on the primary plane while the dot fits its own plane), as the frame loop asks
    /// for it: what changed (empty while the frame goes to the planes alone) and the pixels
    /// redrawn. Allocates nothing.
    public func draw(_ n: Int) -> (changed: DamageRegion, touched: Int) {
        if let route, n % BenchRoute.framesPerFix == 0 {
            route.place(n)
            renderer.invalidate(map.routeMoved())
        }
        let p = dot(n)
        offset = viewport.offset(following: p, from: offset)
        let centre = viewport.canvasPoint(p, offset: offset)
        let appearance = clock.appearance(at: Double(n) / BenchScene.frameRate)
        let changed = frameStep.draw(appearance, centerX: centre.x, centerY: centre.y, offset: offset)
        return (changed, frameStep.onPlanes ? 0 : changed.area)
    }
}
