import Raster

/// Where a layer lies in the scene's order: over the map and under the dot, moving with the map
/// (a route line, stop markers), or over everything, fixed on the screen (the map's credit, a
/// banner, a departures board).
public enum LayerPlace: Sendable {
    case map
    case screen
}

/// Something drawn besides the map and the dot. A frame is composed in one order — the map, the
/// map layers in the order they were added, the dot, the screen layers in order — and only where
/// it changed: a layer is drawn wherever the renderer restored the map under it, and says itself
/// where its own pixels changed.
///
/// A map layer is drawn in the view its owner set before the frame; the renderer never moves it.
/// When the view scrolls over tiles the canvas is moved with the map, so the layer's pixels move
/// with it and only the strips the move uncovered are drawn anew: a map layer must draw the same
/// pixels at the same map position whatever the view (integer view offsets keep that true).
///
/// Drawing allocates nothing and reads no files: anything slow (text, geometry) is prepared
/// off the frame loop and handed over.
public protocol Layer: AnyObject {
    /// The canvas rectangle the layer may cover in the current view; nothing outside it is drawn.
    var frame: Rect { get }
    /// Where the layer's pixels changed since the last frame (its old and new places when it
    /// moved or was replaced), in canvas pixels; returned once, then forgotten.
    func takeDamage() -> Rect
    /// The same damage, inside `bounds` (the canvas), added to `region` part by part: a layer of
    /// many small pictures (vehicles spread over the map) keeps them apart, so the frame restores
    /// and copies only those.
    func takeDamage(into region: inout DamageRegion, within bounds: Rect)
    /// Draws the layer inside `clip` over what `canvas` (XRGB8888) holds there.
    func draw(into canvas: PixelBuffer, clip: Rect)
}

extension Layer {
    public func takeDamage(into region: inout DamageRegion, within bounds: Rect) {
        region.add(takeDamage().intersection(bounds))
    }
}
