/// RGB565 narrowing and widening exactly as look.md states: r5 = (r·31 + 127) / 255,
/// g6 = (g·63 + 127) / 255, b5 likewise; widening replicates the high bits. The narrowing runs per
/// pixel during copy-out, so it is three 256-entry table lookups, never a division.
public enum RGB565 {
    /// The formula itself (the tables are built from it; tests compare both for all 256 values).
    public static func narrow5(_ v: UInt8) -> UInt8 { UInt8((Int(v) * 31 + 127) / 255) }
    public static func narrow6(_ v: UInt8) -> UInt8 { UInt8((Int(v) * 63 + 127) / 255) }
    public static func widen5(_ v: UInt8) -> UInt8 { (v << 3) | (v >> 2) }
    public static func widen6(_ v: UInt8) -> UInt8 { (v << 2) | (v >> 4) }

    /// Tables already shifted into place: red[r] | green[g] | blue[b] is the 565 pixel.
    public struct Tables: @unchecked Sendable {
        public let red: UnsafePointer<UInt16>
        public let green: UnsafePointer<UInt16>
        public let blue: UnsafePointer<UInt16>
    }

    /// Built once per process and never freed (they live as long as the program).
    public static let tables: Tables = {
        let t = UnsafeMutablePointer<UInt16>.allocate(capacity: 3 * 256)
        for v in 0..<256 {
            t[v] = UInt16(narrow5(UInt8(v))) << 11
            t[256 + v] = UInt16(narrow6(UInt8(v))) << 5
            t[512 + v] = UInt16(narrow5(UInt8(v)))
        }
        return Tables(red: UnsafePointer(t), green: UnsafePointer(t + 256), blue: UnsafePointer(t + 512))
    }()

    /// One XRGB8888 pixel narrowed to RGB565.
    @inline(__always)
    public static func narrow(_ p: UInt32, _ t: Tables) -> UInt16 {
        t.red[Int((p >> 16) & 0xFF)] | t.green[Int((p >> 8) & 0xFF)] | t.blue[Int(p & 0xFF)]
    }

    public static func narrow(_ p: UInt32) -> UInt16 { narrow(p, tables) }

    /// One RGB565 pixel widened back to opaque XRGB8888.
    public static func widen(_ p: UInt16) -> UInt32 {
        let r = widen5(UInt8(p >> 11)), g = widen6(UInt8((p >> 5) & 0x3F)), b = widen5(UInt8(p & 0x1F))
        return 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }
}
