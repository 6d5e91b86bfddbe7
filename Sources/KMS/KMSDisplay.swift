import DisplayCore
import Raster

/// A KMS output as the loop sees every display: the same for the legacy and the atomic output,
/// both of which follow their monitor's comings and goings and switch their panel off.
public protocol KMSDisplay: HotplugOutput, BlankingOutput {
    /// "/dev/dri/card0 (bochs) Virtual-1".
    var name: String { get }
    var mode: DisplayMode { get }
    /// The format scanned out.
    var format: PixelFormat { get }
}

extension KMSDisplay {
    /// "/dev/dri/card0 (bochs) Virtual-1 1024x768": for STATUS and the log.
    public var displayName: String { "\(name) \(mode)" }
    public var physicalHeight: Int { mode.height }
    public var modeDescription: String { mode.description }
    public var scanoutFormat: PixelFormat { format }
    public var hotplug: (any DisplayHotplug)? { self }
    public var blanking: (any DisplayBlanking)? { self }
}

extension KMSOutput: KMSDisplay {
    public var hotplugDevice: String { card.path }
}
