/// The protobuf wire format, read in place: tags, varints, fixed 32- and 64-bit values and
/// length-delimited fields over one buffer, a nested message being a window onto the same bytes
/// (nothing copied but strings). Every offset is the whole message's, so an error names the byte.
struct WireReader {
    /// Deeper than any GTFS-realtime message goes (FeedMessage to StopTimeEvent is five).
    static let maximumDepth = 16
    /// Unknown groups are skipped as the spec says, but only this deep.
    static let maximumGroupDepth = 32

    let base: UnsafeRawBufferPointer
    private(set) var offset: Int
    let end: Int
    let depth: Int
    let limits: RealtimeLimits
    /// The field number of the last tag read, for errors in its value.
    private(set) var field: UInt32 = 0
    private(set) var wireType: UInt8 = 0

    init(_ base: UnsafeRawBufferPointer, limits: RealtimeLimits) {
        self.init(base, from: 0, to: base.count, depth: 0, limits: limits)
    }

    private init(_ base: UnsafeRawBufferPointer, from offset: Int, to end: Int, depth: Int, limits: RealtimeLimits) {
        self.base = base
        self.offset = offset
        self.end = end
        self.depth = depth
        self.limits = limits
    }

    private func fail(_ kind: RealtimeError.Kind, at offset: Int) -> RealtimeError {
        RealtimeError(kind, offset: offset, field: field == 0 ? "" : "#" + String(field))
    }

    /// The next field's number and wire type, or nil at the end of this message.
    mutating func next() throws(RealtimeError) -> UInt32? {
        guard offset < end else { return nil }
        field = 0
        let start = offset
        let tag = try varint()
        let number = tag >> 3
        guard number > 0, number <= 0x1FFF_FFFF else { throw fail(.badFieldNumber(number), at: start) }
        field = UInt32(number)
        wireType = UInt8(tag & 7)
        return field
    }

    mutating func varint() throws(RealtimeError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end else { throw fail(.truncated, at: offset) }
            let byte = base[offset]
            offset += 1
            // The tenth byte holds bit 63 only; anything more is not a 64-bit varint.
            if shift == 63 && byte > 1 { throw fail(.malformedVarint, at: start) }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func fixed32() throws(RealtimeError) -> UInt32 {
        guard end - offset >= 4 else { throw fail(.truncated, at: offset) }
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(base[offset + i]) << UInt32(8 * i) }
        offset += 4
        return value
    }

    mutating func fixed64() throws(RealtimeError) -> UInt64 {
        guard end - offset >= 8 else { throw fail(.truncated, at: offset) }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(base[offset + i]) << UInt64(8 * i) }
        offset += 8
        return value
    }

    /// A length-delimited field's bytes, as offsets into `base`.
    mutating func lengthDelimited() throws(RealtimeError) -> Range<Int> {
        let start = offset
        let length = try varint()
        guard length <= UInt64(end - offset) else {
            throw fail(.lengthPastEnd(length: length, available: end - offset), at: start)
        }
        let range = offset..<(offset + Int(length))
        offset = range.upperBound
        return range
    }

    /// Strings are taken as UTF-8; bytes that are not become U+FFFD rather than failing the feed.
    mutating func string() throws(RealtimeError) -> String {
        let range = try lengthDelimited()
        return String(decoding: UnsafeRawBufferPointer(rebasing: base[range]), as: UTF8.self)
    }

    /// A window onto the length-delimited field just tagged, one level deeper. A bad length is
    /// said as the field `name`: the message around it cannot be read past that point.
    mutating func nested(_ name: String) throws(RealtimeError) -> WireReader {
        let start = offset
        let range: Range<Int>
        do throws(RealtimeError) {
            range = try lengthDelimited()
        } catch {
            throw RealtimeError(error.kind, offset: error.offset, field: name)
        }
        guard depth < Self.maximumDepth else { throw RealtimeError(.nestedTooDeep, offset: start, field: name) }
        return WireReader(base, from: range.lowerBound, to: range.upperBound, depth: depth + 1, limits: limits)
    }

    /// A nested message merged into `value` (a message field seen twice merges, as in protobuf).
    /// Errors inside it come out named by `name`.
    mutating func message<T>(_ name: String, _ value: inout T, _ decode: (inout WireReader, inout T) throws(RealtimeError) -> Void) throws(RealtimeError) {
        guard wireType == 2 else { return try skip() }
        var inner = try nested(name)
        do throws(RealtimeError) {
            try decode(&inner, &value)
        } catch {
            throw error.inside(name)
        }
    }

    /// An optional nested message: present once seen, merged when seen again.
    mutating func message<T>(_ name: String, _ value: inout T?, _ empty: T, _ decode: (inout WireReader, inout T) throws(RealtimeError) -> Void) throws(RealtimeError) {
        guard wireType == 2 else { return try skip() }
        var current = value ?? empty
        try message(name, &current, decode)
        value = current
    }

    /// One more element of a repeated message field, within the per-list limit.
    mutating func append<T>(_ name: String, _ list: inout [T], _ empty: T, _ decode: (inout WireReader, inout T) throws(RealtimeError) -> Void) throws(RealtimeError) {
        guard wireType == 2 else { return try skip() }
        guard list.count < limits.itemsPerList else {
            throw RealtimeError(.tooMany(name, limit: limits.itemsPerList), offset: offset, field: name)
        }
        var element = empty
        try message(name, &element, decode)
        list.append(element)
    }

    /// Skips the field just tagged: unknown fields and extensions, groups included.
    mutating func skip() throws(RealtimeError) {
        switch wireType {
        case 0: _ = try varint()
        case 1: _ = try fixed64()
        case 2: _ = try lengthDelimited()
        case 5: _ = try fixed32()
        case 3: try skipGroup()
        default: throw fail(.badWireType(wireType), at: offset)
        }
    }

    /// A group ends at the end-group tag of the same number; groups inside it nest.
    private mutating func skipGroup() throws(RealtimeError) {
        var open: [UInt32] = [field]
        while let number = try next() {
            switch wireType {
            case 3:
                guard open.count < Self.maximumGroupDepth else { throw fail(.groupsTooDeep, at: offset) }
                open.append(number)
            case 4:
                guard number == open.last else { throw fail(.badWireType(4), at: offset) }
                open.removeLast()
                if open.isEmpty { return }
            default:
                try skip()
            }
        }
        throw fail(.truncated, at: offset)
    }
}
