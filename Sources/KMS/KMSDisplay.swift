import DisplayCore
import Raster

/// A KMS output as the loop sees every display.
extension KMSOutput {
    /// "/dev/dri/card0 (bochs) Virtual-1 1024x768": for STATUS and the log.
    public var displayName: String { "\(name) \(mode)" }
    public var physicalHeight: Int { mode.height }
    public var modeDescription: String { mode.description }
    public var scanoutFormat: PixelFormat { format }
    public var hotplug: (any DisplayHotplug)? { self }
    public var hotplugDevice: String { card.path }
    public var blanking: (any DisplayBlanking)? { self }
}
