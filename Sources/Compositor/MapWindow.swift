import Geo
import Raster

/// What lies under the dot on one canvas: the map's colour, or a map source. A source whose whole
/// frame covers the canvas is the renderer's background itself, shown from the view's offset
/// (`scrolls`: the renderer scrolls it, nothing is copied); any other is composed, with the colour
/// around it, into a canvas-sized frame, again only when the view moves.
public final class MapWindow {
    public let color: Color
    public let source: (any MapSource)?
    /// The canvas-sized composition; nil for a plain map or a covering whole frame.
    public let frame: OwnedPixelBuffer?
    public private(set) var offset: ViewOffset?

    public init(color: Color, source: (any MapSource)?, canvasWidth: Int, canvasHeight: Int) {
        self.color = color
        self.source = source
        let whole = source?.wholeFrame
        let covers = whole.map { $0.buffer.width >= canvasWidth && $0.buffer.height >= canvasHeight } ?? false
        frame = source == nil || covers ? nil : OwnedPixelBuffer(width: canvasWidth, height: canvasHeight, format: .xrgb8888)
    }

    /// Whether the view moves by scrolling the renderer over the whole frame (`FrameRenderer.scrollBackground`).
    public var scrolls: Bool { source != nil && frame == nil }

    public var background: FrameBackground {
        if let frame { return .frame(frame) }
        if let whole = source?.wholeFrame { return .frame(whole) }
        return .color(color)
    }

    /// Makes the composed window show the map from `offset` (the map pixel at the canvas's
    /// top-left). Returns true when the background changed (the whole canvas must be redrawn).
    @discardableResult
    public func show(offset new: ViewOffset) -> Bool {
        guard let frame, let source, offset != new else { return false }
        offset = new
        source.compose(into: frame.buffer, offset: new, background: color)
        return true
    }
}
