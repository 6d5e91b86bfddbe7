import XCTest
import Raster

final class RGB565Tests: XCTestCase {
    /// look.md: r5 = (r·31 + 127) / 255, g6 = (g·63 + 127) / 255; widening replicates high bits.
    func testNarrowingAllValuesMatchesTheFormula() {
        for v in 0..<256 {
            let r5 = (v * 31 + 127) / 255, g6 = (v * 63 + 127) / 255
            let p = UInt32(0xFF00_0000) | UInt32(v) << 16 | UInt32(v) << 8 | UInt32(v)
            let n = RGB565.narrow(p)
            XCTAssertEqual(Int(n >> 11), r5, "red \(v)")
            XCTAssertEqual(Int((n >> 5) & 0x3F), g6, "green \(v)")
            XCTAssertEqual(Int(n & 0x1F), r5, "blue \(v)")
            // Each channel alone, so no table leaks into another channel's bits.
            XCTAssertEqual(RGB565.narrow(UInt32(v) << 16), UInt16(r5) << 11)
            XCTAssertEqual(RGB565.narrow(UInt32(v) << 8), UInt16(g6) << 5)
            XCTAssertEqual(RGB565.narrow(UInt32(v)), UInt16(r5))
        }
    }

    func testWideningAllValuesReplicatesHighBits() {
        for r5 in 0..<32 { for g6 in [0, 1, 31, 32, 63] {
            let p = UInt16(r5 << 11 | g6 << 5 | r5)
            let w = RGB565.widen(p)
            XCTAssertEqual(Int((w >> 16) & 0xFF), (r5 << 3) | (r5 >> 2))
            XCTAssertEqual(Int((w >> 8) & 0xFF), (g6 << 2) | (g6 >> 4))
            XCTAssertEqual(Int(w & 0xFF), (r5 << 3) | (r5 >> 2))
            XCTAssertEqual(w >> 24, 0xFF)
        } }
        for g6 in 0..<64 {
            XCTAssertEqual(Int((RGB565.widen(UInt16(g6 << 5)) >> 8) & 0xFF), (g6 << 2) | (g6 >> 4))
        }
        // All 256 input values survive a round trip within the quantisation step.
        for v in 0..<256 {
            let w = RGB565.widen(RGB565.narrow(UInt32(v) << 16 | UInt32(v) << 8 | UInt32(v)))
            XCTAssertLessThanOrEqual(abs(Int((w >> 16) & 0xFF) - v), 4)
            XCTAssertLessThanOrEqual(abs(Int((w >> 8) & 0xFF) - v), 2)
        }
        XCTAssertEqual(RGB565.widen(RGB565.narrow(0xFFFF_FFFF)), 0xFFFF_FFFF)
        XCTAssertEqual(RGB565.widen(RGB565.narrow(0xFF00_0000)), 0xFF00_0000)
    }
}

/// The vector row narrowing against the one-pixel tables.
final class RGB565RowTests: XCTestCase {
    func testShiftFormulasEqualLookMdsDivisions() {
        for v in 0..<256 {
            XCTAssertEqual((v * 249 + 1014) >> 11, (v * 31 + 127) / 255, "5 bits, \(v)")
            XCTAssertEqual((v * 253 + 505) >> 10, (v * 63 + 127) / 255, "6 bits, \(v)")
        }
    }

    func testRowsEqualThePerPixelNarrowingForEveryChannelValue() {
        // Every value of each channel, with the other channels (and X) varied, at every tail length.
        var pixels = [UInt32]()
        for v in 0..<256 {
            let w = UInt32(v), o = UInt32((v * 97 + 31) & 0xFF), p = UInt32((v * 13 + 200) & 0xFF)
            pixels += [w << 16 | o << 8 | p, o << 16 | w << 8 | p, p << 16 | o << 8 | w, 0xFF00_0000 | w << 16 | w << 8 | w,
                       UInt32(v) << 24 | p << 16 | w << 8 | o]
        }
        for count in [pixels.count, 1, 7, 8, 9, 15, 16, 17] {
            var out = [UInt16](repeating: 0xDEAD, count: pixels.count + 1)
            pixels.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { RGB565.narrowRows(src.baseAddress!, srcStride: 0, $0.baseAddress!, dstStride: 0, count: count, rows: 1) }
            }
            for i in 0..<count { XCTAssertEqual(out[i], RGB565.narrow(pixels[i]), "pixel \(String(pixels[i], radix: 16)) count \(count)") }
            XCTAssertEqual(out[count], 0xDEAD, "nothing written past the row")
        }
    }
    func testARectangleOfRowsNarrowsEachRowAndNothingBeside() {
        // Rows of every tail length, inside larger strides on both sides: each row equals the
        // per-pixel narrowing, and the bytes between rows keep their value.
        let srcStride = 40, dstStride = 37, rows = 5
        var pixels = [UInt32](repeating: 0, count: srcStride * rows)
        for i in pixels.indices { pixels[i] = UInt32(truncatingIfNeeded: i &* 0x9E37_79B1) }
        for count in [1, 7, 8, 9, 15, 16, 17, 31, 33] {
            var out = [UInt16](repeating: 0xDEAD, count: dstStride * rows)
            pixels.withUnsafeBytes { src in
                out.withUnsafeMutableBytes {
                    RGB565.narrowRows(src.baseAddress! + 4, srcStride: srcStride * 4, $0.baseAddress! + 2, dstStride: dstStride * 2,
                                      count: count, rows: rows)
                }
            }
            for y in 0..<rows {
                for x in 0..<dstStride {
                    let written = x >= 1 && x <= count
                    XCTAssertEqual(out[y * dstStride + x], written ? RGB565.narrow(pixels[y * srcStride + x]) : 0xDEAD,
                                   "count \(count) row \(y) column \(x)")
                }
            }
        }
    }
}
