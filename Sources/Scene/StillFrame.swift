import Compositor
import LocationDot
import PNG
import Raster

/// One frame of the dot, headless: what `pulsedot render` and the demo make. The dot is centred on
/// the canvas (look.md: the point (W/2, H/2)), at clock `time`, with the entrance pop started at
/// clock 0 when `entrance` is set.
public struct StillFrame: Sendable {
    public var width = 240
    public var height = 240
    public var scale = 2.0
    public var format = PixelFormat.xrgb8888
    public var background = StillFrame.defaultBackground
    public var time = 0.0
    public var entrance = false
    /// Course over ground in degrees clockwise from north, for `headingImage`.
    public var heading: Double? = nil

    /// A light map-like grey (the colour of empty land on Apple's maps).
    public static let defaultBackground = Color(r: 0xE5, g: 0xE3, b: 0xDF)

    public init() {}

    public func appearance(style: DotStyle) -> DotAppearance {
        var look = DotClock(style: style).appearance(at: time, popStart: entrance ? 0 : nil)
        look.heading = heading
        return look
    }

    /// Renders the frame in `format`: XRGB8888 straight from the canvas, RGB565 through the
    /// copy-out (narrowed once, as on a 565 panel).
    public func render(style: DotStyle) throws(FrameError) -> OwnedPixelBuffer {
        let renderer = try FrameRenderer(width: width, height: height, style: style, scale: scale, background: .color(background))
        renderer.render(appearance(style: style), centerX: Double(width) / 2, centerY: Double(height) / 2)
        switch format {
        case .xrgb8888:
            return renderer.canvas
        case .rgb565:
            let out = OwnedPixelBuffer(width: width, height: height, format: .rgb565)
            renderer.copyOut(renderer.bounds, to: out.buffer)
            return out
        }
    }

    /// Renders and writes the frame as an RGB PNG (RGB565 widened back, look.md).
    public func write(style: DotStyle, to path: String) throws(FrameError) {
        let frame = try render(style: style)
        do { try PNGWrite.frame(frame.buffer, to: path) } catch { throw FrameError(error.description) }
    }
}
