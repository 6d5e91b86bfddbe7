import Raster

/// What draws the map into a picture for a plane that pans it (`PlaneMap`): a map image, or the
/// tiles around the view. A picture must hold exactly the pixels the renderer's canvas would show
/// for the same map pixels, in the picture's format.
public protocol MapPicturePainter: AnyObject {
    /// The map's size when views stop at its edges (an image); nil: views go anywhere (tiles, with
    /// the map's colour beyond them).
    var edges: (width: Int, height: Int)? { get }
    /// Draws the `width`×`height` map region whose top-left is map pixel (`originX`, `originY`)
    /// into the top-left of `picture`.
    func drawPicture(originX: Int, originY: Int, width: Int, height: Int, into picture: PixelBuffer)
    /// Whether the map changed inside the region last drawn since it was drawn (tiles arrived).
    var pictureOutdated: Bool { get }
    /// No picture is on screen any more: its region need not be kept.
    func forgetPicture()
}

/// A whole map image drawn into pictures: a copy, narrowed to the picture's format.
public final class MapImagePainter: MapPicturePainter {
    public let map: OwnedPixelBuffer

    public init(map: OwnedPixelBuffer) { self.map = map }

    public var edges: (width: Int, height: Int)? { (map.buffer.width, map.buffer.height) }

    public func drawPicture(originX: Int, originY: Int, width: Int, height: Int, into picture: PixelBuffer) {
        MapScroll.copy(map.buffer, originX: originX, originY: originY, width: width, height: height, into: picture)
    }

    public var pictureOutdated: Bool { false }
    public func forgetPicture() {}
}
