import XCTest
@testable import Raster

/// A disc's row table (what the painter draws from) holds, row for row, exactly the coverage the
/// rasterizer gives one row at a time — the first and last rows, where both chains meet at a
/// vertex, the turning rows and clipped rows included.
final class DiscRowTableTests: XCTestCase {
    func testEveryRowEqualsTheRasterizersRow() {
        let table = DiscRowTable(), reference = DiscRasterizer()
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        var radii = [40, 128, 255, 256, 300, 700, 1024, 2048, 2816, 4096, 8000, 14_925, 29_850]
        for _ in 0..<40 { radii.append(64 + next(30_000)) }
        for radius in radii {
            for phase in 0..<6 {
                // Centres on the pixel grid, on half pixels and anywhere between.
                let fx = [0, 128, next(256), next(256), 255, 1][phase], fy = [0, 128, next(256), 0, next(256), 255][phase]
                let d = Disc(centerX256: 300 * 256 + fx, centerY256: 260 * 256 + fy, radius256: radius)
                let b = reference.bounds(d)
                // The whole disc, and a clip cutting into it.
                for clip in [b, Rect(x: b.x + b.width / 3, y: b.y + 1, width: b.width / 2 + 1, height: b.height - 2)] where !clip.isEmpty {
                    table.reserve(rows: clip.height + 2, width: clip.width + 2)
                    reference.reserve(width: clip.width + 2)
                    table.rasterize(d, rows: clip.y, clip.maxY, clipX0: clip.x, clipX1: clip.maxX)
                    var expected = [UInt8](repeating: 0, count: clip.width)
                    for y in clip.y..<clip.maxY {
                        expected.withUnsafeMutableBufferPointer {
                            reference.coverageRow(d, y: y, clipX0: clip.x, clipX1: clip.maxX, into: $0.baseAddress!)
                        }
                        XCTAssertEqual(table.coverage(y, clip.x, clip.maxX), expected,
                                       "radius \(radius) phase (\(fx), \(fy)) clip \(clip) row \(y - clip.y)")
                    }
                }
            }
        }
    }
}

extension DiscRowTable {
    /// Row `y` as one coverage per pixel of the clip x0..<x1, its spans and the padding `draw`
    /// reads past the edges checked on the way.
    func coverage(_ y: Int, _ x0: Int, _ x1: Int, file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: x1 - x0)
        let s = span(y)
        if s.isEmpty { return out }
        XCTAssertTrue(s.edgeStart <= s.interiorStart && s.interiorStart <= s.interiorEnd && s.interiorEnd <= s.edgeEnd,
                      "span \(s)", file: file, line: line)
        XCTAssertTrue(s.edgeStart >= x0 && s.edgeEnd <= x1, "span \(s) outside the clip \(x0)..<\(x1)", file: file, line: line)
        XCTAssertEqual(bytes[s.left - 1], 0, file: file, line: line)
        XCTAssertEqual(bytes[s.left + s.interiorStart - s.edgeStart], 255, file: file, line: line)
        XCTAssertEqual(bytes[s.right + s.edgeEnd - s.interiorEnd], 0, file: file, line: line)
        for x in s.edgeStart..<s.interiorStart { out[x - x0] = bytes[s.left + x - s.edgeStart] }
        for x in s.interiorStart..<s.interiorEnd { out[x - x0] = 255 }
        for x in s.interiorEnd..<s.edgeEnd { out[x - x0] = bytes[s.right + x - s.interiorEnd] }
        return out
    }
}
