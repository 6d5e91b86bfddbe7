import Tiles

/// Why one tile's bytes could not become pixels, as one line. Which tile it was (file, z/x/y) is
/// the reader's to add: the decoder sees only bytes.
public enum TileDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No bytes at all (an empty blob in an MBTiles row, a zero-length file).
    case empty
    /// Neither a PNG nor a JPEG signature. The first bytes tell an HTML error page saved as a
    /// tile, or a WebP, from noise.
    case unknownFormat(firstBytes: [UInt8], count: Int)
    /// Truncated or corrupt data, or a variant the library cannot decode, with its message.
    case corrupt(TileFormat, message: String)
    /// A whole, readable tile of another size than the tile set's.
    case wrongSize(width: Int, height: Int, expected: TileSize)

    public var description: String {
        switch self {
        case .empty:
            return "tile is empty (0 bytes)"
        case .unknownFormat(let first, let count):
            let hex = first.map { byte in (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
            return "tile of \(count) bytes is neither PNG nor JPEG (it starts with \(hex.joined(separator: " ")))"
        case .corrupt(let format, let message):
            return "corrupt \(format.name) tile: \(message)"
        case .wrongSize(let width, let height, let expected):
            return "tile is \(width)x\(height), expected \(expected.pixels)x\(expected.pixels)"
        }
    }
}
