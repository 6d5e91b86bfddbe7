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

/// The display seam's calls: this output's work, its errors as `DisplayFailure`.
extension KMSOutput {
    public func start() throws(DisplayFailure) {
        do { try startScanout() } catch { throw DisplayFailure(error) }
    }
    public func present(damage rect: Rect) throws(DisplayFailure) {
        do { try presentDamage(damage: rect) } catch { throw DisplayFailure(error) }
    }
    public func handleEvents() throws(DisplayFailure) {
        do { try readEvents() } catch { throw DisplayFailure(error) }
    }
    public func recheckConnector() throws(DisplayFailure) -> ConnectorCheck {
        do { return try checkConnector() } catch { throw DisplayFailure(error) }
    }
    public func blank() throws(DisplayFailure) -> BlankOutcome {
        do { return try switchOff() } catch { throw DisplayFailure(error) }
    }
    public func unblank() throws(DisplayFailure) {
        do { try switchOn() } catch { throw DisplayFailure(error) }
    }
}
