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
