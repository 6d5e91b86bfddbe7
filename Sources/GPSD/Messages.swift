import Location
/// The gpsd JSON messages this client uses, with only the fields it reads. Every field is optional
/// because gpsd leaves unknown values out instead of sending null.
public enum GPSDMessage: Equatable, Sendable {
    case version(VersionReport)
    case devices([DeviceReport])
    case device(DeviceReport)
    case watch(WatchReport)
    case tpv(TPVReport)
    case sky(SkyReport)
    case gst(GSTReport)
    /// gpsd's answer to a request it could not honour, e.g. a watch on a device it cannot open.
    case error(String)
}

public struct VersionReport: Equatable, Sendable {
    public var release: String?
    public var revision: String?
    public var protocolMajor: Int?
    public var protocolMinor: Int?
}

public struct DeviceReport: Equatable, Sendable {
    public var path: String?
    public var driver: String?
    /// true: open and delivering (gpsd sends the activation time); false: closed (`"activated":0`);
    /// nil: not said.
    public var activated: Bool?
}

public struct WatchReport: Equatable, Sendable {
    public var enable: Bool?
    public var json: Bool?
    public var device: String?
}

/// Time-position-velocity: one report per receiver cycle (gpsd often sends one per sentence).
public struct TPVReport: Equatable, Sendable {
    public var device: String?
    public var mode: FixMode?
    public var status: FixStatus?
    public var time: FixTime?
    public var latitude: Double?
    public var longitude: Double?
    public var altitudeHAE: Double?
    public var altitudeMSL: Double?
    /// Error estimates in metres (about 95 % confidence).
    public var eph: Double?
    public var epx: Double?
    public var epy: Double?
    public var epv: Double?
    /// Course over ground, degrees from true north.
    public var track: Double?
    /// Metres per second.
    public var speed: Double?
    public var climb: Double?

    public init() {}
}

/// Satellites: how many are seen and how many are used in the fix.
public struct SkyReport: Equatable, Sendable {
    public var device: String?
    public var time: FixTime?
    public var satellitesSeen: Int?
    public var satellitesUsed: Int?
    public var hdop: Double?
}

/// Pseudorange noise statistics: standard deviations in metres (receivers can send junk here).
public struct GSTReport: Equatable, Sendable {
    public var device: String?
    public var time: FixTime?
    public var rms: Double?
    public var major: Double?
    public var minor: Double?
    public var orientation: Double?
    public var latitudeError: Double?
    public var longitudeError: Double?
    public var altitudeError: Double?
}
