import Raster

/// `output = none`: frames are rendered and discarded (measurements, soak tests).
public final class NullDisplay: Display {
    public let canvasWidth: Int
    public let canvasHeight: Int
    private var own: DisplayCanvas

    public init(width: Int, height: Int) {
        canvasWidth = width
        canvasHeight = height
        own = DisplayCanvas(width: width, height: height)
    }

    public var displayName: String { "none \(canvasWidth)x\(canvasHeight)" }
    public var physicalHeight: Int { canvasHeight }
    public var modeDescription: String { "\(canvasWidth)x\(canvasHeight)" }
    public var scanoutFormat: PixelFormat { .xrgb8888 }
    public var canvas: PixelBuffer { own.buffer() }
    public func adopt(canvas: PixelBuffer) { own.adopt(canvas) }
    public func start() {}
    /// Discarding is all this display does with a frame, so every present is one done.
    public private(set) var presentation = PresentationCount()
    public func present(damage: Rect) { presentation.presented += 1 }
    public func close() {}
}
