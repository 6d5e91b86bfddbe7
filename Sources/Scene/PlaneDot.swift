import Compositor
import DisplayCore
import LocationDot
import Raster

/// The dot on a display's sprite plane: painted as a picture of its own and placed on the plane,
/// while the renderer draws the map alone. An accuracy disc too wide for the plane stays on the
/// map (it is the bottom layer: the renderer paints it alone, the plane the rest above it); a dot
/// that does not fit even without it is painted into the map whole, as in software composition,
/// and the plane emptied. The renderer's own bookkeeping restores the map where either was.
public final class PlaneDot {
    public let plane: SpritePlane
    private let sprite: DotSprite
    /// The dot last put on the plane (nil: the plane is empty), for a picture of the screen.
    private var shown: (appearance: DotAppearance, x: Double, y: Double, place: Rect)?

    public init(plane: SpritePlane, style: DotStyle, scale: Double) {
        self.plane = plane
        sprite = DotSprite(style: style, scale: scale, width: plane.spriteWidth, height: plane.spriteHeight)
    }

    /// `renderer.render` with the dot on the plane: the canvas's damage (the map's own changes).
    public func render(_ renderer: FrameRenderer, _ appearance: DotAppearance?, centerX: Double, centerY: Double) -> DamageRegion {
        if plane.takesSprites, let appearance {
            if let place = sprite.placement(appearance, centerX: centerX, centerY: centerY) {
                show(appearance, centerX, centerY, place)
                return renderer.render(nil, centerX: centerX, centerY: centerY)
            }
            var above = appearance
            above.accuracyRadiusPx = 0
            if appearance.accuracyRadiusPx > 0, let place = sprite.placement(above, centerX: centerX, centerY: centerY) {
                show(above, centerX, centerY, place)
                // No pop: every layer but the accuracy disc has no size.
                var disc = appearance
                disc.popScale = 0
                return renderer.render(disc, centerX: centerX, centerY: centerY)
            }
        }
        plane.hideSprite()
        shown = nil
        return renderer.render(appearance, centerX: centerX, centerY: centerY)
    }

    /// The whole dot on the plane (or the plane emptied when there is none), nothing drawn into
    /// the canvas: true; false when the dot needs the canvas too (nothing is done then).
    public func placeAlone(_ appearance: DotAppearance?, centerX: Double, centerY: Double) -> Bool {
        guard plane.takesSprites else { return false }
        guard let appearance else {
            plane.hideSprite()
            shown = nil
            return true
        }
        guard let place = sprite.placement(appearance, centerX: centerX, centerY: centerY) else { return false }
        show(appearance, centerX, centerY, place)
        return true
    }

    private func show(_ appearance: DotAppearance, _ x: Double, _ y: Double, _ dotPlace: Rect) {
        // A plane that shows its whole buffer gets the dot's top-left corner there, transparent around.
        let place = plane.showsWholeSprite
            ? Rect(x: dotPlace.x, y: dotPlace.y, width: plane.spriteWidth, height: plane.spriteHeight) : dotPlace
        sprite.paint(appearance, centerX: x, centerY: y, at: place, into: plane.spriteBuffer)
        plane.showSprite(x: place.x, y: place.y, width: place.width, height: place.height)
        shown = (appearance, x, y, place)
    }

    /// A picture of what the screen shows: the display controller's own composition read back
    /// where it can be, else `canvas` with the sprite blended over it as the plane blends it
    /// (premultiplied), and `above` (pictures on planes over the dot's) over both. Made when
    /// asked (a snapshot), never per frame.
    public func screen(canvas: PixelBuffer, above: [Overlay] = []) -> (picture: OwnedPixelBuffer, source: String) {
        let out = OwnedPixelBuffer(width: canvas.width, height: canvas.height, format: .xrgb8888)
        if let composed = plane.composedScreen(), composed.width == canvas.width, composed.height == canvas.height {
            out.buffer.copy(out.buffer.bounds, from: composed)
            return (out, "writeback")
        }
        out.buffer.copy(out.buffer.bounds, from: canvas)
        if let shown {
            let picture = OwnedPixelBuffer(width: shown.place.width, height: shown.place.height, format: .xrgb8888)
            sprite.paint(shown.appearance, centerX: shown.x, centerY: shown.y, at: shown.place, into: picture.buffer)
            DotSprite.blend(picture.buffer, over: out.buffer, atX: shown.place.x, y: shown.place.y)
        }
        for p in above { p.draw(into: out.buffer, clip: out.buffer.bounds) }
        if shown == nil && above.isEmpty { return (out, "the canvas; the plane is empty") }
        return (out, "composed in software")
    }
}
