import DisplayCore
import Raster

/// A framebuffer output as the loop sees every display.
extension FBDevOutput {
    /// "/dev/fb0 (bochsdrmfb) 1280x800": for STATUS and the log.
    public var displayName: String { "\(name) \(width)x\(height)" }
    public var physicalHeight: Int { height }
    public var modeDescription: String { "\(width)x\(height)" }
    public var scanoutFormat: PixelFormat { layout.container }
    // No `hotplug`: the kernel sends nothing for a framebuffer whose monitor is unplugged.
    public var blanking: (any DisplayBlanking)? { self }
}
