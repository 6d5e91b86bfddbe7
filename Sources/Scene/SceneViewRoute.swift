import Compositor
import Geo
import Raster
import TileMap

/// A transit route on this view's map. Tiles and a map image the view scrolls over carry the
/// route in their own pixels (drawn once, repainted where it changes); any other map (a plain
/// colour, an image composed into a window) gets it as a map layer over the canvas instead.
extension SceneView {
    /// Shows `route` (map pixels of this view's projection) on the map from the next frame; nil
    /// takes it away. Off the frame path: it allocates.
    public func showRoute(_ route: RouteLayer?) {
        if let old = routeOnCanvas, old !== route {
            renderer.remove(old)
            routeOnCanvas = nil
        }
        if let tiles {
            tiles.setRoute(route)
            renderer.invalidate()
        } else if window.scrolls, let mapImage {
            if mapImage.setRoute(route) { renderer.backgroundRewritten() }
        } else if let route, routeOnCanvas !== route {
            route.setView(x: scene.offset.x, y: scene.offset.y)
            renderer.add(route, on: .map)
            routeOnCanvas = route
        }
    }

    /// The route shown, if any.
    public var route: RouteLayer? {
        if let tiles { return tiles.route }
        if window.scrolls, let mapImage { return mapImage.route }
        return routeOnCanvas
    }

    /// Bytes of the map kept under the route (0 when it is drawn over the canvas instead).
    public var routeBytes: Int {
        if let tiles { return tiles.routeBytes }
        if window.scrolls, let mapImage { return mapImage.routeUnderlay?.byteCount ?? 0 }
        return 0
    }

    /// After the route's travelled part or next stop changed: the map repainted where it changed
    /// and that much of the canvas redrawn at the next frame. Allocates nothing.
    public func routeMoved() {
        if let tiles {
            renderer.invalidate(tiles.routeMoved())
        } else if window.scrolls, let mapImage {
            let r = mapImage.routeMoved()
            if r.isEmpty { return }
            let o = renderer.backgroundOrigin
            renderer.invalidate(Rect(x: r.x - o.x, y: r.y - o.y, width: r.width, height: r.height))
            planeMap?.mapChanged()
        }
        // A route over the canvas reports its own damage to the renderer.
    }

    /// A route over the canvas is drawn in the view's map pixels: when the view moved, it is
    /// drawn again in the new one.
    func routeFollowsView(_ offset: ViewOffset) {
        guard let route = routeOnCanvas, route.view.x != offset.x || route.view.y != offset.y else { return }
        route.setView(x: offset.x, y: offset.y)
        renderer.invalidate()
    }
}
