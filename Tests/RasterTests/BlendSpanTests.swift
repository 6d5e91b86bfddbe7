import XCTest
@testable import Raster

/// The SIMD span kernels against the one-pixel reference, `Blend.over`: equal bytes on every input
/// class (all alphas, all coverages, every tail length, in place and from a separate source).
final class BlendSpanTests: XCTestCase {
    /// Pseudo-random pixels, X bytes included (the kernels treat X like any channel).
    private func pixels(_ n: Int, seed: UInt32) -> [UInt32] {
        var s = seed
        return (0..<n).map { _ in s = s &* 1_664_525 &+ 1_013_904_223; return s ^ (s >> 13) }
    }

    func testMultiplyHighIsExactDivisionBy255() {
        var v = SIMD8<UInt16>()
        for t in 0...(255 * 255) {
            v[t & 7] = UInt16(t)
            if t & 7 == 7 || t == 255 * 255 {
                let got = BlendSpans.mulhi257(v &+ 128)
                for i in 0..<8 { XCTAssertEqual(UInt32(got[i]), Blend.div255(UInt32(v[i])), "v=\(v[i])") }
            }
        }
    }

    func testConstantAlphaSpansEqualThePerPixelBlend() {
        let src = pixels(67, seed: 7)
        for alpha in 0...255 {
            let paint = SolidPaint(Color(r: 200, g: 30, b: 99, a: UInt8(alpha)))
            for count in [0, 1, 3, 4, 7, 8, 12, 67] {
                var inPlace = src, fromSource = [UInt32](repeating: 0, count: src.count)
                inPlace.withUnsafeMutableBufferPointer { Blend.fillSpan($0.baseAddress!, 0, count, paint) }
                src.withUnsafeBufferPointer { s in
                    fromSource.withUnsafeMutableBufferPointer { Blend.fillSpan($0.baseAddress!, 0, count, paint, over: s.baseAddress!) }
                }
                for i in 0..<count {
                    let want = paint.alpha == 255 ? paint.opaquePixel : Blend.over(src[i], paint, alpha: paint.alpha)
                    XCTAssertEqual(inPlace[i], want, "alpha \(alpha) count \(count) pixel \(i)")
                    XCTAssertEqual(fromSource[i], want, "over source: alpha \(alpha) count \(count) pixel \(i)")
                }
                XCTAssertEqual(Array(inPlace[count...]), Array(src[count...]), "beyond the span")
            }
        }
    }

    /// From a separate source (the background restored and the halo drawn in one pass): every
    /// length, nothing written past the span even when it ends at the clip's edge.
    func testConstantSpansFromASourceStopAtTheirEnd() {
        let src = pixels(80, seed: 11)
        let paint = BlendSpans.ConstantPaint(SolidPaint(Color(r: 0, g: 122, b: 255), opacity: 22))
        for count in 1...72 {
            var dst = [UInt32](repeating: 0xDEAD_BEEF, count: 80)
            src.withUnsafeBufferPointer { s in
                dst.withUnsafeMutableBufferPointer { BlendSpans.constantFrom(s.baseAddress!, $0.baseAddress!, count, paint) }
            }
            for i in 0..<count { XCTAssertEqual(dst[i], Blend.over(src[i], paint.paint, alpha: 22), "count \(count) pixel \(i)") }
            XCTAssertEqual(Array(dst[count...]), [UInt32](repeating: 0xDEAD_BEEF, count: 80 - count), "count \(count): beyond the span")
        }
    }

    func testCoverageSpansEqualThePerPixelBlendForEveryCoverage() {
        let src = pixels(259, seed: 11)
        let coverage = (0..<259).map { UInt8(truncatingIfNeeded: $0 * 37 + $0 / 7) }
        for (color, opacity) in [(Color(r: 0, g: 0, b: 0), UInt32(255)), (Color(r: 255, g: 255, b: 255), 255),
                                 (Color(r: 0, g: 122, b: 255, a: 115), 255), (Color(r: 12, g: 200, b: 77, a: 240), 200)] {
            let paint = SolidPaint(color, opacity: opacity)
            for count in [1, 2, 5, 8, 9, 259] {
                var inPlace = src, fromSource = [UInt32](repeating: 0, count: src.count)
                inPlace.withUnsafeMutableBufferPointer { Blend.coverageSpan($0.baseAddress!, 0, coverage, count, paint) }
                src.withUnsafeBufferPointer { s in
                    fromSource.withUnsafeMutableBufferPointer { Blend.coverageSpan($0.baseAddress!, 0, coverage, count, paint, over: s.baseAddress!) }
                }
                for i in 0..<count {
                    let want = Blend.over(src[i], paint, alpha: Blend.div255(paint.alpha * UInt32(coverage[i])))
                    XCTAssertEqual(inPlace[i], want, "\(color) count \(count) pixel \(i) coverage \(coverage[i])")
                    XCTAssertEqual(fromSource[i], want, "over source: \(color) count \(count) pixel \(i)")
                }
            }
        }
    }
}
