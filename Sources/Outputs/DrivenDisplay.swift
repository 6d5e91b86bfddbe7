import Compositor
import DisplayCore
import Raster
import Scene

/// A display being driven and the view drawn for it. The view's renderer owns the frame that the
/// display took as its canvas (so a frame is not copied twice); a view made later (a reload)
/// draws into its own frame, whose damage is then copied into the canvas.
public final class DrivenDisplay {
    public let display: any Display
    public var view: SceneView {
        didSet {
            oldValue.stopPanning()
            if let plane = display.spritePlane { view.putDot(on: plane) }
            view.panMap(on: display)
            route.renderer = view.renderer
        }
    }
    /// The renderer whose frame is the display's canvas, kept alive as long as the display.
    private let canvasOwner: FrameRenderer
    /// The display's copy-out, by the current view's renderer.
    let route: CopyRoute

    /// Makes the view for `display`'s canvas, draws the first frame (the map, and the dot when a
    /// fix is known) onto it and shows it. On failure the display is closed.
    public static func start(_ display: any Display, now: Double,
                             makeView: (_ width: Int, _ height: Int, _ physicalHeight: Int) throws(SceneView.SetupError) -> SceneView)
        -> Result<DrivenDisplay, DisplayOpener.Unavailable> {
        let view: SceneView
        do {
            view = try makeView(display.canvasWidth, display.canvasHeight, display.physicalHeight)
        } catch {
            display.close()
            return .failure(DisplayOpener.Unavailable(description: error.description, recovery: .giveUp))
        }
        if let plane = display.spritePlane { view.putDot(on: plane) }
        view.panMap(on: display)
        display.adopt(canvas: view.renderer.canvas.buffer)
        let driven = DrivenDisplay(display: display, view: view)
        display.route(copyOut: CanvasCopier { [route = driven.route] region, target, rotation in
            route.copyOut(region, to: target, rotation: rotation)
        })
        _ = view.draw(at: now)
        do {
            try display.start()
        } catch {
            display.close()
            return .failure(DisplayOpener.Unavailable(description: error.description, recovery: error.recovery))
        }
        return .success(driven)
    }

    private init(display: any Display, view: SceneView) {
        self.display = display
        self.view = view
        canvasOwner = view.renderer
        route = CopyRoute(view.renderer)
    }

    public var displayName: String { display.displayName }
    public var canvasWidth: Int { display.canvasWidth }
    public var canvasHeight: Int { display.canvasHeight }
    public var physicalHeight: Int { display.physicalHeight }
    /// "planes composition" when the dot is on a plane of the display's, else "software composition".
    public var compositionPhrase: String { display.spritePlane == nil ? "software composition" : "planes composition" }

    /// Draws the view's frame at `now` (monotonic seconds) into the display's canvas; the damage.
    public func draw(at now: Double) -> DamageRegion {
        let damage = view.draw(at: now)
        fillCanvas(damage)
        return damage
    }

    /// A view made later draws into its own frame: its damage is copied into the canvas.
    private func fillCanvas(_ damage: DamageRegion) {
        guard view.renderer !== canvasOwner else { return }
        let drawn = view.renderer.wholeCanvas()
        for i in 0..<damage.count { display.canvas.copy(damage[i], from: drawn) }
    }

    /// Hands the frame's changed region, drawn by the view, to the display.
    public func present(_ damage: DamageRegion, frame: FrameStamp) throws(DisplayFailure) {
        fillCanvas(damage)
        display.recorder?.stamp(frame)
        try display.present(damage: damage)
    }

    /// The largest RGB565 copy of a map image kept for copy-out (a map of about 32 million
    /// pixels): beyond it every copied pixel is narrowed, as a map that big should be tiles.
    public static let narrowedMapLimit = 64 << 20

    /// Copy-out for the display, by the current view's renderer: its canvas holds exactly what
    /// the display's canvas does (the same frame, or one whose damage is copied over every
    /// frame), and into RGB565 it narrows only what it drew over the map. A class of its own, so
    /// the display's copier holds it and not the driven display (which holds the display).
    final class CopyRoute {
        var renderer: FrameRenderer {
            didSet { preparedRotation = nil }
        }
        /// The turn the renderer's RGB565 copy-out was prepared for (once per view, not per frame).
        private var preparedRotation: Rotation?
        init(_ renderer: FrameRenderer) { self.renderer = renderer }

        func copyOut(_ region: Rect, to target: PixelBuffer, rotation: Rotation) -> Rect {
            if target.format == .rgb565, preparedRotation != rotation {
                renderer.prepareCopyOut(format: .rgb565, rotation: rotation, maximumBytes: DrivenDisplay.narrowedMapLimit)
                preparedRotation = rotation
            }
            return renderer.copyOut(region, to: target, rotation: rotation)
        }
    }

    /// Puts the display back (the console) and frees it. Safe to call twice.
    public func close() { display.close() }
}
