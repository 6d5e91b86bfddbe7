import Raster

/// A prepared picture with its own alpha as a layer (the map's credit, a banner): made off the
/// frame loop, then placed, moved or replaced between frames; each change is damage.
public final class PictureLayer: Layer {
    public private(set) var picture: Overlay
    private var damage: Rect

    public init(_ picture: Overlay) {
        self.picture = picture
        damage = picture.frame
    }

    public var frame: Rect { picture.frame }

    /// Shows `picture` instead (a banner whose text changed); both places are redrawn.
    public func replace(with picture: Overlay) {
        damage = damage.union(self.picture.frame).union(picture.frame)
        self.picture = picture
    }

    /// Moves the picture's top-left corner to canvas pixel (`x`, `y`).
    public func move(x: Int, y: Int) {
        if x == picture.x, y == picture.y { return }
        damage = damage.union(picture.frame)
        picture.x = x
        picture.y = y
        damage = damage.union(picture.frame)
    }

    public func takeDamage() -> Rect {
        let d = damage
        damage = .empty
        return d
    }

    public func draw(into canvas: PixelBuffer, clip: Rect) { picture.draw(into: canvas, clip: clip) }
}
