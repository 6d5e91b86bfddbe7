import Compositor
import Config
import Geo
import Raster
import Scene
import Transit

/// The followed trip's line and stops on a view's map: projected into the view's map pixels
/// once (off the frame path), then moved fix by fix — the travelled part up to the vehicle's
/// distance along the line, the next stop emphasised. The map carries the drawing
/// (`SceneView.showRoute`), so a fix repaints only where the boundary moved. A view that does not
/// show this layer (a new one, after a reload or the night) gets the route projected anew.
final class TransitRoute {
    let layer: RouteLayer
    /// Metres along the line at each of its points, and pixels along its projection there.
    private let metres: [Double]
    private let pixels: [Double]

    /// Nil when the view has no projection yet (a plain map before the first fix).
    init?(trip: Trip, view: SceneView, settings: TransitSettings) {
        guard let projection = view.scene.projection, trip.line.points.count > 0 else { return nil }
        var xs: [Double] = [], ys: [Double] = [], along: [Double] = []
        for p in trip.line.points {
            let m = projection.point(for: GeoPoint(latitude: p.latitude, longitude: p.longitude))
            if let lx = xs.last, let ly = ys.last, let l = along.last {
                along.append(l + ((m.x - lx) * (m.x - lx) + (m.y - ly) * (m.y - ly)).squareRoot())
            } else {
                along.append(0)
            }
            xs.append(m.x)
            ys.append(m.y)
        }
        metres = trip.line.distances
        pixels = along
        layer = RouteLayer(style: Self.style(for: trip.route, settings: settings, scale: view.scale))
        layer.setRoute(x: xs, y: ys)
        layer.setStops(trip.stops.map { s in
            let m = projection.point(for: GeoPoint(latitude: s.latitude, longitude: s.longitude))
            return Point256(x: m.x, y: m.y)
        })
    }

    /// The route's look: its `route_color` (`routeColor` where none, or white, which would
    /// vanish in the casing), `routeWidth` points wide, the casing and stops scaled alike.
    static func style(for route: Trip.Route, settings: TransitSettings, scale: Double) -> RouteStyle {
        var color = settings.routeColor
        if let c = route.color, c & 0xFF_FFFF != 0xFF_FFFF {
            color = Color(r: UInt8((c >> 16) & 0xFF), g: UInt8((c >> 8) & 0xFF), b: UInt8(c & 0xFF))
        }
        var s = RouteStyle(color: color)
        let k = scale * settings.routeWidth / s.width
        s.width *= k
        s.casingWidth *= k
        s.stopRadius *= k
        s.stopRing *= k
        s.nextStopRadius *= k
        return s
    }

    /// The vehicle `distance` metres along the line (nil: not placed yet), `nextStop` the index of
    /// the stop ahead. Returns whether the drawing changed.
    @discardableResult
    func move(distance: Double?, nextStop: Int?) -> Bool {
        let before = (layer.travelled256, layer.nextStop)
        layer.setTravelled(distance256: distance.map { Int64((pixelDistance(metres: $0) * 256).rounded()) } ?? 0)
        layer.setNextStop(nextStop)
        return before.0 != layer.travelled256 || before.1 != layer.nextStop
    }

    /// Pixels along the projected line at `d` metres along the feed's line.
    func pixelDistance(metres d: Double) -> Double {
        guard metres.count > 1 else { return 0 }
        if d <= 0 { return 0 }
        if d >= metres[metres.count - 1] { return pixels[pixels.count - 1] }
        var lo = 0, hi = metres.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if metres[mid] <= d { lo = mid } else { hi = mid }
        }
        let span = metres[hi] - metres[lo]
        let t = span > 0 ? (d - metres[lo]) / span : 0
        return pixels[lo] + t * (pixels[hi] - pixels[lo])
    }
}
