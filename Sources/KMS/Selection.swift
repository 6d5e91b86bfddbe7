import Raster

/// `WIDTHxHEIGHT[@HZ]` as configuration and the command line write it (physical, as the panel
/// reports it).
public struct ModeRequest: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// In millihertz; nil: any refresh.
    public var refreshMilliHz: Int?

    public init(width: Int, height: Int, refreshMilliHz: Int? = nil) {
        self.width = width; self.height = height; self.refreshMilliHz = refreshMilliHz
    }

    public init(parsing text: String) throws(KMSError) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw .badModeSpec(text) }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0, w <= 16384, h <= 16384 else {
            throw .badModeSpec(text)
        }
        width = w; height = h
        if parts.count == 2 {
            guard let hz = Double(parts[1]), hz > 0, hz < 1000 else { throw .badModeSpec(text) }
            refreshMilliHz = Int((hz * 1000).rounded())
        }
    }

    public var description: String {
        guard let r = refreshMilliHz else { return "\(width)x\(height)" }
        return r % 1000 == 0 ? "\(width)x\(height)@\(r / 1000)" : "\(width)x\(height)@\(Double(r) / 1000)"
    }

    /// Same size, and within half a hertz of the asked refresh (so @60 takes a 59.94 Hz mode).
    public func matches(_ mode: DisplayMode) -> Bool {
        guard mode.width == width, mode.height == height else { return false }
        guard let r = refreshMilliHz else { return true }
        return abs(mode.refreshMilliHz - r) <= 500
    }
}

/// The pure choices between what a card offers and what the configuration asks, kept apart from
/// the device so they are tested without one.
public enum Selection {
    /// The named connector, or else the first connected one.
    public static func connector(named name: String?, in connectors: [ConnectorInfo],
                                 device: String) throws(KMSError) -> ConnectorInfo {
        if let name {
            guard let c = connectors.first(where: { $0.name == name }) else {
                throw .connectorNotFound(device: device, name: name, available: connectors.map({ $0.name }))
            }
            guard c.state != .disconnected, !c.modes.isEmpty else {
                throw .connectorDisconnected(device: device, name: name)
            }
            return c
        }
        if let c = connectors.first(where: { $0.state == .connected && !$0.modes.isEmpty }) { return c }
        throw .noConnectedConnector(device: device, connectors: connectors.map { "\($0.name) \($0.state.rawValue)" })
    }

    /// The asked mode (preferred among equals, then the highest refresh); without a request the
    /// user-defined mode (`video=`), else the preferred one, else the largest — never blindly the
    /// first in the list.
    public static func mode(_ request: ModeRequest?, of connector: ConnectorInfo,
                            device: String) throws(KMSError) -> DisplayMode {
        let modes = connector.modes
        func best(_ candidates: [DisplayMode]) -> DisplayMode? {
            candidates.max { a, b in
                if a.preferred != b.preferred { return !a.preferred }
                return a.refreshMilliHz < b.refreshMilliHz
            }
        }
        if let request {
            if let m = best(modes.filter(request.matches)) { return m }
            throw .modeNotOffered(device: device, connector: connector.name, requested: request.description, offered: modes)
        }
        if let m = modes.first(where: { $0.userDefined }) { return m }
        if let m = modes.first(where: { $0.preferred }) { return m }
        if let m = modes.max(by: { a, b in
            let (aa, ba) = (a.width * a.height, b.width * b.height)
            return aa != ba ? aa < ba : a.refreshMilliHz < b.refreshMilliHz
        }) { return m }
        throw .connectorDisconnected(device: device, name: connector.name)
    }

    /// The CRTC already driving the connector, else the first its encoders can use that no other
    /// connected connector is using.
    public static func crtc(for connector: ConnectorInfo, in resources: CardResources,
                            device: String) throws(KMSError) -> CrtcInfo {
        if let current = connector.currentCrtc, let c = resources.crtcs.first(where: { $0.id == current }) {
            return c
        }
        let taken = Set(resources.connectors.filter { $0.id != connector.id }.compactMap({ $0.currentCrtc }))
        let usable = resources.crtcs.filter { connector.possibleCrtcs & (1 << UInt32($0.index)) != 0 }
        if let c = usable.first(where: { !taken.contains($0.id) }) ?? usable.first { return c }
        throw .noCrtc(device: device, connector: connector.name)
    }

    /// The asked format when the primary plane offers it, else one it does, with the line that says
    /// so. A plane list of nil (no universal planes) is taken to offer XRGB8888 only.
    public static func format(_ requested: PixelFormat, planeFormats: [UInt32]?,
                              device: String) -> (format: PixelFormat, note: String?) {
        let offered = planeFormats ?? [FourCC.xrgb8888]
        if offered.contains(FourCC.of(requested)) { return (requested, nil) }
        let fallback: PixelFormat = [PixelFormat.xrgb8888, .rgb565].first { offered.contains(FourCC.of($0)) } ?? .xrgb8888
        let list = offered.map(FourCC.describe).joined(separator: ", ")
        return (fallback, "\(device): the primary plane does not offer \(requested.rawValue) (it offers \(list)); using \(fallback.rawValue)")
    }

    /// The configured rotation, else the one the panel's orientation asks for; and where it came from.
    public static func rotation(configured: Rotation?, orientation: PanelOrientation?) -> (rotation: Rotation, source: String) {
        if let configured { return (configured, "configured") }
        if let orientation, orientation != .normal {
            return (orientation.rotation, "panel orientation \"\(orientation.rawValue)\"")
        }
        return (.r0, "default")
    }
}
