import Raster

/// The benchmark's map: a street-map-like texture made in code (no files), so that every pixel
/// under the dot differs from its neighbours and a blend that reads the wrong background pixel
/// changes the frame's hash. Blocks of land, park, water and buildings between white streets, with
/// a little per-pixel grain. Integer arithmetic only: the same bytes on every machine.
public enum BenchBackground {
    public static func make(width: Int, height: Int) -> OwnedPixelBuffer {
        let frame = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
        let fills: [UInt32] = [0xE5E3DF, 0xE5E3DF, 0xD4E8C8, 0xAAD3DF, 0xD9D0C9, 0xECE8E2]
        let block = (x: 97, y: 83), street = 7
        for y in 0..<height {
            let row = frame.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            let by = y / block.y, iy = y % block.y
            for x in 0..<width {
                let bx = x / block.x, ix = x % block.x
                var c: UInt32
                if ix < street || iy < street {
                    // Streets, with a one-pixel casing on each side.
                    let edge = ix == 0 || ix == street - 1 || iy == 0 || iy == street - 1
                    c = edge ? 0xCFCAC2 : 0xFFFFFF
                } else {
                    c = fills[Int(mix(UInt32(truncatingIfNeeded: bx), UInt32(truncatingIfNeeded: by)) % UInt32(fills.count))]
                }
                let grain = mix(UInt32(truncatingIfNeeded: x), UInt32(truncatingIfNeeded: y)) & 7
                row[x] = 0xFF00_0000 | darken(c, by: grain)
            }
        }
        return frame
    }

    /// A small integer hash of two coordinates.
    private static func mix(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var h = a &* 0x9E37_79B1 ^ b &* 0x85EB_CA77
        h ^= h >> 15
        h = h &* 0x2C1B_3C6D
        h ^= h >> 13
        return h
    }

    private static func darken(_ c: UInt32, by d: UInt32) -> UInt32 {
        let r = (c >> 16) & 0xFF, g = (c >> 8) & 0xFF, b = c & 0xFF
        return (r - min(r, d)) << 16 | (g - min(g, d)) << 8 | (b - min(b, d))
    }
}
