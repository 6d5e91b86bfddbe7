import Compositor
import Raster

/// A transit route drawn into the map image: the renderer's background then carries it, so a
/// frame costs what it costs without a route, and a plane's picture copied from the image shows
/// it. The image outlives views (a reload keeps it), so the route it carries is the image's.
extension MapImage {
    /// Draws `route` (image pixels) into the image, taking out the one drawn before. Returns
    /// whether the image changed (its narrowed copies are then to be made again). Off the frame
    /// path: it allocates.
    @discardableResult
    public func setRoute(_ route: RouteLayer?) -> Bool {
        if route === routeUnderlay?.route { return false }
        routeUnderlay?.remove(from: pixels.buffer, originX: 0, originY: 0)
        routeUnderlay = route.map { RouteUnderlay(route: $0) }
        _ = route?.takeMapDamage()
        routeUnderlay?.apply(to: pixels.buffer, originX: 0, originY: 0)
        return true
    }

    /// The route drawn into the image, if any.
    public var route: RouteLayer? { routeUnderlay?.route }

    /// After the route's travelled part or next stop changed: repainted in the image where it
    /// changed. Returns that area in image pixels. Allocates nothing.
    public func routeMoved() -> Rect {
        guard let u = routeUnderlay else { return .empty }
        let damage = u.route.takeMapDamage()
        if damage.isEmpty { return .empty }
        return u.repaint(damage, in: pixels.buffer, originX: 0, originY: 0)
    }
}
