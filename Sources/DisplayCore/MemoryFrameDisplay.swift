import Raster

/// A display whose frames never leave memory for a panel (discarded, or written to files): the
/// canvas is the whole frame, its size is the mode, and there is nothing to set up or put back.
public protocol MemoryFrameDisplay: Display {
    /// The canvas as `DisplayCanvas` keeps it (adopted, or the display's own).
    var memory: DisplayCanvas { get set }
}

extension MemoryFrameDisplay {
    public var physicalHeight: Int { canvasHeight }
    public var modeDescription: String { "\(canvasWidth)x\(canvasHeight)" }
    public var scanoutFormat: PixelFormat { .xrgb8888 }
    public var canvas: PixelBuffer { memory.buffer() }
    public func adopt(canvas: PixelBuffer) { memory.adopt(canvas) }
    public func start() {}
    public func close() {}
}
