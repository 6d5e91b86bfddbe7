import Raster
/// A `Display`'s canvas, kept the one way every output keeps it: the caller's adopted frame
/// (a renderer that owns its canvas, so frames are not copied twice), else an XRGB8888 frame
/// of the output's own, allocated on first use so an output whose caller adopts never allocates
/// one.
public struct DisplayCanvas {
    public let width: Int
    public let height: Int
    private var own: OwnedPixelBuffer?
    private var adopted: PixelBuffer?
    /// Set by `route(through:)`: copy-out goes through the canvas's drawer.
    private var copier: CanvasCopier?

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The canvas: the adopted frame, or the own one (made now if it does not exist yet).
    public mutating func buffer() -> PixelBuffer {
        if let adopted { return adopted }
        if let own { return own.buffer }
        let made = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
        own = made
        return made.buffer
    }

    /// Makes `frame` the canvas and lets go of any own frame. It must be XRGB8888 of the canvas
    /// size: anything else is a programming error.
    public mutating func adopt(_ frame: PixelBuffer) {
        precondition(frame.width == width && frame.height == height && frame.format == .xrgb8888,
                     "a \(frame.width)x\(frame.height) \(frame.format) frame cannot be the \(width)x\(height) xrgb8888 canvas")
        adopted = frame
        own = nil
    }

    /// Copies from now on go through `copier` (nil: the canvas's own plain copy-out).
    public mutating func route(through copier: CanvasCopier?) { self.copier = copier }

    /// Logical `region` of the canvas into `target` (the panel), turned by `rotation`: through the
    /// copier when there is one; returns the panel rectangle written.
    @discardableResult
    public mutating func copyOut(region: Rect, to target: PixelBuffer, rotation: Rotation) -> Rect {
        if let copier { return copier.copy(region, target, rotation) }
        return buffer().copyOut(region: region, to: target, rotation: rotation)
    }

    /// Every part of logical `region` copied out as `copyOut(region:to:rotation:)` copies one.
    @discardableResult
    public mutating func copyOut(region: DamageRegion, to target: PixelBuffer, rotation: Rotation) -> Copied {
        Copied(region) { copyOut(region: $0, to: target, rotation: rotation) }
    }
}
