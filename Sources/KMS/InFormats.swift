/// Decodes a plane's IN_FORMATS blob (the kernel's struct drm_format_modifier_blob): which
/// modifiers each format can be scanned out with. Done here rather than with libdrm's iterator so
/// the unit tests can feed it bytes, and so a short or inconsistent blob is an error naming what
/// is wrong, never a read past its end.
public enum InFormatsBlob {
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// `names` gives a modifier its name (libdrm's, on a real card).
    public static func decode(_ bytes: [UInt8], names: (UInt64) -> String? = { _ in nil }) throws(Malformed) -> [FormatModifiers] {
        func u32(_ at: Int) throws(Malformed) -> UInt32 {
            guard at >= 0, at + 4 <= bytes.count else { throw Malformed(description: "IN_FORMATS blob of \(bytes.count) bytes ends before offset \(at + 4)") }
            var v: UInt32 = 0
            for i in 0..<4 { v |= UInt32(bytes[at + i]) << (8 * UInt32(i)) }
            return v
        }
        func u64(_ at: Int) throws(Malformed) -> UInt64 {
            UInt64(try u32(at)) | UInt64(try u32(at + 4)) << 32
        }
        let version = try u32(0)
        guard version == 1 else { throw Malformed(description: "IN_FORMATS blob version \(version) (this build reads version 1)") }
        let formatCount = Int(try u32(8)), formatsAt = Int(try u32(12))
        let modifierCount = Int(try u32(16)), modifiersAt = Int(try u32(20))
        var formats: [UInt32] = []
        for i in 0..<formatCount { formats.append(try u32(formatsAt + 4 * i)) }
        var result: [FormatModifiers] = []
        // Each entry is 24 bytes: a 64-bit mask over formats[offset ..< offset + 64], the
        // offset, padding, the modifier.
        for i in 0..<modifierCount {
            let at = modifiersAt + 24 * i
            let mask = try u64(at), offset = Int(try u32(at + 8)), modifier = try u64(at + 16)
            var applies: [UInt32] = []
            for bit in 0..<64 where mask & (1 << UInt64(bit)) != 0 {
                guard offset + bit < formats.count else {
                    throw Malformed(description: "IN_FORMATS modifier 0x\(String(modifier, radix: 16)) names format \(offset + bit) of \(formats.count)")
                }
                applies.append(formats[offset + bit])
            }
            result.append(FormatModifiers(modifier: modifier, name: names(modifier), formats: applies))
        }
        return result
    }
}
