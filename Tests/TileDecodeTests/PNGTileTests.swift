import PNG
import Raster
import TileDecode
import XCTest

/// PNG tiles in every colour type a tile server writes, decoded from memory into opaque slots:
/// transparency composited onto the background with PulseDot's blend, X bytes 0xFF.
final class PNGTileTests: XCTestCase {
    /// Not grey, not symmetric in its channels: a swapped channel or a missed blend shows.
    let background = Color(r: 30, g: 200, b: 90)

    func testRGBTileIsItsPixels() throws {
        for size in TileSize.allCases {
            let n = size.pixels
            let rgb = TileFixtures.pattern(width: n, height: n)
            let slot = TileFixtures.slot(size)
            let png = try rgbPNG(rgb, n)
            XCTAssertEqual(try TileDecoder(tileSize: size, background: background).decode(png, into: slot), .png)
            XCTAssertTrue(TileFixtures.rgb(slot) == rgb, "\(n) px: \(TileFixtures.firstDifference(TileFixtures.rgb(slot), rgb))")
            XCTAssertEqual(TileFixtures.xBytesNotFF(slot), 0)
        }
    }

    func testRGBATileIsComposedOntoTheBackground() throws {
        let n = 256
        var rgba: [UInt8] = [], expected: [UInt8] = []
        for y in 0..<n {
            for x in 0..<n {
                // Every alpha value, on colours far from the background.
                let (r, g, b, a) = (UInt8(255 - x), UInt8(y), UInt8((x * 3) & 255), UInt8((x + y * 5) & 255))
                rgba += [r, g, b, a]
                expected += [TileFixtures.over(r, background.r, a), TileFixtures.over(g, background.g, a), TileFixtures.over(b, background.b, a)]
            }
        }
        let png = try PNGWrite.rgba(RGBAImage(width: n, height: n, rgba: rgba))
        let slot = TileFixtures.slot(.px256)
        try TileDecoder(tileSize: .px256, background: background).decode(png, into: slot)
        let got = TileFixtures.rgb(slot)
        XCTAssertTrue(got == expected, TileFixtures.firstDifference(got, expected))
        XCTAssertEqual(TileFixtures.xBytesNotFF(slot), 0, "alpha must not be left where X goes")
        // The two ends exactly: transparent is the background, opaque is the colour.
        XCTAssertEqual(Array(got[0..<3]), [background.r, background.g, background.b]) // (0, 0): alpha 0
        XCTAssertEqual(Array(got[255 * 3..<256 * 3]), [0, 0, UInt8((255 * 3) & 255)]) // (255, 0): alpha 255
    }

    func testGreyGreyAlphaAndPaletteTiles() throws {
        try TileFixtures.requireTools()
        for kind in ["grey", "greyalpha", "palette"] {
            for size in TileSize.allCases {
                let n = size.pixels
                let png = try TileFixtures.pythonPNG(kind, size: n)
                var expected: [UInt8] = []
                for y in 0..<n {
                    for x in 0..<n {
                        let p = TileFixtures.pythonPixel(kind, x, y)
                        expected += [TileFixtures.over(p[0], background.r, p[3]), TileFixtures.over(p[1], background.g, p[3]),
                                     TileFixtures.over(p[2], background.b, p[3])]
                    }
                }
                let slot = TileFixtures.slot(size)
                XCTAssertEqual(try TileDecoder(tileSize: size, background: background).decode(png, into: slot), .png)
                let got = TileFixtures.rgb(slot)
                XCTAssertTrue(got == expected, "\(kind) \(n) px: \(TileFixtures.firstDifference(got, expected))")
                XCTAssertEqual(TileFixtures.xBytesNotFF(slot), 0, kind)
            }
        }
        // The palette's entry 0 is fully transparent: the tile's corner is the background.
        let slot = TileFixtures.slot(.px256)
        try TileDecoder(tileSize: .px256, background: background).decode(try TileFixtures.pythonPNG("palette", size: 256), into: slot)
        XCTAssertEqual(Array(TileFixtures.rgb(slot).prefix(3)), [background.r, background.g, background.b])
    }

    func testTruncatedPNGIsCorrupt() throws {
        let n = 256
        let png = try rgbPNG(TileFixtures.pattern(width: n, height: n), n)
        let decoder = TileDecoder(tileSize: .px256, background: background)
        // In the header, in the image data, just before the end chunk.
        for keep in [12, 30, png.count / 2, png.count - 13] {
            XCTAssertThrowsError(try decoder.decode(Array(png.prefix(keep)), into: TileFixtures.slot(.px256)), "cut to \(keep)") { error in
                guard case .corrupt(.png, let message)? = error as? TileDecodeError else {
                    return XCTFail("cut to \(keep): \(error) is not a corrupt PNG")
                }
                XCTAssertFalse(message.isEmpty)
                XCTAssertTrue("\(error)".hasPrefix("corrupt PNG tile: "), "\(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
    }

    func testPNGOfAnotherSizeIsRefusedBeforeAPixelIsWritten() throws {
        let png = try PNGWrite.frame(OwnedPixelBuffer(width: 300, height: 256, format: .xrgb8888))
        let slot = TileFixtures.slot(.px256, fill: 0x11)
        XCTAssertThrowsError(try TileDecoder(tileSize: .px256, background: background).decode(png, into: slot)) { error in
            XCTAssertEqual(error as? TileDecodeError, .wrongSize(width: 300, height: 256, expected: .px256))
            XCTAssertEqual("\(error)", "tile is 300x256, expected 256x256")
        }
        XCTAssertTrue(slot.bytes.allSatisfy { $0 == 0x11 })
    }

    private func rgbPNG(_ rgb: [UInt8], _ n: Int) throws -> [UInt8] {
        let frame = OwnedPixelBuffer(width: n, height: n, format: .xrgb8888)
        let p = frame.buffer.base.assumingMemoryBound(to: UInt8.self)
        for i in 0..<n * n {
            p[i * 4] = rgb[i * 3 + 2]; p[i * 4 + 1] = rgb[i * 3 + 1]; p[i * 4 + 2] = rgb[i * 3]; p[i * 4 + 3] = 0xFF
        }
        return try PNGWrite.frame(frame)
    }
}
