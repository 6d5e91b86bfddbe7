import Display
import Raster

/// A framebuffer output as the loop sees every display.
extension FBDevOutput {
    public typealias Thrown = FBDevError
    /// "/dev/fb0 (bochsdrmfb) 1280x800": for STATUS and the log.
    public var displayName: String { "\(name) \(width)x\(height)" }
    public var physicalHeight: Int { height }
    public var modeDescription: String { "\(width)x\(height)" }
    /// The fbdev interface has no hot-plug: the kernel sends nothing for a framebuffer whose
    /// monitor is unplugged.
    public var hotplugDevice: String? { nil }
    public func recheckConnector() -> ConnectorCheck { .connected }
    public var scanoutFormat: PixelFormat { layout.container }

    public func present(damage: Rect, frame: FrameStamp) throws(FBDevError) {
        try present(damage: damage)
    }
}
