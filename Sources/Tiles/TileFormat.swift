/// The image format of an MBTiles file's raster tiles. Vector tiles (`pbf`) are not a format here:
/// they need a style and a renderer PulseDot does not have, so they are refused when opening.
public enum TileFormat: String, Equatable, Sendable, CaseIterable {
    case png, jpeg, webp

    /// The format whose signature `bytes` start with, or nil: the 8-byte PNG signature, JPEG's
    /// start-of-image marker followed by the first byte of the next marker (FF D8 FF), or WebP's
    /// RIFF container. The bytes decide, not names: metadata and tile URLs are often missing or
    /// wrong, and one tile set can mix PNG and JPEG.
    public init?(signatureOf bytes: UnsafeRawBufferPointer) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && bytes[offset..<offset + prefix.count].elementsEqual(prefix)
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The name messages use: "PNG", "JPEG", "WebP".
    public var name: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .webp: "WebP"
        }
    }

    /// What the `format` metadata value names: a raster format, vector tiles, or something else.
    enum Declared: Equatable {
        case raster(TileFormat)
        case vector
        case unknown
    }

    /// MBTiles 1.3's names (`png`, `jpg`, `webp`, `pbf`), `jpeg` as people also write it, and the
    /// IETF media types the specification allows in their place.
    static func declared(_ value: String) -> Declared {
        switch value.lowercased() {
        case "png", "image/png": return .raster(.png)
        case "jpg", "jpeg", "image/jpeg": return .raster(.jpeg)
        case "webp", "image/webp": return .raster(.webp)
        case "pbf", "mvt", "application/x-protobuf", "application/vnd.mapbox-vector-tile": return .vector
        default: return .unknown
        }
    }

    /// What a tile's first bytes show. Files written to MBTiles 1.0 have no `format` key, and their
    /// tiles say what they are: PNG, JPEG and WebP signatures, and gzip or zlib for the compressed
    /// protocol buffers of vector tiles.
    static func sniffed(_ bytes: [UInt8]) -> Declared {
        if let raster = bytes.withUnsafeBytes({ TileFormat(signatureOf: $0) }) { return .raster(raster) }
        func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        if starts([0x1F, 0x8B]) || starts([0x78, 0x9C]) || starts([0x78, 0x01]) || starts([0x78, 0xDA]) { return .vector }
        return .unknown
    }
}
