/// The scalar fields GTFS-realtime uses, each read into its place when the field just tagged has
/// the wire type the schema gives, and skipped otherwise: protobuf parsers treat a mismatched
/// wire type as an unknown field. Narrow types keep the low bits, as protobuf's own casts do.
extension WireReader {
    mutating func read(_ value: inout String?) throws(RealtimeError) {
        guard wireType == 2 else { return try skip() }
        value = try string()
    }

    mutating func read(_ value: inout String) throws(RealtimeError) {
        guard wireType == 2 else { return try skip() }
        value = try string()
    }

    mutating func read(_ value: inout Bool?) throws(RealtimeError) {
        guard wireType == 0 else { return try skip() }
        value = try varint() != 0
    }

    /// uint64 (timestamps).
    mutating func read(_ value: inout UInt64?) throws(RealtimeError) {
        guard wireType == 0 else { return try skip() }
        value = try varint()
    }

    /// int64 (absolute times), two's complement in ten bytes when negative.
    mutating func read(_ value: inout Int64?) throws(RealtimeError) {
        guard wireType == 0 else { return try skip() }
        value = Int64(bitPattern: try varint())
    }

    /// uint32 (stop sequences, direction).
    mutating func read(_ value: inout UInt32?) throws(RealtimeError) {
        guard wireType == 0 else { return try skip() }
        value = UInt32(truncatingIfNeeded: try varint())
    }

    /// int32 (delays, route type), sign-extended to ten bytes on the wire when negative.
    mutating func read(_ value: inout Int32?) throws(RealtimeError) {
        guard wireType == 0 else { return try skip() }
        value = Int32(truncatingIfNeeded: try varint())
    }

    /// float (coordinates, bearing, speed): fixed32, IEEE 754.
    mutating func read(_ value: inout Float?) throws(RealtimeError) {
        guard wireType == 5 else { return try skip() }
        value = Float(bitPattern: try fixed32())
    }

    /// double (odometer): fixed64, IEEE 754.
    mutating func read(_ value: inout Double?) throws(RealtimeError) {
        guard wireType == 1 else { return try skip() }
        value = Double(bitPattern: try fixed64())
    }

    /// Enumerations are int32 varints.
    mutating func read<E: RawRepresentable>(_ value: inout E?) throws(RealtimeError) where E.RawValue == Int32 {
        guard wireType == 0 else { return try skip() }
        value = E(rawValue: Int32(truncatingIfNeeded: try varint()))
    }
}
