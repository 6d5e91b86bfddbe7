import XCTest
@testable import Raster

final class BlendTests: XCTestCase {
    func testDiv255IsExactRoundingForEveryProduct() {
        for v in UInt32(0)...(255 * 255) {
            let want = (v * 2 + 255) / 510  // round(v / 255), halves up
            XCTAssertEqual(Blend.div255(v), want, "v=\(v)")
            XCTAssertEqual(Blend.div255Lanes(v << 16 | (255 * 255 - v)),
                           want << 16 | ((255 * 255 - v) * 2 + 255) / 510, "lanes v=\(v)")
            if Blend.div255(v) != want { return }
        }
    }

    /// look.md compositing: every channel within 1 of a floating-point premultiplied "over".
    func testOverMatchesFloatReferenceOverASweep() {
        let levels: [UInt8] = [0, 1, 17, 64, 100, 127, 128, 200, 254, 255]
        var worst = 0.0
        for cr in levels { for cb in [UInt8(0), 90, 255] { for a in levels { for cov in levels {
            for dst in [UInt32(0xFF00_0000), 0xFFFF_FFFF, 0xFF12_80F0, 0xFFE5_E3DF] {
                let color = Color(r: cr, g: 255 &- cr, b: cb, a: a)
                let out = Blend.over(dst, color, coverage: cov)
                let alpha = Double(a) / 255 * Double(cov) / 255
                for shift in [16, 8, 0] {
                    let d = Double((dst >> UInt32(shift)) & 0xFF)
                    let c = Double(shift == 16 ? color.r : shift == 8 ? color.g : color.b)
                    let ref = c * alpha + d * (1 - alpha)
                    let got = Double((out >> UInt32(shift)) & 0xFF)
                    worst = max(worst, abs(got - ref))
                    XCTAssertLessThanOrEqual(abs(got - ref), 1.0, "color \(color) cov \(cov) dst \(String(dst, radix: 16))")
                }
                XCTAssertEqual(out >> 24, 0xFF, "an opaque frame stays opaque")
            }
        } } } }
        XCTAssertLessThanOrEqual(worst, 1.0)
    }

    func testOpaqueAndZeroAreExact() {
        let c = Color(r: 0, g: 122, b: 255)
        XCTAssertEqual(Blend.over(0xFF12_3456, c, coverage: 255), 0xFF00_7AFF)
        XCTAssertEqual(Blend.over(0xFF12_3456, c, coverage: 0), 0xFF12_3456)
        XCTAssertEqual(Blend.over(0xFF12_3456, Color(r: 9, g: 9, b: 9, a: 0), coverage: 255), 0xFF12_3456)
    }

    func testSpansMatchThePerPixelReference() {
        let f = TestFrames.numbered(width: 64, height: 3)
        let ref = TestFrames.numbered(width: 64, height: 3)
        let color = Color(r: 200, g: 30, b: 99, a: 180)
        let paint = SolidPaint(color, opacity: 200)
        let row = f.buffer.row(1).assumingMemoryBound(to: UInt32.self)
        let refRow = ref.buffer.row(1).assumingMemoryBound(to: UInt32.self)
        Blend.fillSpan(row, 5, 40, paint)
        for x in 5..<40 { refRow[x] = Blend.over(refRow[x], paint, alpha: paint.alpha) }
        var cov = [UInt8](repeating: 0, count: 20)
        for i in 0..<20 { cov[i] = UInt8(i * 13) }
        Blend.coverageSpan(row, 42, cov, 20, paint)
        for i in 0..<20 { refRow[42 + i] = Blend.over(refRow[42 + i], paint, alpha: Blend.div255(paint.alpha * UInt32(cov[i]))) }
        XCTAssertEqual(Array(f.bytes), Array(ref.bytes))
    }

    func testFillOpaqueWritesTheColourAndLeavesTheRestAlone() {
        let f = TestFrames.numbered(width: 10, height: 10)
        let before = Array(f.bytes)
        f.buffer.fill(Rect(x: 2, y: 3, width: 4, height: 5), with: Color(r: 1, g: 2, b: 3))
        for y in 0..<10 { for x in 0..<10 {
            let inside = x >= 2 && x < 6 && y >= 3 && y < 8
            let old = before.withUnsafeBytes { $0.load(fromByteOffset: (y * 10 + x) * 4, as: UInt32.self) }
            XCTAssertEqual(f.buffer.pixel(x: x, y: y), inside ? 0xFF01_0203 : old)
        } }
    }

    func testCopyFromBackgroundRestoresOnlyTheRect() {
        let bg = TestFrames.numbered(width: 12, height: 9)
        let frame = TestFrames.solid(width: 12, height: 9, .white)
        frame.buffer.copy(Rect(x: -3, y: 4, width: 8, height: 100), from: bg.buffer)
        for y in 0..<9 { for x in 0..<12 {
            let inside = x < 5 && y >= 4
            XCTAssertEqual(frame.buffer.pixel(x: x, y: y), inside ? bg.buffer.pixel(x: x, y: y) : 0xFFFF_FFFF)
        } }
    }
}
