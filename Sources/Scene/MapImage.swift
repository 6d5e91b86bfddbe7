import Compositor
import Geo
import PNG
import Raster

/// The `[map] image`, decoded once (at start and at each reload) into the frame format, so every
/// frame restores the background with plain row copies.
public final class MapImage {
    public let path: String
    public let pixels: OwnedPixelBuffer

    public init(path: String, background: Color) throws(PNGError) {
        self.path = path
        // Transparent parts of the image show the map's background colour.
        pixels = try PNGRead.opaqueFrame(path: path, background: background)
    }

    public var width: Int { pixels.buffer.width }
    public var height: Int { pixels.buffer.height }
    public var byteCount: Int { pixels.buffer.stride * pixels.buffer.height }

    /// "map.png: 8000x6000, 183.1 MiB in memory (xrgb8888)": worth saying for a big map on a small board.
    public var summary: String {
        let tenths = (byteCount * 10 + (1 << 19)) >> 20
        return "map \(path): \(width)x\(height), \(tenths / 10).\(tenths % 10) MiB in memory (\(pixels.buffer.format.rawValue))"
    }
}

/// What lies under the dot on one canvas: the map's colour, or the map image. An image that
/// covers the canvas is the renderer's background itself, shown from the view's offset
/// (`scrolls`: the renderer scrolls it, nothing is copied); a smaller one is composed with the
/// colour around it into a canvas-sized frame, again only when the view moves.
public final class MapWindow {
    public let color: Color
    public let image: MapImage?
    /// The canvas-sized composition of a small `image`; nil for a plain map or a covering image.
    public let frame: OwnedPixelBuffer?
    public private(set) var offset: ViewOffset?

    public init(color: Color, image: MapImage?, canvasWidth: Int, canvasHeight: Int) {
        self.color = color
        self.image = image
        let covers = image.map { $0.width >= canvasWidth && $0.height >= canvasHeight } ?? false
        frame = image == nil || covers ? nil : OwnedPixelBuffer(width: canvasWidth, height: canvasHeight, format: .xrgb8888)
    }

    /// Whether the view moves by scrolling the renderer over the image (`FrameRenderer.scrollBackground`).
    public var scrolls: Bool { image != nil && frame == nil }

    public var background: FrameBackground {
        if let frame { return .frame(frame) }
        if let image { return .frame(image.pixels) }
        return .color(color)
    }

    /// Makes the composed window show the map from `offset` (the map pixel at the canvas's
    /// top-left). Returns true when the background changed (the whole canvas must be redrawn).
    @discardableResult
    public func show(offset new: ViewOffset) -> Bool {
        guard let frame, let image, offset != new else { return false }
        offset = new
        let target = frame.buffer, map = image.pixels.buffer
        let visible = Rect(x: new.x, y: new.y, width: target.width, height: target.height).intersection(map.bounds)
        // Only what the map does not cover gets the colour (a map smaller than the screen).
        if visible != Rect(x: new.x, y: new.y, width: target.width, height: target.height) {
            target.fill(target.bounds, with: color)
        }
        if visible.isEmpty { return true }
        let bpp = map.format.bytesPerPixel
        let source = PixelBuffer(base: map.row(visible.y) + visible.x * bpp, width: visible.width, height: visible.height,
                                 stride: map.stride, format: map.format)
        let place = PixelBuffer(base: target.row(visible.y - new.y) + (visible.x - new.x) * bpp, width: visible.width,
                                height: visible.height, stride: target.stride, format: target.format)
        place.copy(place.bounds, from: source)
        return true
    }
}
