import Raster

/// FNV-1a 64 over a frame's visible bytes, 8 at a time (X bytes included: the fast and the
/// reference path must agree on them too).
public enum BenchHash {
    public static let offset: UInt64 = 0xcbf2_9ce4_8422_2325
    public static let prime: UInt64 = 0x0000_0100_0000_01b3

    public static func frame(_ b: PixelBuffer) -> UInt64 {
        var h = offset
        let bytes = b.width * b.format.bytesPerPixel
        for y in 0..<b.height {
            let row = b.row(y)
            var i = 0
            while i + 8 <= bytes {
                h = (h ^ row.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* prime
                i += 8
            }
            while i < bytes {
                h = (h ^ UInt64(row.load(fromByteOffset: i, as: UInt8.self))) &* prime
                i += 1
            }
        }
        return h
    }

    public static func combine(_ hashes: [UInt64]) -> UInt64 {
        var h = offset
        for v in hashes { h = (h ^ v) &* prime }
        return h
    }
}
