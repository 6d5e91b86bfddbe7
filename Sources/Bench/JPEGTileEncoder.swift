import CTurboJPEG
import Raster

/// JPEG tiles for the made-up city, through TurboJPEG (quality 85, 4:2:0, as tile servers ship).
final class JPEGTileEncoder {
    private let handle: tjhandle

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init() throws(Failure) {
        guard let h = tjInitCompress() else { throw Failure(description: "TurboJPEG: cannot start a compressor") }
        handle = h
    }

    deinit { tjDestroy(handle) }

    func encode(_ tile: PixelBuffer) throws(Failure) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        // XRGB8888 in memory (little-endian) is B, G, R, X: TurboJPEG's BGRX.
        let status = tjCompress2(handle, tile.base.assumingMemoryBound(to: UInt8.self), Int32(tile.width), Int32(tile.stride),
                                 Int32(tile.height), Int32(TJPF_BGRX.rawValue), &out, &size, Int32(TJSAMP_420.rawValue), 85, 0)
        defer { if let out { tjFree(out) } }
        guard status == 0, let out else {
            throw Failure(description: "TurboJPEG: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }
}
