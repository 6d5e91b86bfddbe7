import PNG
import Raster
import XCTest

/// Decoding from memory into a place of the caller's, chosen once the header is read: a slot of
/// any stride gets the pixels `opaqueFrame` makes, and a refused size gets nothing.
final class PNGSlotReadTests: XCTestCase {
    private func rgbaPNG(_ w: Int, _ h: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<h { for x in 0..<w { bytes += [UInt8((x * 40) & 255), UInt8((y * 50) & 255), 200, UInt8((x * 90 + y * 20) & 255)] } }
        return try PNGWrite.rgba(RGBAImage(width: w, height: h, rgba: bytes))
    }

    func testIntoASlotIsOpaqueFrameAndLeavesThePaddingAlone() throws {
        let png = try rgbaPNG(5, 3)
        let background = Color(r: 10, g: 120, b: 250)
        let whole = try PNGRead.opaqueFrame(bytes: png, background: background)
        // Rows of 64 bytes for 5 pixels: 44 bytes of padding each that must stay 0xEE.
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 3 * 64, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xEE, count: 3 * 64)
        let slot = PixelBuffer(base: memory, width: 5, height: 3, stride: 64, format: .xrgb8888)
        var asked: [String] = []
        let size = try png.withUnsafeBytes { raw in
            try PNGRead.opaqueFrame(bytes: raw, background: background) { w, h in asked.append("\(w)x\(h)"); return slot }
        }
        XCTAssertTrue(size == (5, 3))
        XCTAssertEqual(asked, ["5x3"])
        for y in 0..<3 {
            let row = UnsafeRawBufferPointer(start: slot.row(y), count: 64)
            XCTAssertEqual(Array(row.prefix(20)), Array(UnsafeRawBufferPointer(start: whole.buffer.row(y), count: 20)), "row \(y)")
            XCTAssertTrue(row.dropFirst(20).allSatisfy { $0 == 0xEE }, "row \(y)'s padding was written")
        }
        // And opaqueFrame is PulseDot's blend with X 0xFF: pixel (1, 0) has alpha 90.
        let p = UnsafeRawBufferPointer(start: whole.buffer.row(0) + 4, count: 4)
        let over = { (c: Int, bg: Int) in UInt8((c * 90 + bg * 165 + 127) / 255) }
        XCTAssertEqual(Array(p), [over(200, 250), over(0, 120), over(40, 10), 0xFF])
    }

    func testARefusedSizeDecodesNothingAndReportsTheSize() throws {
        let png = try rgbaPNG(7, 2)
        let size = try png.withUnsafeBytes { raw in
            try PNGRead.opaqueFrame(bytes: raw, background: .white) { _, _ in nil }
        }
        XCTAssertTrue(size == (7, 2))
    }

    func testTruncatedPixelsAreAnErrorNamingTheSource() throws {
        let png = try rgbaPNG(64, 64)
        let cut = Array(png.prefix(png.count / 2))
        let frame = OwnedPixelBuffer(width: 64, height: 64, format: .xrgb8888)
        XCTAssertThrowsError(try cut.withUnsafeBytes { raw in
            try withExtendedLifetime(frame) {
                try PNGRead.opaqueFrame(bytes: raw, name: "cut.png", background: .white) { _, _ in frame.buffer }
            }
        }) { error in
            XCTAssertTrue("\(error)".hasPrefix("cut.png: cannot decode PNG ("), "\(error)")
        }
    }
}
