import Compositor
import Raster

/// `bench --route`: the bus's route on the map, drawn into the map itself as the daemon draws it
/// (`RouteUnderlay`), along the very path the dot drives: its points where the dot is every half
/// second, a stop every five seconds. Once a second — a fix — the travelled boundary moves to the
/// dot and the next stop follows; the map is repainted there and only that much of the canvas is
/// redrawn. A pure function of the frame number, like the scenes.
public final class BenchRoute {
    public let layer: RouteLayer
    public let underlay: RouteUnderlay
    /// Frames between the route's points, between fixes, and points between stops.
    public static let framesPerPoint = 30
    public static let framesPerFix = 60
    static let pointsPerStop = 10
    /// The route covers the first minute's path (a longer run drives it again).
    static let points = 121

    /// `where(n)`: the dot's map position in frame `n`. Off the frame path: it allocates.
    public init(scale: Double, where position: (Int) -> (x: Double, y: Double)) {
        var style = RouteStyle(color: Color(r: 0, g: 102, b: 204))
        style.width *= scale
        style.casingWidth *= scale
        style.stopRadius *= scale
        style.stopRing *= scale
        style.nextStopRadius *= scale
        layer = RouteLayer(style: style)
        var xs: [Double] = [], ys: [Double] = []
        var stops: [Point256] = []
        for i in 0..<Self.points {
            let p = position(i * Self.framesPerPoint)
            xs.append(p.x)
            ys.append(p.y)
            if i % Self.pointsPerStop == 0 { stops.append(Point256(x: p.x, y: p.y)) }
        }
        layer.setRoute(x: xs, y: ys)
        layer.setStops(stops)
        underlay = RouteUnderlay(route: layer)
    }

    /// Draws the route, as at frame 0, into `map` (whose top-left is map pixel (0, 0)).
    public func apply(to map: PixelBuffer) {
        place(0)
        _ = layer.takeMapDamage()
        underlay.apply(to: map, originX: 0, originY: 0)
    }

    /// Frame `n`: at a fix, the boundary moved to the dot and the map repainted; returns the map
    /// pixels repainted (empty between fixes). Allocates nothing.
    public func step(_ n: Int, map: PixelBuffer) -> Rect {
        guard n % Self.framesPerFix == 0 else { return .empty }
        place(n)
        return underlay.repaint(layer.takeMapDamage(), in: map, originX: 0, originY: 0)
    }

    /// Frame `n`'s travelled boundary and next stop, without drawing: for a map that repaints
    /// itself (tiles, `TiledMap.routeMoved`).
    public func place(_ n: Int) {
        let along = n % ((Self.points - 1) * Self.framesPerPoint)
        layer.setTravelled(segment: along / Self.framesPerPoint, fraction256: (along % Self.framesPerPoint) * 256 / Self.framesPerPoint)
        layer.setNextStop(along / (Self.framesPerPoint * Self.pointsPerStop) + 1)
    }
}
