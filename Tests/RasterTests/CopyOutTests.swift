import XCTest
import Raster

final class CopyOutTests: XCTestCase {
    /// A scan-out buffer with a wider stride than its width, pre-filled with a marker byte so
    /// writes outside the region (or into the padding) show.
    private func target(width: Int, height: Int, format: PixelFormat, pad: Int) -> (UnsafeMutableRawBufferPointer, PixelBuffer) {
        let stride = width * format.bytesPerPixel + pad
        let mem = UnsafeMutableRawBufferPointer.allocate(byteCount: stride * height, alignment: 16)
        mem.initializeMemory(as: UInt8.self, repeating: 0xA5)
        return (mem, PixelBuffer(base: mem.baseAddress!, width: width, height: height, stride: stride, format: format))
    }

    func testEveryTurnAndFormatPlacesEachPixelAndTouchesNothingElse() {
        let lw = 13, lh = 7
        let shadow = TestFrames.numbered(width: lw, height: lh)
        let region = Rect(x: 3, y: 2, width: 6, height: 4)
        for format in PixelFormat.allCases { for rot in Rotation.allCases {
            let (pw, ph) = rot.physicalSize(logicalWidth: lw, logicalHeight: lh)
            let (mem, t) = target(width: pw, height: ph, format: format, pad: 12)
            defer { mem.deallocate() }
            let written = shadow.buffer.copyOut(region: region, to: t, rotation: rot)
            XCTAssertEqual(written, rot.map(rect: region, logicalWidth: lw, logicalHeight: lh))
            var expected = [Int: UInt32]()
            for y in region.y..<region.maxY { for x in region.x..<region.maxX {
                let p = rot.map(x: x, y: y, logicalWidth: lw, logicalHeight: lh)
                let v = shadow.buffer.pixel(x: x, y: y)
                expected[p.y * pw + p.x] = format == .xrgb8888 ? v : RGB565.widen(RGB565.narrow(v))
            } }
            for py in 0..<ph {
                for px in 0..<pw {
                    if let want = expected[py * pw + px] {
                        XCTAssertEqual(t.pixel(x: px, y: py), want, "\(format) \(rot) at (\(px),\(py))")
                    } else {
                        let bytes = (0..<format.bytesPerPixel).map { t.row(py).load(fromByteOffset: px * format.bytesPerPixel + $0, as: UInt8.self) }
                        XCTAssertEqual(bytes, [UInt8](repeating: 0xA5, count: format.bytesPerPixel), "\(format) \(rot) wrote outside at (\(px),\(py))")
                    }
                }
                for b in pw * format.bytesPerPixel..<t.stride {
                    XCTAssertEqual(t.row(py).load(fromByteOffset: b, as: UInt8.self), 0xA5, "padding written")
                }
            }
        } }
    }

    func testRegionIsClippedToTheFrameAndTarget() {
        let shadow = TestFrames.numbered(width: 8, height: 8)
        let (mem, t) = target(width: 6, height: 8, format: .xrgb8888, pad: 0)
        defer { mem.deallocate() }
        let written = shadow.buffer.copyOut(region: Rect(x: -4, y: 6, width: 20, height: 20), to: t)
        XCTAssertEqual(written, Rect(x: 0, y: 6, width: 6, height: 2))
        XCTAssertEqual(t.pixel(x: 5, y: 7), shadow.buffer.pixel(x: 5, y: 7))
        XCTAssertEqual(shadow.buffer.copyOut(region: Rect(x: 9, y: 0, width: 3, height: 3), to: t), .empty)
    }

    func testRGB565CopyOutNarrowsPerLookMd() {
        let shadow = OwnedPixelBuffer(width: 256, height: 1, format: .xrgb8888)
        let row = shadow.buffer.row(0).assumingMemoryBound(to: UInt32.self)
        for v in 0..<256 { row[v] = 0xFF00_0000 | UInt32(v) << 16 | UInt32(255 - v) << 8 | UInt32(v) }
        let out = OwnedPixelBuffer(width: 256, height: 1, format: .rgb565)
        shadow.buffer.copyOut(region: shadow.buffer.bounds, to: out.buffer)
        let o = out.buffer.row(0).assumingMemoryBound(to: UInt16.self)
        for v in 0..<256 {
            let want = UInt16((v * 31 + 127) / 255) << 11 | UInt16(((255 - v) * 63 + 127) / 255) << 5 | UInt16((v * 31 + 127) / 255)
            XCTAssertEqual(o[v], want, "value \(v)")
        }
    }
}
