import Geo
import Raster

/// Where a map's pixels come from: one image decoded whole, or tiles decoded off the loop. The
/// renderer needs two things of it: a map kept whole in memory lends its frame, so a covering
/// view scrolls over it without a copy; any map draws the part a view shows into a canvas-sized
/// window, which happens only when the view moves. A map of a plain colour needs no source
/// (`MapWindow` with none).
public protocol MapSource: AnyObject {
    /// One line for the log when the map is loaded ("map city.png: 8000x6000, 183.1 MiB …").
    var summary: String { get }
    /// The whole map as one XRGB8888 frame, when it is one; nil: drawn on demand (tiles).
    var wholeFrame: OwnedPixelBuffer? { get }
    /// Draws the map as seen from `offset` (the map pixel at the window's top-left) into
    /// `window`; pixels the map does not cover get `background`.
    func compose(into window: PixelBuffer, offset: ViewOffset, background: Color)
}
