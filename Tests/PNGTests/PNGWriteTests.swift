import PNG
import Raster
import XCTest

/// Encoding frames: XRGB8888 as it is, RGB565 widened by look.md's bit replication.
final class PNGWriteTests: XCTestCase {
    func testXRGB8888RoundTrip() throws {
        let frame = OwnedPixelBuffer(width: 5, height: 4, format: .xrgb8888)
        var expected: [UInt8] = []
        for y in 0..<4 {
            let row = frame.buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<5 {
                let (r, g, b) = (UInt8(x * 50), UInt8(y * 60), UInt8(x * y * 10 + 3))
                row[x * 4] = b; row[x * 4 + 1] = g; row[x * 4 + 2] = r; row[x * 4 + 3] = 0x42 // X ignored
                expected += [r, g, b, 255]
            }
        }
        let decoded = try PNGRead.rgba(bytes: PNGWrite.frame(frame.buffer))
        XCTAssertEqual(decoded.width, 5)
        XCTAssertEqual(decoded.height, 4)
        XCTAssertFalse(decoded.fileHasAlpha, "frames are written as RGB")
        XCTAssertEqual(decoded.rgba, expected)
    }

    func testStrideLargerThanWidth() throws {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 3 * 64, alignment: 8)
        defer { bytes.deallocate() }
        bytes.initializeMemory(as: UInt8.self, repeating: 0xEE, count: 3 * 64)
        for y in 0..<3 { for x in 0..<2 { (bytes + y * 64 + x * 4).storeBytes(of: UInt32(0x00102030 + y), as: UInt32.self) } }
        let view = PixelBuffer(base: bytes, width: 2, height: 3, stride: 64, format: .xrgb8888)
        let decoded = try PNGRead.rgba(bytes: PNGWrite.frame(view))
        XCTAssertEqual(decoded.rgba, (0..<3).flatMap { y in [0x10, 0x20, UInt8(0x30 + y), 255, 0x10, 0x20, UInt8(0x30 + y), 255] })
    }

    func testWideningEveryChannelValue() {
        for r5 in 0..<32 {
            XCTAssertEqual(Int(PNGWrite.widen565(UInt16(r5) << 11).r), r5 * 8 + r5 / 4)
            XCTAssertEqual(Int(PNGWrite.widen565(UInt16(r5)).b), r5 * 8 + r5 / 4)
        }
        for g6 in 0..<64 {
            XCTAssertEqual(Int(PNGWrite.widen565(UInt16(g6) << 5).g), g6 * 4 + g6 / 16)
        }
        XCTAssertTrue(PNGWrite.widen565(0xFFFF) == (255, 255, 255))
        XCTAssertTrue(PNGWrite.widen565(0) == (0, 0, 0))
    }

    func testRGB565FrameIsWidened() throws {
        // Every 16-bit value once: a 256×256 frame holding 0…65535, little-endian.
        let frame = OwnedPixelBuffer(width: 256, height: 256, format: .rgb565)
        for v in 0..<65536 {
            frame.buffer.base.storeBytes(of: UInt16(v).littleEndian, toByteOffset: v * 2, as: UInt16.self)
        }
        let decoded = try PNGRead.rgba(bytes: PNGWrite.frame(frame.buffer))
        for v in 0..<65536 {
            let r5 = v >> 11, g6 = (v >> 5) & 63, b5 = v & 31
            let got = decoded.rgba[v * 4..<v * 4 + 3]
            if Array(got) != [UInt8(r5 << 3 | r5 >> 2), UInt8(g6 << 2 | g6 >> 4), UInt8(b5 << 3 | b5 >> 2)] {
                XCTFail("0x\(String(v, radix: 16)) widened to \(Array(got))")
                return
            }
        }
    }

    func testWriteToFileAndUnwritablePath() throws {
        let dir = try makeTemporaryDirectory()
        let frame = OwnedPixelBuffer(width: 3, height: 2, format: .xrgb8888)
        try PNGWrite.frame(frame.buffer, to: dir + "/f.png")
        XCTAssertEqual(try PNGRead.rgba(path: dir + "/f.png").width, 3)
        XCTAssertThrowsError(try PNGWrite.frame(frame.buffer, to: dir + "/no/such/dir/f.png")) { error in
            XCTAssertTrue("\(error)".hasPrefix(dir + "/no/such/dir/f.png: cannot write PNG"), "\(error)")
        }
    }

    func testSameFrameSameBytes() throws {
        let frame = OwnedPixelBuffer(width: 7, height: 7, format: .xrgb8888)
        frame.bytes.initializeMemory(as: UInt8.self, repeating: 0x5A)
        XCTAssertEqual(try PNGWrite.frame(frame.buffer), try PNGWrite.frame(frame.buffer))
    }
}
