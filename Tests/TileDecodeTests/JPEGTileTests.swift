import Raster
import TestSupport
import TileDecode
import XCTest

/// JPEG tiles made by cjpeg decode to exactly the pixels djpeg makes of the same file (both are
/// libjpeg-turbo), and damaged ones are refused, never shown.
final class JPEGTileTests: XCTestCase {
    override func setUpWithError() throws { try TileFixtures.requireTools() }

    /// Decodes a cjpeg-made tile and compares it with djpeg's decode, pixel for pixel.
    private func assertMatchesDjpeg(_ size: TileSize, channels: Int = 3, options: [String],
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let n = size.pixels
        var pixels = TileFixtures.pattern(width: n, height: n)
        if channels == 1 { pixels = stride(from: 0, to: pixels.count, by: 3).map { pixels[$0] / 2 + pixels[$0 + 1] / 2 } }
        let jpeg = try TileFixtures.cjpeg(pixels, width: n, height: n, channels: channels, options: options)
        let reference = try TileFixtures.djpegRGB(jpeg.path)
        XCTAssertEqual(reference.width, n, file: file, line: line)
        let slot = TileFixtures.slot(size)
        let format = try TileDecoder(tileSize: size, background: .white).decode(jpeg.bytes, into: slot)
        XCTAssertEqual(format, .jpeg, file: file, line: line)
        let decoded = TileFixtures.rgb(slot)
        XCTAssertTrue(decoded == reference.rgb, "\(options): first difference at \(TileFixtures.firstDifference(decoded, reference.rgb))",
                      file: file, line: line)
        XCTAssertEqual(TileFixtures.xBytesNotFF(slot), 0, "X bytes must be 0xFF like every XRGB8888 frame", file: file, line: line)
        // Lossy, but the picture: a decoder writing the channels in the wrong order or the rows
        // shifted would still be far off the source.
        if channels == 3 {
            let meanError = zip(decoded, pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +) / pixels.count
            XCTAssertLessThan(meanError, 8, "\(options): the decode is not the picture", file: file, line: line)
        }
    }

    func testBaseline420TileIsDjpegsDecode() throws {
        try assertMatchesDjpeg(.px256, options: [])
    }

    func testUnsubsampledAnd422TilesAreDjpegsDecode() throws {
        try assertMatchesDjpeg(.px256, options: ["-sample", "1x1", "-quality", "95"])
        try assertMatchesDjpeg(.px256, options: ["-sample", "2x1", "-optimize"])
    }

    func testProgressive512TileIsDjpegsDecode() throws {
        try assertMatchesDjpeg(.px512, options: ["-progressive"])
    }

    func testRestartMarkers512TileIsDjpegsDecode() throws {
        try assertMatchesDjpeg(.px512, options: ["-restart", "1", "-quality", "60"])
    }

    func testGreyscaleTileIsDjpegsDecodeInThreeEqualChannels() throws {
        try assertMatchesDjpeg(.px256, channels: 1, options: [])
    }

    func testTruncatedJPEGIsCorrupt() throws {
        let n = 256
        for options in [[], ["-progressive"]] {
            let jpeg = try TileFixtures.cjpeg(TileFixtures.pattern(width: n, height: n), width: n, height: n, options: options).bytes
            let decoder = TileDecoder(tileSize: .px256, background: .white)
            // In the headers, in the middle of the pixels, just before the end-of-image marker.
            for keep in [20, 200, jpeg.count / 2, jpeg.count * 9 / 10, jpeg.count - 2] {
                let slot = TileFixtures.slot(.px256)
                XCTAssertThrowsError(try decoder.decode(Array(jpeg.prefix(keep)), into: slot), "\(options) cut to \(keep) of \(jpeg.count) bytes") { error in
                    guard case .corrupt(.jpeg, let message)? = error as? TileDecodeError else {
                        return XCTFail("cut to \(keep): \(error) is not a corrupt JPEG")
                    }
                    XCTAssertFalse(message.isEmpty)
                    XCTAssertTrue("\(error)".hasPrefix("corrupt JPEG tile: "), "\(error)")
                    XCTAssertFalse("\(error)".contains("\n"))
                }
            }
        }
    }

    func testASoundTileAfterOneCutInItsHeadersDecodes() throws {
        // libjpeg failing inside the headers leaves TurboJPEG's decompressor mid-header; reused
        // as it is, it reads the next sound tile as "tables only".
        let n = 256
        let (jpeg, _) = try TileFixtures.cjpeg(TileFixtures.pattern(width: n, height: n), width: n, height: n)
        let decoder = TileDecoder(tileSize: .px256, background: .white)
        let reference = TileFixtures.slot(.px256)
        try decoder.decode(jpeg, into: reference)
        for keep in [200, 400] {
            XCTAssertThrowsError(try decoder.decode(Array(jpeg.prefix(keep)), into: TileFixtures.slot(.px256)), "cut to \(keep)")
            let slot = TileFixtures.slot(.px256)
            XCTAssertNoThrow(try decoder.decode(jpeg, into: slot), "the sound tile after one cut to \(keep) bytes")
            XCTAssertTrue(slot.bytes.elementsEqual(reference.bytes), "after a cut to \(keep) bytes")
        }
    }

    func testGarbageInTheMiddleIsCorruptNotDecodedSilently() throws {
        let n = 256
        let (jpeg, _) = try TileFixtures.cjpeg(TileFixtures.pattern(width: n, height: n), width: n, height: n)
        var random = SplitMix(seed: 7)
        let garbage = (0..<64).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let middle = jpeg.count / 2
        // Overwritten in place (same length), and inserted (the file grows).
        var overwritten = jpeg
        overwritten.replaceSubrange(middle..<middle + garbage.count, with: garbage)
        let inserted = Array(jpeg[..<middle]) + garbage + Array(jpeg[middle...])
        // Without a single 0xFF, so no byte of the garbage reads as a marker: only the entropy
        // decoder can notice.
        let markerless = Array(jpeg[..<middle]) + garbage.map { $0 == 0xFF ? 0x5F : $0 } + Array(jpeg[(middle + garbage.count)...])
        let decoder = TileDecoder(tileSize: .px256, background: .white)
        for (label, bytes) in [("overwritten", overwritten), ("inserted", inserted), ("without markers", markerless)] {
            let slot = TileFixtures.slot(.px256)
            XCTAssertThrowsError(try decoder.decode(bytes, into: slot), label) { error in
                guard case .corrupt(.jpeg, let message)? = error as? TileDecodeError else {
                    return XCTFail("\(label): \(error) is not a corrupt JPEG")
                }
                XCTAssertTrue(message.contains("Corrupt JPEG data") || message.contains("Huffman") || message.contains("Premature"), "\(label): \(message)")
            }
        }
        // The same decoder still decodes a sound tile afterwards.
        let slot = TileFixtures.slot(.px256)
        XCTAssertEqual(try decoder.decode(jpeg, into: slot), .jpeg)
    }

    func testJPEGOfAnotherSizeIsRefusedBeforeAPixelIsWritten() throws {
        let jpeg = try TileFixtures.cjpeg(TileFixtures.pattern(width: 300, height: 256), width: 300, height: 256).bytes
        let slot = TileFixtures.slot(.px256, fill: 0x11)
        XCTAssertThrowsError(try TileDecoder(tileSize: .px256, background: .white).decode(jpeg, into: slot)) { error in
            XCTAssertEqual(error as? TileDecodeError, .wrongSize(width: 300, height: 256, expected: .px256))
            XCTAssertEqual("\(error)", "tile is 300x256, expected 256x256")
        }
        XCTAssertTrue(slot.bytes.allSatisfy { $0 == 0x11 })
        // A 256 px tile in a 512 px set is as wrong.
        let small = try TileFixtures.cjpeg(TileFixtures.pattern(width: 256, height: 256), width: 256, height: 256).bytes
        XCTAssertThrowsError(try TileDecoder(tileSize: .px512, background: .white).decode(small, into: TileFixtures.slot(.px512))) { error in
            XCTAssertEqual("\(error)", "tile is 256x256, expected 512x512")
        }
    }
}
