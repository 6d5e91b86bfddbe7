import Foundation
import Glibc
import PNG
import Raster
import TileDecode
import XCTest

/// One decoder, a thousand tiles: every one decodes as it did the first time, failures in between
/// leave the decoder sound, and the heap does not grow with the count.
final class TileDecoderReuseTests: XCTestCase {
    func testOneDecoderForAThousandTiles() throws {
        try TileFixtures.requireTools()
        let n = 256
        let rgb = TileFixtures.pattern(width: n, height: n)
        let jpeg = try TileFixtures.cjpeg(rgb, width: n, height: n).bytes
        let progressive = try TileFixtures.cjpeg(rgb, width: n, height: n, options: ["-progressive"]).bytes
        var rgba: [UInt8] = []
        for i in 0..<n * n { rgba += [rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2], UInt8(i & 255)] }
        let png = try PNGWrite.rgba(RGBAImage(width: n, height: n, rgba: rgba))
        let palette = try TileFixtures.pythonPNG("palette", size: n)
        // Cut in the pixels, and in the headers (which leaves libjpeg mid-header): each followed
        // by a sound tile.
        let cut = Array(jpeg.prefix(jpeg.count / 2))
        let headerCut = Array(jpeg.prefix(200))
        let tiles = [jpeg, png, cut, progressive, palette, headerCut]

        let decoder = TileDecoder(tileSize: .px256, background: Color(r: 1, g: 2, b: 3))
        // What each tile decodes to on its own, from a decoder that has decoded nothing before.
        let references: [OwnedPixelBuffer?] = tiles.map { tile in
            let slot = TileFixtures.slot(.px256)
            return (try? TileDecoder(tileSize: .px256, background: Color(r: 1, g: 2, b: 3)).decode(tile, into: slot)) == nil ? nil : slot
        }
        XCTAssertEqual(references.map { $0 == nil }, [false, false, true, false, false, true])
        let slot = TileFixtures.slot(.px256)
        let bytes = n * n * 4

        func decodeAll(_ count: Int) -> (wrong: Int, failures: Int) {
            var wrong = 0, failures = 0
            for i in 0..<count {
                let k = i % tiles.count
                do {
                    try decoder.decode(tiles[k], into: slot)
                    if let reference = references[k], memcmp(slot.buffer.base, reference.buffer.base, bytes) != 0 { wrong += 1 }
                    if references[k] == nil { wrong += 1 }
                } catch {
                    failures += 1
                    if references[k] != nil { wrong += 1 }
                }
            }
            return (wrong, failures)
        }
        _ = decodeAll(tiles.count * 2) // warm up: the allocator's arenas, libjpeg's SIMD detection
        let before = heapInUse()
        let run = decodeAll(1000)
        let growth = heapInUse() - before
        XCTAssertEqual(run.wrong, 0, "tiles decoded differently on reuse, or failed")
        XCTAssertEqual(run.failures, 333, "every truncated tile, and only those, fails")
        // A decompressor leaked per tile is some 20 KB, libpng's state about 1 KB: megabytes here.
        XCTAssertLessThan(growth, 1 << 20, "the heap grew by \(growth) bytes over 1,000 tiles")
    }

    func testRefusedTilesLeaveNothingBehind() throws {
        try TileFixtures.requireTools()
        // Refused after the header (another size), or inside it: libpng's and libjpeg's state for
        // each must be freed though no pixels were decoded.
        let widePNG = try PNGWrite.frame(OwnedPixelBuffer(width: 300, height: 256, format: .xrgb8888))
        let wideJPEG = try TileFixtures.cjpeg(TileFixtures.pattern(width: 300, height: 256), width: 300, height: 256).bytes
        let headerCut = Array(wideJPEG.prefix(200))
        let tiles = [widePNG, wideJPEG, headerCut]
        let decoder = TileDecoder(tileSize: .px256, background: .white)
        let slot = TileFixtures.slot(.px256)
        func decodeAll(_ count: Int) -> Int {
            var failures = 0
            for i in 0..<count {
                do { try decoder.decode(tiles[i % tiles.count], into: slot) } catch { failures += 1 }
            }
            return failures
        }
        _ = decodeAll(tiles.count * 2)
        let before = heapInUse()
        XCTAssertEqual(decodeAll(6000), 6000)
        let growth = heapInUse() - before
        XCTAssertLessThan(growth, 1 << 20, "the heap grew by \(growth) bytes over 6,000 refused tiles")
    }

    /// Bytes of the process's data segment and private mappings (/proc/self/statm's "data"): where
    /// the C heap grows, brk and mmap alike. mallinfo2 would be finer but Swift's Glibc module
    /// does not import malloc.h.
    private func heapInUse() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        return (fields.count > 5 ? Int(fields[5]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
