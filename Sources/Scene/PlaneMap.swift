import Compositor
import Display
import Raster

/// A map image that pans on the display's primary plane: the view moves by moving the plane's
/// window over a map picture larger than the screen, and the map is drawn into the spare picture
/// only when the window would leave the one on screen. Used while the dot is on its own plane
/// (nothing then needs drawing into the canvas); otherwise the view draws the canvas as usual.
public final class PlaneMap {
    /// Map on every side of the screen in each picture: a re-centre every 128 px the view moves.
    public static let margin = 128

    public let plane: MapScrollPlane
    private let map: OwnedPixelBuffer
    private var scroll: MapScroll

    /// Nil when the pictures leave no room to scroll over this map.
    public init?(plane: MapScrollPlane, map: OwnedPixelBuffer, viewWidth: Int, viewHeight: Int) {
        guard let s = MapScroll(viewWidth: viewWidth, viewHeight: viewHeight, mapWidth: map.buffer.width,
                                mapHeight: map.buffer.height, pictureWidth: plane.pictureWidth,
                                pictureHeight: plane.pictureHeight, margin: Self.margin) else { return nil }
        self.plane = plane
        self.map = map
        scroll = s
    }

    /// Shows the view whose top-left is map pixel (`x`, `y`) from the next `present`.
    public func show(offsetX x: Int, offsetY y: Int) {
        switch scroll.step(offsetX: x, offsetY: y) {
        case .move(let wx, let wy):
            plane.moveWindow(toX: wx, y: wy)
        case .redraw(let ox, let oy, let wx, let wy):
            scroll.draw(map.buffer, originX: ox, originY: oy, into: plane.sparePicture())
            plane.showSparePicture(windowX: wx, windowY: wy)
        }
    }

    /// The canvas from the next `present` (the caller draws it whole); a later `show` draws a
    /// picture anew.
    public func leave() {
        plane.showCanvas()
        scroll.forget()
    }

    public var isShown: Bool { plane.showsPicture }
}
