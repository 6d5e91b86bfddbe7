import Compositor
import Geo
import PNG
import Raster

/// The `[map] image`, decoded once (at start and at each reload) into the frame format, so every
/// frame restores the background with plain row copies.
public final class MapImage: MapSource {
    public let path: String
    public let pixels: OwnedPixelBuffer
    /// The route drawn into the image, with the image's pixels under it (`setRoute`).
    var routeUnderlay: RouteUnderlay?

    public init(path: String, background: Color) throws(PNGError) {
        self.path = path
        // Transparent parts of the image show the map's background colour.
        pixels = try PNGRead.opaqueFrame(path: path, background: background)
    }

    public var width: Int { pixels.buffer.width }
    public var height: Int { pixels.buffer.height }
    public var byteCount: Int { pixels.buffer.stride * pixels.buffer.height }

    public var wholeFrame: OwnedPixelBuffer? { pixels }

    /// The part of the image a window shows from `offset`; only what the image does not cover
    /// (a map smaller than the screen) gets the background colour.
    public func compose(into target: PixelBuffer, offset: ViewOffset, background: Color) {
        let map = pixels.buffer
        let window = Rect(x: offset.x, y: offset.y, width: target.width, height: target.height)
        let visible = window.intersection(map.bounds)
        if visible != window { target.fill(target.bounds, with: background) }
        if visible.isEmpty { return }
        let bpp = map.format.bytesPerPixel
        let source = PixelBuffer(base: map.row(visible.y) + visible.x * bpp, width: visible.width, height: visible.height,
                                 stride: map.stride, format: map.format)
        let place = PixelBuffer(base: target.row(visible.y - offset.y) + (visible.x - offset.x) * bpp, width: visible.width,
                                height: visible.height, stride: target.stride, format: target.format)
        place.copy(place.bounds, from: source)
    }

    /// "map.png: 8000x6000, 183.1 MiB in memory (xrgb8888)": worth saying for a big map on a small board.
    public var summary: String {
        let tenths = (byteCount * 10 + (1 << 19)) >> 20
        return "map \(path): \(width)x\(height), \(tenths / 10).\(tenths % 10) MiB in memory (\(pixels.buffer.format.rawValue))"
    }
}
