import Tiles

/// A tile's width and height from its header alone, without decoding it: how a tile set's tile
/// size is learnt when it is opened (MBTiles does not record it).
public enum TileDimensions {
    public static func of(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        bytes.withUnsafeBytes { raw -> (width: Int, height: Int)? in
            switch TileFormat(signatureOf: raw) {
            case .png:
                // The first chunk of every PNG is IHDR: width and height, big-endian, at bytes 16 and 20.
                guard raw.count >= 24, raw[12] == 0x49, raw[13] == 0x48, raw[14] == 0x44, raw[15] == 0x52 else { return nil }
                func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(raw[at + $1]) } }
                return (word(16), word(20))
            case .jpeg:
                var decompressor = JPEGDecompressor()
                return try? decompressor.size(of: raw)
            case .webp, nil:
                return nil
            }
        }
    }
}
