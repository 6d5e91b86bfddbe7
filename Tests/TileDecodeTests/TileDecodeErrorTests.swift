import PNG
import Raster
import TestSupport
import TileDecode
import Tiles
import XCTest

/// What is not a tile at all: told by its first bytes, reported in one line, never a crash.
final class TileDecodeErrorTests: XCTestCase {
    let decoder = TileDecoder(tileSize: .px256, background: .white)

    func testEmptyBufferIsEmpty() {
        XCTAssertThrowsError(try decoder.decode([], into: TileFixtures.slot(.px256))) { error in
            XCTAssertEqual(error as? TileDecodeError, .empty)
            XCTAssertEqual("\(error)", "tile is empty (0 bytes)")
        }
    }

    func testRandomBytesAreAnUnknownFormat() {
        var random = SplitMix(seed: 42)
        for length in [1, 2, 3, 7, 8, 100, 65536] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            XCTAssertThrowsError(try decoder.decode(bytes, into: TileFixtures.slot(.px256)), "\(length) bytes") { error in
                XCTAssertEqual(error as? TileDecodeError, .unknownFormat(firstBytes: Array(bytes.prefix(8)), count: length))
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
    }

    func testAnHTMLErrorPageSavedAsATileIsNamedByItsFirstBytes() {
        let page = Array("<html><body>404 Not Found</body></html>".utf8)
        XCTAssertThrowsError(try decoder.decode(page, into: TileFixtures.slot(.px256))) { error in
            XCTAssertEqual("\(error)", "tile of 39 bytes is neither PNG nor JPEG (it starts with 3C 68 74 6D 6C 3E 3C 62)")
        }
    }

    func testSignaturesDecideNotNames() throws {
        // A PNG signature with nothing behind it is a corrupt PNG, and a JPEG start-of-image with
        // random bytes behind it a corrupt JPEG: the signature chose the decoder.
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        XCTAssertThrowsError(try decoder.decode(pngSignature, into: TileFixtures.slot(.px256))) { error in
            guard case .corrupt(.png, _)? = error as? TileDecodeError else { return XCTFail("\(error)") }
        }
        var random = SplitMix(seed: 3)
        let jpegStart: [UInt8] = [0xFF, 0xD8, 0xFF] + (0..<500).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        XCTAssertThrowsError(try decoder.decode(jpegStart, into: TileFixtures.slot(.px256))) { error in
            guard case .corrupt(.jpeg, _)? = error as? TileDecodeError else { return XCTFail("\(error)") }
        }
        // Seven of the PNG signature's eight bytes, or FF D8 alone, are neither.
        for bytes: [UInt8] in [Array(pngSignature.prefix(7)) + [0], [0xFF, 0xD8, 0x00, 0x00]] {
            XCTAssertThrowsError(try decoder.decode(bytes, into: TileFixtures.slot(.px256))) { error in
                guard case .unknownFormat? = error as? TileDecodeError else { return XCTFail("\(error)") }
            }
        }
    }

    func testAWebPTileIsRecognisedButNotDecoded() {
        // WebP is a raster format MBTiles files may hold; this decoder does not read it.
        let webp: [UInt8] = Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        XCTAssertEqual(webp.withUnsafeBytes { TileFormat(signatureOf: $0) }, .webp)
        XCTAssertThrowsError(try decoder.decode(webp, into: TileFixtures.slot(.px256))) { error in
            XCTAssertEqual(error as? TileDecodeError, .unknownFormat(firstBytes: Array(webp.prefix(8)), count: webp.count))
        }
    }
}
