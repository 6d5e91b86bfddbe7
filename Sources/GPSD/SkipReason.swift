/// Why a line from gpsd did not become a message. Every skipped line is counted under one reason so
/// the daemon can report what its receiver and gpsd are sending it.
public enum SkipReason: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// Longer than the framer's limit; thrown away up to its newline.
    case oversizeLine
    /// A plain NMEA sentence (`$GPGGA...`), sent when a watch asks for `nmea` or `raw`.
    case nmeaSentence
    /// Neither JSON nor NMEA: line noise, binary garbage, another protocol.
    case notJSON
    /// Starts like JSON but breaks its grammar (also: NaN or Infinity written as a bare word).
    case malformedJSON
    /// Valid JSON but not an object with a string `class`.
    case missingClass
    /// A class this client does not use (ATT, TOFF, PPS, POLL...): normal traffic, ignored.
    case unknownClass
    /// A field this client reads has the wrong JSON type (`"lat":"52.1"`).
    case wrongType
    /// A field has an impossible value: mode 7, a time that is not ISO 8601, a fractional count.
    case invalidValue
    /// A number too large for a Double (1e400 reads as infinity).
    case nonFiniteNumber
    case latitudeOutOfRange
    case longitudeOutOfRange
    /// An error estimate (eph, epx, ...) below zero.
    case negativeErrorEstimate

    /// Whether the reason points at a broken or hostile peer (worth a warning) rather than traffic
    /// that is merely not for us.
    public var isBadInput: Bool {
        switch self {
        case .nmeaSentence, .unknownClass: false
        default: true
        }
    }

    public var description: String {
        switch self {
        case .oversizeLine: "oversize line"
        case .nmeaSentence: "NMEA sentence"
        case .notJSON: "not JSON"
        case .malformedJSON: "malformed JSON"
        case .missingClass: "no class"
        case .unknownClass: "unknown class"
        case .wrongType: "wrong JSON type"
        case .invalidValue: "invalid value"
        case .nonFiniteNumber: "non-finite number"
        case .latitudeOutOfRange: "latitude out of range"
        case .longitudeOutOfRange: "longitude out of range"
        case .negativeErrorEstimate: "negative error estimate"
        }
    }
}

/// Counts of skipped lines, one per reason; a fixed array, so counting never allocates.
public struct SkipCounts: Equatable, Sendable, CustomStringConvertible {
    private var counts = [Int](repeating: 0, count: SkipReason.allCases.count)

    public init() {}

    public subscript(reason: SkipReason) -> Int {
        get { counts[reason.rawValue] }
        set { counts[reason.rawValue] = newValue }
    }

    public var total: Int { counts.reduce(0, +) }

    /// `malformed JSON 2, oversize line 1`, or `none`.
    public var description: String {
        let parts = SkipReason.allCases.filter { self[$0] > 0 }.map { "\($0) \(self[$0])" }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
