import Compositor
import Config
import GPSD
import Geo
import Raster

/// One canvas's worth of drawing: the scene (map, motion, truth), the map window under it and the
/// renderer that restores, paints and reports damage. Made when a display (or a headless frame
/// size) is known, and again at a reload; the daemon seeds it with the last fix so a new view
/// tells the same truth as the old one.
public final class SceneView {
    public private(set) var scene: DotScene
    public let window: MapWindow
    public let renderer: FrameRenderer
    /// The last frame drawn.
    public private(set) var last: SceneFrame

    public struct SetupError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(settings: Settings, canvasWidth: Int, canvasHeight: Int, physicalHeight: Int,
                map: MapImage?, staleAfter: Double, center: GeoPoint?) throws(SetupError) {
        let scale = settings.dot.scale(forDisplayLines: physicalHeight)
        do {
            scene = try DotScene(settings: settings, canvasWidth: canvasWidth, canvasHeight: canvasHeight, scale: scale,
                                 staleAfter: staleAfter, center: center)
        } catch {
            throw SetupError(description: "map: \(error)")
        }
        window = MapWindow(color: settings.map.background, source: map, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        window.show(offset: scene.offset)
        do {
            renderer = try FrameRenderer(width: canvasWidth, height: canvasHeight, style: settings.dot.style,
                                         scale: scale, background: window.background)
        } catch {
            throw SetupError(description: "frame: \(error)")
        }
        if window.scrolls { renderer.scrollBackground(toX: scene.offset.x, y: scene.offset.y) }
        last = SceneFrame(phase: .nofix, position: nil, center: nil, appearance: nil, offset: scene.offset)
    }

    public var scale: Double { scene.scale }

    @discardableResult
    public func add(_ fix: Fix) -> SceneNote? { scene.add(fix) }

    /// Draws the frame at `now` (monotonic seconds) into the renderer's canvas and returns
    /// the rectangle that changed: the dot's old and new places, or the whole canvas when the
    /// view moved over a map image. Allocates nothing.
    public func draw(at now: Double) -> Rect {
        let frame = scene.frame(at: now)
        if window.scrolls {
            renderer.scrollBackground(toX: frame.offset.x, y: frame.offset.y)
        } else if window.show(offset: frame.offset) {
            renderer.invalidate()
        }
        last = frame
        let centre = frame.center ?? MapPoint(x: 0, y: 0)
        return renderer.render(frame.center == nil ? nil : frame.appearance, centerX: centre.x, centerY: centre.y)
    }
}
