import Geo
import LocationDot
import Raster

/// A map that follows the view by its own means (tiles): moved to a view, the canvas scrolled
/// along with it, what arrived since put in place.
public protocol FollowingMap: AnyObject {
    /// The mosaic the renderer restores from; its `offset` is the view it shows now.
    var mosaic: TileMosaic { get }
    /// Shows the view from `offset`; true when that moved the mosaic.
    @discardableResult
    func show(offset: ViewOffset) -> Bool
    var hasDeliveries: Bool { get }
    /// Puts what arrived in place; the canvas rectangle it changed.
    func receive() -> Rect
    /// Waits for every part in view; the canvas rectangle that changed.
    func waitForView() -> Rect
}

/// The dot on a display plane of its own, the renderer drawing the map under it (`PlaneDot`).
public protocol DotPlaneLayer: AnyObject {
    /// The whole dot on the plane (or the plane emptied when there is none) and nothing drawn into
    /// the canvas: true; false, with nothing done, when the dot needs the canvas too.
    func placeAlone(_ appearance: DotAppearance?, centerX: Double, centerY: Double) -> Bool
    /// `renderer.render` with as much of the dot on the plane as fits: the canvas's damage.
    func render(_ renderer: FrameRenderer, _ appearance: DotAppearance?, centerX: Double, centerY: Double) -> DamageRegion
}

/// The map panned on the display's primary plane as a window over map pictures (`PlaneMap`).
public protocol MapPlaneLayer: AnyObject {
    /// False once the display stopped panning (a refused window): the canvas holds the map again.
    var pans: Bool { get }
    /// Whether a picture, not the canvas, is what the plane shows from the next present.
    var isShown: Bool { get }
    func show(offsetX: Int, offsetY: Int)
    /// The canvas again from the next present.
    func leave()
}

/// One frame of the dot over the map, whoever says where the dot is: the map moved to the view
/// (tiles shown and received, a whole map image scrolled, a composed window redrawn), then the
/// planes decided — the dot alone on its plane with the map panned on the primary plane, or the
/// canvas drawn (with the dot on its plane where it fits) — and the canvas's damage returned.
/// `pulsedot run`, `show` and `bench` all draw their frames through it. Allocates nothing.
public final class FrameStep {
    /// How the map under the canvas follows the view.
    public enum Map {
        /// A plain colour, or a map composed into a canvas-sized window when the view moves.
        case window(MapWindow)
        /// The renderer's background frame, at least the canvas's size, shown from the view.
        case scrolled
        /// Tiles, which follow the view themselves.
        case tiles(any FollowingMap)
    }

    public let renderer: FrameRenderer
    public let map: Map
    /// Whether a frame waits for every tile in view (frames that must not depend on timing).
    public let waitsForTiles: Bool
    // Read every frame, set only between frames (the one thread that turns the loop): checking
    // each access dynamically cost more than the reads.
    /// The dot on the display's sprite plane; nil: painted into the canvas.
    @exclusivity(unchecked) public var dotPlane: (any DotPlaneLayer)?
    /// The map panned on the display's primary plane; nil: in the canvas.
    @exclusivity(unchecked) public var mapPlane: (any MapPlaneLayer)?
    /// Whether the last frame went to the planes alone: the canvas lags behind the screen.
    @exclusivity(unchecked) public private(set) var onPlanes = false

    public init(renderer: FrameRenderer, map: Map, waitsForTiles: Bool = false) {
        self.renderer = renderer
        self.map = map
        self.waitsForTiles = waitsForTiles
    }

    /// Draws the frame with the dot's `appearance` (nil: no dot) centred at (`centerX`, `centerY`)
    /// canvas pixels over the map seen from `offset` (the map pixel at the canvas's top-left).
    /// Returns the canvas region that changed: empty while the frame goes to the planes alone.
    public func draw(_ appearance: DotAppearance?, centerX: Double, centerY: Double, offset: ViewOffset) -> DamageRegion {
        if let mapPlane, mapPlane.pans, let dotPlane, dotPlane.placeAlone(appearance, centerX: centerX, centerY: centerY) {
            if case .tiles(let tiles) = map {
                // The mosaic follows the view behind the picture (the tiles around it asked
                // for), so the canvas is whole again the frame it comes back.
                tiles.show(offset: offset)
                receive(tiles)
            }
            mapPlane.show(offsetX: offset.x, offsetY: offset.y)
            onPlanes = true
            return DamageRegion()
        }
        if let mapPlane, mapPlane.isShown { mapPlane.leave() }
        if onPlanes {
            onPlanes = false
            renderer.invalidate()
        }
        switch map {
        case .tiles(let tiles):
            let was = tiles.mosaic.offset
            if tiles.show(offset: offset) { renderer.scrollCanvas(byX: offset.x - was.x, y: offset.y - was.y) }
            receive(tiles)
        case .scrolled:
            renderer.scrollBackground(toX: offset.x, y: offset.y)
        case .window(let window):
            if window.show(offset: offset) { renderer.backgroundRewritten() }
        }
        if let dotPlane { return dotPlane.render(renderer, appearance, centerX: centerX, centerY: centerY) }
        return renderer.render(appearance, centerX: centerX, centerY: centerY)
    }

    private func receive(_ tiles: any FollowingMap) {
        if waitsForTiles { renderer.invalidate(tiles.waitForView()) }
        if tiles.hasDeliveries { renderer.invalidate(tiles.receive()) }
    }

    /// The canvas caught up with the view from `offset`, without the dot, when the last frames
    /// went to the planes alone (a snapshot wants the map the screen shows); else as it is.
    public func catchUpCanvas(offset: ViewOffset) {
        guard onPlanes else { return }
        onPlanes = false
        renderer.scrollBackground(toX: offset.x, y: offset.y)
        renderer.invalidate()
        renderer.render(nil, centerX: 0, centerY: 0)
    }
}
