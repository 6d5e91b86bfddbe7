import Compositor
import DisplayCore
import Geo
import Raster

/// A stop kiosk on this view: the lines of the routes serving the stop and the vehicles' markers
/// as map layers over the canvas, the departures board as a picture fixed on the screen. The
/// kiosk's view stands still (a fixed position), so its layers are drawn over the canvas rather
/// than into the map.
extension SceneView {
    /// Shows `routes` and then `markers` over the map from the next frame, instead of those
    /// shown before. Off the frame path.
    public func showKiosk(routes: [RouteLayer], markers: MarkerLayer?) {
        for layer in kioskRoutes { renderer.remove(layer) }
        if let old = kioskMarkers { renderer.remove(old) }
        kioskRoutes = routes
        kioskMarkers = markers
        for route in routes {
            route.setView(x: scene.offset.x, y: scene.offset.y)
            renderer.add(route, on: .map)
        }
        if let markers {
            markers.setView(x: scene.offset.x, y: scene.offset.y)
            renderer.add(markers, on: .map)
        }
        // The map can no longer pan on a plane of its own under layers drawn in the canvas.
        if !routes.isEmpty || markers != nil { stopPanning() }
        renderer.invalidate()
    }

    /// The kiosk's layers are drawn in the view's map pixels: when the view moved, in the new one.
    func kioskFollowsView(_ offset: ViewOffset) {
        var moved = false
        for route in kioskRoutes where route.view.x != offset.x || route.view.y != offset.y {
            route.setView(x: offset.x, y: offset.y)
            moved = true
        }
        if let marks = kioskMarkers, marks.view.x != offset.x || marks.view.y != offset.y {
            marks.setView(x: offset.x, y: offset.y)
            moved = true
        }
        if moved { renderer.invalidate() }
    }

    /// The departures board fixed at its picture's place, under the credit and over the map, the
    /// dot and the banner; nil takes it away. A new picture replaces the old one's pixels; on a
    /// plane where the display grants one, else in the canvas. Off the frame path.
    public func showBoard(_ picture: Overlay?) {
        showFixed("board", picture, insertAt: fixed.last?.name == "credit" ? fixed.count - 1 : fixed.count)
    }

    /// The board shown, if any.
    public var board: PictureLayer? { fixed.first { $0.name == "board" }?.layer }
}
