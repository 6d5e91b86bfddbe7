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

/// The display seam's calls: this output's work, its errors as `DisplayFailure`.
extension FBDevOutput {
    public func start() throws(DisplayFailure) {
        do { try startScanout() } catch { throw DisplayFailure(error) }
    }
    public func present(damage rect: Rect) throws(DisplayFailure) {
        do { try presentDamage(damage: rect) } catch { throw DisplayFailure(error) }
    }
    public func handleEvents() throws(DisplayFailure) {
        do { try readEvents() } catch { throw DisplayFailure(error) }
    }
    public func blank() throws(DisplayFailure) -> BlankOutcome {
        do { return try switchOff() } catch { throw DisplayFailure(error) }
    }
    public func unblank() throws(DisplayFailure) {
        do { try switchOn() } catch { throw DisplayFailure(error) }
    }
}
