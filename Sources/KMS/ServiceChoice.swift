import DisplayCore
import Raster

/// What `run` would drive, worked out from probes rather than from an opened card: the same
/// choices, in the same order, as `Discovery.open` and `KMSOutput.init` (the configured card or
/// the first that can serve the configuration, its connector, mode and rotation), so an installer
/// sees them before the service starts and a wrong connector name is found at the desk.
public struct ServiceChoice: Sendable {
    public var device: String
    public var driver: String
    public var connector: ConnectorInfo
    public var mode: DisplayMode
    public var rotation: Rotation
    /// Where the rotation came from: "configured" or the panel's orientation property.
    public var rotationSource: String

    /// The choice among `probes`; the error is the one `run` would log for the first candidate.
    public static func choose(_ configuration: KMSConfiguration, among probes: [CardProbe]) throws(KMSError) -> ServiceChoice {
        let candidates = configuration.device.map { device in probes.filter { $0.path == device } } ?? probes
        if candidates.isEmpty {
            throw .noDevice(configuration.device.map { "\($0) could not be probed" } ?? "/dev/dri has no card*")
        }
        var firstError: KMSError?
        for probe in candidates {
            let device = "\(probe.path) (\(probe.driver))"
            do throws(KMSError) {
                guard probe.capabilities.dumbBuffers else { throw .noDumbBuffers(device: device) }
                let connector = try Selection.connector(named: configuration.connector, in: probe.connectors, device: device)
                let mode = try Selection.mode(configuration.mode, of: connector, device: device)
                let turn = Selection.rotation(configured: configuration.rotation, orientation: connector.orientation)
                return ServiceChoice(device: probe.path, driver: probe.driver, connector: connector, mode: mode,
                                     rotation: turn.rotation, rotationSource: turn.source)
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        throw firstError!
    }
}
