import XCTest
import Raster

/// Premultiplied overlays composited onto XRGB8888 frames: exact bytes, the clip, the placement.
final class OverlayTests: XCTestCase {
    private func canvas(_ width: Int, _ height: Int, _ pixel: UInt32) -> OwnedPixelBuffer {
        let f = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
        for y in 0..<height {
            f.buffer.row(y).assumingMemoryBound(to: UInt32.self).update(repeating: pixel, count: width)
        }
        return f
    }

    func testTransparentPixelsLeaveTheCanvasAloneAndOpaqueOnesReplaceIt() {
        let f = TestFrames.numbered(width: 12, height: 9)
        let before = (0..<9).map { y in (0..<12).map { x in f.buffer.pixel(x: x, y: y) } }
        let o = Overlay(width: 4, height: 3, x: 2, y: 5)
        o.setPixel(x: 1, y: 0, 0xFF12_3456)
        o.setPixel(x: 3, y: 2, 0xFFFF_FFFF)
        let changed = o.draw(into: f.buffer, clip: f.buffer.bounds)
        XCTAssertEqual(changed, Rect(x: 2, y: 5, width: 4, height: 3))
        for y in 0..<9 { for x in 0..<12 {
            let want: UInt32 = (x, y) == (3, 5) ? 0xFF12_3456 : (x, y) == (5, 7) ? 0xFFFF_FFFF : before[y][x]
            XCTAssertEqual(f.buffer.pixel(x: x, y: y), want, "(\(x),\(y))")
        } }
    }

    func testTranslucentPixelsBlendWithExactRounding() {
        // Each channel: source + round(dest · (255 − a) / 255), worked by hand.
        let cases: [(source: UInt32, dest: UInt32, want: UInt32)] = [
            (0x8040_0000, 0xFF00_00FF, 0xFF40_007F),  // b: 255·127/255 = 127
            (0xBFBF_BFBF, 0xFF00_0000, 0xFFBF_BFBF),  // 75 % white on black
            (0xBFBF_BFBF, 0xFF00_00FF, 0xFFBF_BFFF),  // b: 191 + 64
            (0xBFBF_BFBF, 0xFF64_6464, 0xFFD8_D8D8),  // 191 + round(100·64/255 = 25.1)
        ]
        for c in cases {
            let f = canvas(1, 1, c.dest)
            let o = Overlay(width: 1, height: 1)
            o.setPixel(x: 0, y: 0, c.source)
            o.draw(into: f.buffer, clip: f.buffer.bounds)
            XCTAssertEqual(f.buffer.pixel(x: 0, y: 0), c.want, "source \(String(c.source, radix: 16)) over \(String(c.dest, radix: 16))")
        }
        // Alpha 1 over mid grey: 128·254/255 = 127.498 rounds down, and the opaque frame stays opaque.
        XCTAssertEqual(Overlay.over(0x0100_0000, 0xFF80_8080), 0xFF7F_7F7F)
    }

    func testEveryAlphaAndChannelMatchesTheRealNumberFormula() {
        for a in 0...255 {
            for (s, d) in [(0, 0), (0, 255), (a, 0), (a, 255), (a / 2, 100), (a / 3, 37), (0, 1), (a, 254)] {
                let source = UInt32(a) << 24 | UInt32(s) << 16 | UInt32(a - s) << 8 | UInt32(s)
                let dest = 0xFF00_0000 | UInt32(d) << 16 | UInt32(255 - d) << 8 | UInt32(d / 2)
                let got = Overlay.over(source, dest)
                func want(_ sc: Int, _ dc: Int) -> UInt32 {
                    UInt32(sc + Int((Double(dc) * Double(255 - a) / 255).rounded()))
                }
                XCTAssertEqual(got >> 24, want(a, 255), "alpha a=\(a)")
                XCTAssertEqual((got >> 16) & 0xFF, want(s, d), "red a=\(a) s=\(s) d=\(d)")
                XCTAssertEqual((got >> 8) & 0xFF, want(a - s, 255 - d), "green a=\(a) s=\(s) d=\(d)")
                XCTAssertEqual(got & 0xFF, want(s, d / 2), "blue a=\(a) s=\(s) d=\(d)")
            }
        }
    }

    func testOnlyPixelsInsideTheClipAndTheCanvasChange() {
        let f = canvas(20, 16, 0xFF00_0000)
        let o = Overlay(width: 10, height: 10, x: 5, y: 8)
        o.fill(Rect(x: 0, y: 0, width: 10, height: 10), with: Color(r: 255, g: 0, b: 0))
        let clip = Rect(x: 8, y: 0, width: 4, height: 100)
        let changed = o.draw(into: f.buffer, clip: clip)
        // Columns 8…11 of the overlay's rows 8…15; rows 16 and 17 are below the canvas.
        XCTAssertEqual(changed, Rect(x: 8, y: 8, width: 4, height: 8))
        for y in 0..<16 { for x in 0..<20 {
            let inside = x >= 8 && x < 12 && y >= 8
            XCTAssertEqual(f.buffer.pixel(x: x, y: y), inside ? 0xFFFF_0000 : 0xFF00_0000, "(\(x),\(y))")
        } }
    }

    func testAnOverlayHangingOffTheTopLeftDrawsItsVisiblePart() {
        let f = canvas(6, 6, 0xFF10_2030)
        let o = Overlay(width: 4, height: 4, x: -2, y: -3)
        for y in 0..<4 { for x in 0..<4 { o.setPixel(x: x, y: y, 0xFF00_0000 | UInt32(y * 4 + x)) } }
        XCTAssertEqual(o.draw(into: f.buffer, clip: f.buffer.bounds), Rect(x: 0, y: 0, width: 2, height: 1))
        XCTAssertEqual(f.buffer.pixel(x: 0, y: 0), 0xFF00_000E)  // overlay (2, 3)
        XCTAssertEqual(f.buffer.pixel(x: 1, y: 0), 0xFF00_000F)  // overlay (3, 3)
        XCTAssertEqual(f.buffer.pixel(x: 2, y: 0), 0xFF10_2030)
        XCTAssertEqual(f.buffer.pixel(x: 0, y: 1), 0xFF10_2030)
        o.x = 6
        XCTAssertEqual(o.draw(into: f.buffer, clip: f.buffer.bounds), .empty)
        XCTAssertEqual(Overlay(width: 0, height: 0).draw(into: f.buffer, clip: f.buffer.bounds), .empty)
    }

    func testPaintingOntoTheOverlayIsPremultipliedOver() {
        let o = Overlay(width: 3, height: 1)
        let box = Color(r: 255, g: 255, b: 255, a: 191)
        o.fill(Rect(x: 0, y: 0, width: 3, height: 1), with: box)
        XCTAssertEqual(o.pixel(x: 0, y: 0), 0xBFBF_BFBF)
        let ink = Color(r: 0x33, g: 0x33, b: 0x33)
        o.blend(x: 0, y: 0, ink, coverage: 255)
        o.blend(x: 1, y: 0, ink, coverage: 128)
        o.blend(x: 2, y: 0, ink, coverage: 0)
        o.blend(x: 3, y: 0, ink, coverage: 255)  // outside: ignored
        XCTAssertEqual(o.pixel(x: 0, y: 0), 0xFF33_3333)
        // Ink at 128/255: premultiplied round(51·128/255) = 26; plus 191·127/255 = 95.1 of the box.
        XCTAssertEqual(o.pixel(x: 1, y: 0), 0xDF79_7979)
        XCTAssertEqual(o.pixel(x: 2, y: 0), 0xBFBF_BFBF)
        XCTAssertEqual(Overlay.premultiplied(Color(r: 200, g: 100, b: 1, a: 128)), 0x8064_3201)
        XCTAssertTrue(Overlay.isPremultiplied(0x8064_3201))
        XCTAssertFalse(Overlay.isPremultiplied(0x7F80_0000))
        XCTAssertFalse(Overlay.isPremultiplied(0x0000_0001))
    }
}
