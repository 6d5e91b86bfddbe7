import Raster

/// A plane of the display controller's own above the canvas, showing a small picture the
/// controller composes over the frame at any position: the dot moves without the map under it
/// being restored or copied. Its pixels are premultiplied ARGB8888 (B, G, R, A bytes in memory:
/// the layout `PixelFormat.xrgb8888` names, with the fourth byte the alpha).
///
/// Per frame: paint into `spriteBuffer` (rows `0..<height`, columns `0..<width` of the picture),
/// then `showSprite` (or `hideSprite`), then the display's `present`, which puts both the canvas's
/// damage and the sprite on screen in one commit.
public protocol SpritePlane: AnyObject {
    /// False once the display stopped taking pictures on the plane (its driver refused one at
    /// run time): the dot is then painted into the canvas again.
    var takesSprites: Bool { get }
    /// The largest picture the plane shows.
    var spriteWidth: Int { get }
    var spriteHeight: Int { get }
    /// Whether the plane shows only its whole buffer (a cursor plane): every picture is then
    /// `spriteWidth`×`spriteHeight`, transparent around the dot.
    var showsWholeSprite: Bool { get }
    /// Where the next picture is painted: a buffer not on screen (nor queued to be) until `present`.
    var spriteBuffer: PixelBuffer { get }
    /// Shows the top-left `width`×`height` of `spriteBuffer` with its top-left corner at canvas
    /// pixel (`x`, `y`), which may lie partly off the screen.
    func showSprite(x: Int, y: Int, width: Int, height: Int)
    /// No picture on the plane from the next `present` (a frame without a dot, or one whose dot
    /// is drawn into the canvas).
    func hideSprite()
    /// What the display controller composed and scanned out last — the canvas with the sprite over
    /// it — read back through a writeback connector; nil where the display has none (the caller
    /// then composes a picture in software). Waits for the capture (bounded); not for every frame.
    func composedScreen() -> PixelBuffer?
}

extension SpritePlane {
    public var showsWholeSprite: Bool { false }
}
