import Compositor
import Display
import Raster
import Scene

/// A display being driven and the view drawn for it. The view's renderer owns the frame that the
/// display took as its canvas (so a frame is not copied twice); a view made later (a reload)
/// draws into its own frame, whose damage is then copied into the canvas.
public final class DrivenDisplay {
    public let display: any Display
    public var view: SceneView
    /// The renderer whose frame is the display's canvas, kept alive as long as the display.
    private let canvasOwner: FrameRenderer

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
        display.adopt(canvas: view.renderer.canvas.buffer)
        _ = view.draw(at: now)
        do {
            try display.checkedStart()
        } catch {
            display.close()
            return .failure(DisplayOpener.Unavailable(description: error.description, recovery: error.recovery))
        }
        return .success(DrivenDisplay(display: display, view: view))
    }

    private init(display: any Display, view: SceneView) {
        self.display = display
        self.view = view
        canvasOwner = view.renderer
    }

    public var displayName: String { display.displayName }
    public var canvasWidth: Int { display.canvasWidth }
    public var canvasHeight: Int { display.canvasHeight }
    public var physicalHeight: Int { display.physicalHeight }

    /// Hands the frame's changed rectangle to the display.
    public func present(_ damage: Rect, frame: FrameStamp) throws(DisplayFailure) {
        if view.renderer !== canvasOwner { display.canvas.copy(damage, from: view.renderer.canvas.buffer) }
        try display.checkedPresent(damage: damage, frame: frame)
    }

    /// Puts the display back (the console) and frees it. Safe to call twice.
    public func close() { display.close() }
}
