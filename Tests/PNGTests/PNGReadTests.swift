import PNG
import Raster
import XCTest

/// Decoding: masks from alpha channels, refusal of alpha-less masks, clear errors, maps made opaque.
final class PNGReadTests: XCTestCase {
    private func rgbaPNG(_ w: Int, _ h: Int, _ pixel: (Int, Int) -> [UInt8]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<h { for x in 0..<w { bytes += pixel(x, y) } }
        return try PNGWrite.rgba(RGBAImage(width: w, height: h, rgba: bytes))
    }

    func testAlphaMaskIsTheAlphaChannel() throws {
        let png = try rgbaPNG(4, 3) { x, y in [9, 9, 9, UInt8(x * 60 + y)] }
        let mask = try PNGRead.alphaMask(bytes: png)
        XCTAssertEqual(mask.width, 4)
        XCTAssertEqual(mask.height, 3)
        XCTAssertEqual(mask.alpha, (0..<3).flatMap { y in (0..<4).map { x in UInt8(x * 60 + y) } })
    }

    func testAlphaLessImageIsRefusedNamingTheFile() throws {
        let dir = try makeTemporaryDirectory()
        let path = dir + "/square.png"
        try PNGWrite.rgb(width: 2, height: 2, rgb: Array(repeating: 200, count: 12), to: path)
        XCTAssertThrowsError(try PNGRead.alphaMask(path: path)) { error in
            let e = error as! PNGError
            XCTAssertEqual(e.file, path)
            XCTAssertTrue(e.description.hasPrefix(path + ": has no alpha channel"), e.description)
            XCTAssertFalse(e.description.contains("\n"))
        }
        // Gray without alpha too (a different colour type in the file).
        XCTAssertThrowsError(try PNGRead.alphaMask(bytes: Self.gray, name: "gray.png")) { error in
            XCTAssertTrue("\(error)".contains("gray.png: has no alpha channel"), "\(error)")
        }
    }

    func testMissingFileAndGarbage() throws {
        XCTAssertThrowsError(try PNGRead.alphaMask(path: "/nonexistent/dot.png")) { error in
            XCTAssertEqual("\(error)", "/nonexistent/dot.png: no such file (a PNG image is expected here)")
        }
        XCTAssertThrowsError(try PNGRead.rgba(bytes: Array("not a png at all".utf8), name: "junk")) { error in
            XCTAssertTrue("\(error)".hasPrefix("junk: not a readable PNG ("), "\(error)")
        }
        // A truncated file: the header reads, the pixels do not.
        let png = try rgbaPNG(16, 16) { _, _ in [1, 2, 3, 4] }
        XCTAssertThrowsError(try PNGRead.rgba(bytes: Array(png.prefix(png.count - 20)), name: "cut.png")) { error in
            XCTAssertTrue("\(error)".hasPrefix("cut.png: "), "\(error)")
        }
    }

    func testPaletteWithTransparencyHasAlpha() throws {
        let mask = try PNGRead.alphaMask(bytes: Self.palette)
        XCTAssertEqual(mask.alpha, [255, 128, 0])
        let image = try PNGRead.rgba(bytes: Self.palette)
        XCTAssertEqual(Array(image.rgba.prefix(4)), [255, 0, 0, 255])
    }

    func testSixteenBitIsTreatedAsSRGBNotLinear() throws {
        // 0x8080 must come out as 128, not gamma-encoded as if it were linear light (about 188).
        let image = try PNGRead.rgba(bytes: Self.sixteen)
        XCTAssertEqual(Array(image.rgba.prefix(4)), [128, 0, 255, 255])
        XCTAssertEqual(image.rgba[7], 128)
    }

    func testOpaqueFrameCompositesInSRGBValues() throws {
        let png = try rgbaPNG(3, 1) { x, _ in [[255, 0, 0, 255], [255, 0, 0, 128], [0, 0, 255, 0]][x] }
        let frame = try PNGRead.opaqueFrame(bytes: png, background: Color(r: 255, g: 255, b: 255))
        XCTAssertEqual(frame.buffer.format, .xrgb8888)
        let p = frame.buffer.base.assumingMemoryBound(to: UInt8.self)
        // Bytes B, G, R, X.
        XCTAssertEqual(Array(UnsafeBufferPointer(start: p, count: 12)),
                       [0, 0, 255, 255,
                        127, 127, 255, 255, // (0·128 + 255·127 + 127) / 255 = 127
                        255, 255, 255, 255])
    }

    static let sixteen: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x10, 0x06, 0x00, 0x00, 0x00, 0xA4, 0xB2, 0xA3, 0xC9, 0x00, 0x00, 0x00, 0x14, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x68, 0x68, 0x60, 0x60, 0xF8, 0x0F, 0x04, 0x0C, 0x60, 0xD0, 0xD0, 0x00, 0x00, 0x3A, 0xE7, 0x05, 0xFD, 0x60, 0xA2, 0xB0, 0x63, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
    static let palette: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x08, 0x03, 0x00, 0x00, 0x00, 0x2C, 0x3E, 0xE4, 0x86, 0x00, 0x00, 0x00, 0x09, 0x50, 0x4C, 0x54, 0x45, 0xFF, 0x00, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0xFF, 0x2D, 0x4A, 0xCD, 0x8A, 0x00, 0x00, 0x00, 0x03, 0x74, 0x52, 0x4E, 0x53, 0xFF, 0x80, 0x00, 0x7F, 0x6D, 0x68, 0x78, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0x60, 0x64, 0x02, 0x00, 0x00, 0x08, 0x00, 0x04, 0x36, 0xE0, 0xB0, 0xA6, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
    static let gray: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0xD1, 0x49, 0x20, 0x56, 0x00, 0x00, 0x00, 0x0B, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0x38, 0x01, 0x00, 0x00, 0xCB, 0x00, 0xC9, 0x69, 0xC8, 0xC3, 0x6C, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
}

/// A fresh directory for files a test writes (PNGTests does not depend on TestSupport).
func makeTemporaryDirectory() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pulsedot-png-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}
