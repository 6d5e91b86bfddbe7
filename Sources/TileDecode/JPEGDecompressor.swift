import CTurboJPEG
import Raster
import Tiles

/// One TurboJPEG decompressor, made once and used for every JPEG tile: making one allocates
/// libjpeg's whole decompression state.
struct JPEGDecompressor: ~Copyable {
    private var handle: tjhandle

    init() { handle = Self.makeHandle() }

    deinit { tjDestroy(handle) }

    private static func makeHandle() -> tjhandle {
        // tjInitDecompress fails only when malloc does, which Swift treats as fatal everywhere else.
        guard let handle = tjInitDecompress() else {
            fatalError("TurboJPEG cannot make a decompressor: \(String(cString: tjGetErrorStr2(nil)))")
        }
        return handle
    }

    /// The size in the JPEG's frame header, read without decoding.
    mutating func size(of jpeg: UnsafeRawBufferPointer) throws(TileDecodeError) -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                  &width, &height, &subsampling, &colorspace) == 0 else {
            let error = failure()
            // When libjpeg fails inside the header, tjDecompressHeader3 returns without aborting
            // the decompression (in every TurboJPEG so far, and upstream calls it arguably a bug):
            // the next tile's header is then read on from the middle of this one's, and a sound
            // tile comes out as "tables only". A new decompressor starts clean; damaged tiles are
            // rare, so this costs nothing that counts.
            tjDestroy(handle)
            handle = Self.makeHandle()
            throw error
        }
        // Data that ends before its frame header reads as a "tables-only" JPEG, which TurboJPEG
        // reports as success without a size.
        guard width > 0, height > 0 else {
            let warned = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
            throw warned ? failure() : .corrupt(.jpeg, message: "no image in the data, only tables")
        }
        return (Int(width), Int(height))
    }

    /// Decodes the JPEG into `slot`, which is exactly its size. BGRA, not BGRX: the same bytes
    /// (XRGB8888 in memory on little-endian), but TurboJPEG promises 0xFF in the fourth byte only for
    /// BGRA, and 0xFF is what every other XRGB8888 frame here holds there.
    func decode(_ jpeg: UnsafeRawBufferPointer, into slot: PixelBuffer) throws(TileDecodeError) {
        // Any warning is a corrupt tile: libjpeg warns and goes on for damaged data (a truncated
        // file is filled with grey, a bad entropy segment with what it guessed), and a half-grey
        // tile must not be shown or cached as if it were the map. LIMITSCANS refuses a progressive
        // JPEG with hundreds of scans, which would take seconds to decode. ACCURATEDCT is
        // libjpeg-turbo's default for decoding, named so it is not an implementation's choice.
        let flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS | TJFLAG_ACCURATEDCT
        guard tjDecompress2(handle, jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                            slot.base.assumingMemoryBound(to: UInt8.self), Int32(slot.width), Int32(slot.stride),
                            Int32(slot.height), Int32(TJPF_BGRA.rawValue), flags) == 0 else {
            throw failure()
        }
    }

    private func failure() -> TileDecodeError {
        // A warning (TJERR_WARNING) stopped by STOPONWARNING and a fatal error are the same to a
        // tile: data that did not decode cleanly. The message says which.
        .corrupt(.jpeg, message: String(cString: tjGetErrorStr2(handle)))
    }
}
