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

/// gpsd's mode: 0 and 1 carry no position; 2 and 3 may.
public enum FixMode: Int, Comparable, Sendable, CustomStringConvertible {
    case unknown = 0
    case noFix = 1
    case twoD = 2
    case threeD = 3

    public static func < (a: FixMode, b: FixMode) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .noFix: "no fix"
        case .twoD: "2D"
        case .threeD: "3D"
        }
    }
}

/// gpsd's fix status. gpsd omits it for a plain GNSS fix; later releases may add codes, so an
/// unknown number is kept rather than rejected.
public struct FixStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let unknown = FixStatus(rawValue: 0)
    public static let normal = FixStatus(rawValue: 1)
    public static let dgps = FixStatus(rawValue: 2)
    public static let rtkFixed = FixStatus(rawValue: 3)
    public static let rtkFloat = FixStatus(rawValue: 4)
    public static let deadReckoning = FixStatus(rawValue: 5)
    public static let gnssDeadReckoning = FixStatus(rawValue: 6)
    public static let timeOnly = FixStatus(rawValue: 7)
    public static let simulated = FixStatus(rawValue: 8)
    public static let militaryPY = FixStatus(rawValue: 9)

    /// A stable lower-case name for logs and `pulsedot watch`.
    public var description: String {
        switch rawValue {
        case 0: "unknown"
        case 1: "normal"
        case 2: "dgps"
        case 3: "rtk-fixed"
        case 4: "rtk-float"
        case 5: "dead-reckoning"
        case 6: "gnss-dead-reckoning"
        case 7: "time-only"
        case 8: "simulated"
        case 9: "p(y)"
        default: "status-\(rawValue)"
        }
    }
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
