/// What a tile's bytes are, told by their first bytes: MBTiles metadata and tile URLs name a
/// format that is often missing or wrong, and one tile set can mix PNG and JPEG.
public enum TileFormat: String, Equatable, Sendable {
    case png = "PNG"
    case jpeg = "JPEG"

    /// The format whose signature `bytes` start with, or nil: the 8-byte PNG signature, or JPEG's
    /// start-of-image marker followed by the first byte of the next marker (FF D8 FF).
    public init?(signatureOf bytes: UnsafeRawBufferPointer) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] as [UInt8]) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF] as [UInt8]) {
            self = .jpeg
        } else {
            return nil
        }
    }
}
