import DisplayCore
import Raster

/// The part every in-memory display double shares: a canvas kept as the outputs keep it (the
/// caller's adopted frame, else one of its own), named by its size, nothing to start or close, no
/// presentation counted unless a subclass counts it. A double subclasses it and overrides only
/// what its test looks at: what a present does, and the capabilities it has.
///
/// The capability accessors below answer what `Display`'s extension answers; they are here only
/// because a subclass cannot override an extension's default: through `any Display`, the
/// conformance would keep calling the extension. A double needing another defaulted member
/// (`pollDescriptor`, `isSettled`, ...) adds it here first, for the same reason.
open class TestDisplay: Display {
    public let canvasWidth: Int
    public let canvasHeight: Int
    public let displayName: String
    public let scanoutFormat: PixelFormat
    /// The canvas, so that a subclass can copy out of it into screens of its own.
    public var frame: DisplayCanvas
    public var presentation = PresentationCount()

    public init(name: String, width: Int, height: Int, scanoutFormat: PixelFormat = .xrgb8888) {
        canvasWidth = width
        canvasHeight = height
        displayName = name
        self.scanoutFormat = scanoutFormat
        frame = DisplayCanvas(width: width, height: height)
    }

    public var physicalHeight: Int { canvasHeight }
    public var modeDescription: String { "\(canvasWidth)x\(canvasHeight)" }
    public var canvas: PixelBuffer { frame.buffer() }
    public func adopt(canvas: PixelBuffer) { frame.adopt(canvas) }
    open func start() throws(DisplayFailure) {}
    open func present(damage: DamageRegion) throws(DisplayFailure) {}
    open func close() {}

    open func route(copyOut copier: CanvasCopier) {}
    open var hotplug: (any DisplayHotplug)? { nil }
    open var blanking: (any DisplayBlanking)? { nil }
    open var recorder: (any FrameRecorder)? { nil }
    open var spritePlane: SpritePlane? { nil }
    open func mapScrollPlane(margin: Int) -> MapScrollPlane? { nil }
    open var picturePlanes: (any PicturePlanes)? { nil }
}
