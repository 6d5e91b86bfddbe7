import XCTest
@testable import Raster

/// The narrowed copy-out gives exactly the bytes of the plain one (every pixel narrowed), for
/// every turn, for a canvas showing a larger map from an offset with something drawn over part of
/// it; and the strided narrowing a turned copy-out uses equals the per-pixel tables.
final class NarrowedCopyTests: XCTestCase {
    /// Every X, R, G, B byte value turns up somewhere, X included (it must not leak into the result).
    private func map(width: Int, height: Int) -> OwnedPixelBuffer {
        let f = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
        for y in 0..<height {
            let row = f.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                var h = UInt32(truncatingIfNeeded: x &* 0x9E37_79B1 ^ y &* 0x85EB_CA77)
                h ^= h >> 15
                row[x] = h &* 0x2C1B_3C6D
            }
        }
        return f
    }

    private func bytes(_ b: PixelBuffer) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<b.height {
            out += UnsafeRawBufferPointer(start: b.row(y), count: b.width * b.format.bytesPerPixel)
        }
        return out
    }

    func testNarrowedCopyOutEqualsNarrowingEveryPixel() {
        let w = 37, h = 23, origin = (x: 5, y: 9)
        let big = map(width: w + 11, height: h + 14)
        let canvas = OwnedPixelBuffer(width: w, height: h, format: .xrgb8888)
        canvas.buffer.copy(canvas.buffer.bounds, from: PixelBuffer(base: big.buffer.row(origin.y) + origin.x * 4, width: w, height: h,
                                                                   stride: big.buffer.stride, format: .xrgb8888))
        // Something drawn over the map: these pixels are no longer the map's.
        let drawn = Rect(x: 9, y: 4, width: 13, height: 11)
        canvas.buffer.fill(drawn, with: Color(r: 200, g: 17, b: 90))
        for rotation in Rotation.allCases {
            let narrowed = NarrowedCopy(of: big.buffer, rotation: rotation)
            let panel = rotation.physicalSize(logicalWidth: w, logicalHeight: h)
            for region in [canvas.buffer.bounds, Rect(x: 7, y: 2, width: 20, height: 15), Rect(x: 0, y: 16, width: 30, height: 7)] {
                let plain = OwnedPixelBuffer(width: panel.width, height: panel.height, format: .rgb565)
                let fast = OwnedPixelBuffer(width: panel.width, height: panel.height, format: .rgb565)
                let a = canvas.buffer.copyOut(region: region, to: plain.buffer, rotation: rotation)
                let b = canvas.buffer.copyOut(region: region, to: fast.buffer, rotation: rotation, narrowed: narrowed,
                                              originX: origin.x, originY: origin.y, fresh: drawn)
                XCTAssertEqual(a, b, "\(rotation) \(region)")
                XCTAssertEqual(bytes(plain.buffer), bytes(fast.buffer), "\(rotation) \(region)")
            }
        }
    }

    func testAFreshRectangleThatIsTooSmallShowsTheMap() {
        // The test above would pass with a copy-out that narrows everything; this one fails unless
        // the pixels outside `fresh` really come from the narrowed copy.
        let w = 16, h = 12
        let m = map(width: w, height: h)
        let canvas = OwnedPixelBuffer(width: w, height: h, format: .xrgb8888)
        canvas.buffer.copy(canvas.buffer.bounds, from: m.buffer)
        canvas.buffer.fill(Rect(x: 2, y: 2, width: 4, height: 4), with: Color(r: 255, g: 255, b: 255))
        let narrowed = NarrowedCopy(of: m.buffer, rotation: .r0)
        let out = OwnedPixelBuffer(width: w, height: h, format: .rgb565)
        canvas.buffer.copyOut(region: canvas.buffer.bounds, to: out.buffer, rotation: .r0, narrowed: narrowed,
                              originX: 0, originY: 0, fresh: Rect(x: 2, y: 2, width: 2, height: 4))
        let row = out.buffer.row(3).assumingMemoryBound(to: UInt16.self)
        XCTAssertEqual(row[2], 0xFFFF, "inside fresh: the canvas, narrowed")
        XCTAssertEqual(row[4], RGB565.narrow(m.buffer.pixel(x: 4, y: 3)), "outside fresh: the map's pixel")
    }

    func testRefreshNarrowsTheChangedPixelsAgain() {
        let m = map(width: 20, height: 10)
        for rotation in Rotation.allCases {
            let narrowed = NarrowedCopy(of: m.buffer, rotation: rotation)
            m.buffer.fill(Rect(x: 3, y: 1, width: 5, height: 6), with: Color(r: 1, g: 2, b: 3))
            narrowed.refresh(Rect(x: 3, y: 1, width: 5, height: 6), from: m.buffer)
            let fresh = NarrowedCopy(of: m.buffer, rotation: rotation)
            XCTAssertEqual(bytes(narrowed.frame.buffer), bytes(fresh.frame.buffer), "\(rotation)")
        }
    }

    func testStridedNarrowingEqualsTheTables() {
        let m = map(width: 64, height: 40)
        let stride = m.buffer.stride
        for count in [1, 5, 7, 8, 9, 15, 16, 17, 23, 24, 31, 39] {
            // Down a column (a turned copy-out), up a column, right to left.
            for (start, step) in [((0, 0), stride), ((3, 39), -stride), ((63, 2), -4), ((10, 5), 4)] {
                let n = step == stride || step == -stride ? min(count, 40) : min(count, 54)
                let src = UnsafeRawPointer(m.buffer.row(start.1) + start.0 * 4)
                var out = [UInt16](repeating: 0xDEAD, count: n + 1)
                out.withUnsafeMutableBufferPointer { RGB565.narrowRowStrided(src, step: step, $0.baseAddress!, n) }
                for i in 0..<n {
                    let p = src.load(fromByteOffset: i * step, as: UInt32.self)
                    XCTAssertEqual(out[i], RGB565.narrow(p), "count \(n) step \(step) pixel \(i)")
                }
                XCTAssertEqual(out[n], 0xDEAD, "nothing written past the row")
            }
        }
    }
    func testStripsOfEveryLengthAreCopiedExactly() {
        // The strips beside a dot are copied in overlapping words and vectors: every length,
        // at odd offsets, copies exactly its pixels.
        let source = (0..<140).map { UInt16(truncatingIfNeeded: $0 &* 0x9E37 &+ 11) }
        for count in 1...100 {
            var out = [UInt16](repeating: 0xDEAD, count: 140)
            source.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { PixelBuffer.copy16(s.baseAddress! + 3, $0.baseAddress! + 5, count) }
            }
            for i in 0..<140 {
                XCTAssertEqual(out[i], i >= 5 && i < 5 + count ? source[i - 2] : 0xDEAD, "count \(count) pixel \(i)")
            }
        }
    }
}
