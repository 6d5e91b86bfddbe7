import PNG
import Raster
import Tiles

/// Decodes map tiles, one tile's bytes at a time, into XRGB8888 slots the caller owns (a tile
/// cache's). Once made it allocates nothing of its own per tile: one TurboJPEG decompressor serves
/// every JPEG, and libpng writes into the slot directly. What the C libraries allocate inside
/// (libjpeg's per-image pools, libpng's per-image state, which its longjmp-free API cannot keep
/// across images) they free before returning.
///
/// Not for two threads at once: the decompressor is one state. A thread of its own gets its own.
public final class TileDecoder {
    public let tileSize: TileSize
    /// What transparent parts of a PNG tile are composited onto, so every slot is opaque.
    public let background: Color
    private var jpeg = JPEGDecompressor()

    public init(tileSize: TileSize, background: Color) {
        self.tileSize = tileSize
        self.background = background
    }

    /// Decodes `bytes` into `slot` (XRGB8888, `tileSize` square), as PNG or JPEG by their
    /// signature. The tile's size is checked before a pixel is written; after any other error the
    /// slot holds part of the tile and is not to be shown.
    @discardableResult
    public func decode(_ bytes: UnsafeRawBufferPointer, into slot: PixelBuffer) throws(TileDecodeError) -> TileFormat {
        precondition(slot.format == .xrgb8888 && slot.width == tileSize.pixels && slot.height == tileSize.pixels,
                     "a \(tileSize.pixels) px tile decodes into a \(tileSize.pixels)x\(tileSize.pixels) xrgb8888 slot, not \(slot.width)x\(slot.height) \(slot.format)")
        guard !bytes.isEmpty else { throw .empty }
        guard let format = TileFormat(signatureOf: bytes) else {
            throw .unknownFormat(firstBytes: Array(bytes.prefix(8)), count: bytes.count)
        }
        switch format {
        case .png: try decodePNG(bytes, into: slot)
        case .jpeg: try decodeJPEG(bytes, into: slot)
        case .webp:
            // A raster tile format, but not one PulseDot decodes.
            throw .unknownFormat(firstBytes: Array(bytes.prefix(8)), count: bytes.count)
        }
        return format
    }

    @discardableResult
    public func decode(_ bytes: [UInt8], into slot: PixelBuffer) throws(TileDecodeError) -> TileFormat {
        // withUnsafeBytes rethrows untyped: the error comes out as a value.
        try bytes.withUnsafeBytes { raw in
            Result { () throws(TileDecodeError) in try decode(raw, into: slot) }
        }.get()
    }

    private func decodeJPEG(_ bytes: UnsafeRawBufferPointer, into slot: PixelBuffer) throws(TileDecodeError) {
        let size = try jpeg.size(of: bytes)
        try checkSize(size.width, size.height)
        try jpeg.decode(bytes, into: slot)
    }

    private func decodePNG(_ bytes: UnsafeRawBufferPointer, into slot: PixelBuffer) throws(TileDecodeError) {
        let n = tileSize.pixels
        let size: (width: Int, height: Int)
        do {
            size = try PNGRead.opaqueFrame(bytes: bytes, name: "tile", background: background) { width, height in
                width == n && height == n ? slot : nil
            }
        } catch {
            throw .corrupt(.png, message: error.problem)
        }
        try checkSize(size.width, size.height)
    }

    private func checkSize(_ width: Int, _ height: Int) throws(TileDecodeError) {
        guard width == tileSize.pixels, height == tileSize.pixels else {
            throw .wrongSize(width: width, height: height, expected: tileSize)
        }
    }
}
