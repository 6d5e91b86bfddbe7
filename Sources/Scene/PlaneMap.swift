import Compositor
import DisplayCore
import Raster

/// A map that pans on the display's primary plane: the view moves by moving the plane's window
/// over a map picture larger than the screen, and the map is drawn into the spare picture only
/// when the window would leave the one on screen, or when the map changed inside the picture on
/// screen (tiles that arrived: drawn anew at the same origin, the window where it is). Used while
/// the dot is on its own plane (nothing then needs drawing into the canvas); otherwise the view
/// draws the canvas as usual.
public final class PlaneMap {
    /// Map on every side of the screen in each picture: a re-centre every 128 px the view moves.
    public static let margin = 128

    public let plane: MapScrollPlane
    public let painter: any MapPicturePainter
    private var scroll: MapScroll
    /// The map changed inside the picture on screen in a way its painter does not track (a
    /// route drawn into a map image moved): drawn anew at the next `show`.
    private var changed = false

    /// A whole map image; nil when the pictures leave no room to scroll over it.
    public convenience init?(plane: MapScrollPlane, map: OwnedPixelBuffer, viewWidth: Int, viewHeight: Int) {
        self.init(plane: plane, painter: MapImagePainter(map: map), viewWidth: viewWidth, viewHeight: viewHeight)
    }

    /// Any map `painter` draws; nil when the pictures leave no room to scroll over it.
    public init?(plane: MapScrollPlane, painter: any MapPicturePainter, viewWidth: Int, viewHeight: Int) {
        let s: MapScroll?
        if let edges = painter.edges {
            s = MapScroll(viewWidth: viewWidth, viewHeight: viewHeight, mapWidth: edges.width, mapHeight: edges.height,
                          pictureWidth: plane.pictureWidth, pictureHeight: plane.pictureHeight, margin: Self.margin)
        } else {
            s = MapScroll(viewWidth: viewWidth, viewHeight: viewHeight, pictureWidth: plane.pictureWidth,
                          pictureHeight: plane.pictureHeight, margin: Self.margin)
        }
        guard let s else { return nil }
        self.plane = plane
        self.painter = painter
        scroll = s
    }

    /// Shows the view whose top-left is map pixel (`x`, `y`) from the next `present`.
    public func show(offsetX x: Int, offsetY y: Int) {
        switch scroll.step(offsetX: x, offsetY: y) {
        case .move(let wx, let wy):
            if painter.pictureOutdated || changed, let o = scroll.origin {
                redraw(originX: o.x, originY: o.y, windowX: wx, windowY: wy)
            } else {
                plane.moveWindow(toX: wx, y: wy)
            }
        case .redraw(let ox, let oy, let wx, let wy):
            redraw(originX: ox, originY: oy, windowX: wx, windowY: wy)
        }
    }

    /// The map's pixels changed under the picture on screen: it is drawn anew at the next `show`.
    public func mapChanged() { changed = true }

    private func redraw(originX: Int, originY: Int, windowX: Int, windowY: Int) {
        changed = false
        painter.drawPicture(originX: originX, originY: originY, width: scroll.usedWidth, height: scroll.usedHeight,
                            into: plane.sparePicture())
        plane.showSparePicture(windowX: windowX, windowY: windowY)
    }

    /// The canvas from the next `present` (the caller draws it whole); a later `show` draws a
    /// picture anew.
    public func leave() {
        plane.showCanvas()
        scroll.forget()
        painter.forgetPicture()
    }

    public var isShown: Bool { plane.showsPicture }
}
