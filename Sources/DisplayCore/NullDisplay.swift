import Raster

/// `output = none`: frames are rendered and discarded (measurements, soak tests).
public final class NullDisplay: MemoryFrameDisplay {
    public let canvasWidth: Int
    public let canvasHeight: Int
    public var memory: DisplayCanvas

    public init(width: Int, height: Int) {
        canvasWidth = width
        canvasHeight = height
        memory = DisplayCanvas(width: width, height: height)
    }

    public var displayName: String { "none \(canvasWidth)x\(canvasHeight)" }
    /// Discarding is all this display does with a frame, so every present is one done.
    public private(set) var presentation = PresentationCount()
    public func present(damage: DamageRegion) { presentation.presented += 1 }
}
