import Compositor
import Display
import LocationDot
import Raster

/// The dot on a display's sprite plane: painted as a picture of its own and placed on the plane,
/// while the renderer draws the map alone. A frame whose dot does not fit the plane (a wide
/// accuracy disc) is painted into the map by the renderer as in software composition, and the
/// plane is emptied; the renderer's own bookkeeping restores the map under it afterwards.
public final class PlaneDot {
    public let plane: SpritePlane
    private let sprite: DotSprite

    public init(plane: SpritePlane, style: DotStyle, scale: Double) {
        self.plane = plane
        sprite = DotSprite(style: style, scale: scale, width: plane.spriteWidth, height: plane.spriteHeight)
    }

    /// `renderer.render` with the dot on the plane: the canvas's damage (the map's own changes).
    public func render(_ renderer: FrameRenderer, _ appearance: DotAppearance?, centerX: Double, centerY: Double) -> Rect {
        if let appearance, let place = sprite.placement(appearance, centerX: centerX, centerY: centerY) {
            sprite.paint(appearance, centerX: centerX, centerY: centerY, at: place, into: plane.spriteBuffer)
            plane.showSprite(x: place.x, y: place.y, width: place.width, height: place.height)
            return renderer.render(nil, centerX: centerX, centerY: centerY)
        }
        plane.hideSprite()
        return renderer.render(appearance, centerX: centerX, centerY: centerY)
    }
}
