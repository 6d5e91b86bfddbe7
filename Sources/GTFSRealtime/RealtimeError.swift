/// Why a GTFS-realtime message, or one of its entities, was not read: what went wrong, at which
/// byte of the whole message, inside which field. Said in one line, for a log or a status line.
public struct RealtimeError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The bytes end inside a tag, a value or a length.
        case truncated
        /// A length that runs past the end of the message holding it.
        case lengthPastEnd(length: UInt64, available: Int)
        /// A varint longer than ten bytes, whose value no 64-bit field can hold.
        case malformedVarint
        /// Field number 0, or one over 2^29 - 1.
        case badFieldNumber(UInt64)
        /// Wire types 6 and 7 do not exist; 4 (end group) without its start.
        case badWireType(UInt8)
        /// Groups (deprecated; GTFS-realtime has none) nested past the reader's limit.
        case groupsTooDeep
        /// Messages nested past the reader's limit.
        case nestedTooDeep
        /// More items than `RealtimeLimits` allows (entities, or one entity's list).
        case tooMany(String, limit: Int)
        /// A feed without its required header.
        case missingHeader
        /// A DIFFERENTIAL feed: the spec leaves its meaning open, so it is not guessed at.
        case differential
    }

    public let kind: Kind
    /// The offset in the whole message where the problem was found.
    public let offset: Int
    /// The field's path from the feed down, e.g. `entity.trip_update.stop_time_update.arrival`.
    public let field: String

    public init(_ kind: Kind, offset: Int, field: String) {
        self.kind = kind
        self.offset = offset
        self.field = field
    }

    /// The same error, seen from the message that holds `outer`.
    func inside(_ outer: String) -> RealtimeError {
        RealtimeError(kind, offset: offset, field: field.isEmpty ? outer : outer + "." + field)
    }

    public var description: String {
        let place = "byte \(offset)" + (field.isEmpty ? "" : ", field \(field)")
        switch kind {
        case .truncated: return "GTFS-realtime: truncated at \(place)"
        case .lengthPastEnd(let length, let available):
            return "GTFS-realtime: length \(length) at \(place) runs past the end (\(available) bytes left)"
        case .malformedVarint: return "GTFS-realtime: malformed varint at \(place)"
        case .badFieldNumber(let n): return "GTFS-realtime: invalid field number \(n) at \(place)"
        case .badWireType(let t): return "GTFS-realtime: invalid wire type \(t) at \(place)"
        case .groupsTooDeep: return "GTFS-realtime: groups nested too deep at \(place)"
        case .nestedTooDeep: return "GTFS-realtime: messages nested too deep at \(place)"
        case .tooMany(let what, let limit): return "GTFS-realtime: more than \(limit) \(what) at \(place)"
        case .missingHeader: return "GTFS-realtime: the feed has no header (\(place))"
        case .differential:
            return "GTFS-realtime: DIFFERENTIAL feeds are not supported, only FULL_DATASET (\(place))"
        }
    }
}
