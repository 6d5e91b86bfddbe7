import Raster
import TileDecode
import XCTest

/// A missing zoom from its parent: each child's part of the parent, every pixel repeated, in the
/// right place.
final class TileScalerTests: XCTestCase {
    /// A parent whose every pixel names its own position: x in the low 12 bits, y in the next 12
    /// (the X byte 0xFF), so a child's pixel says where in the parent it came from.
    private func namedParent(_ size: TileSize) -> OwnedPixelBuffer {
        let parent = OwnedPixelBuffer(width: size.pixels, height: size.pixels, format: .xrgb8888)
        for y in 0..<size.pixels {
            let row = parent.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<size.pixels { row[x] = 0xFF00_0000 | UInt32(y) << 12 | UInt32(x) }
        }
        return parent
    }

    private func assertChildren(_ size: TileSize, levels: Int, file: StaticString = #filePath, line: UInt = #line) {
        let n = size.pixels, factor = 1 << levels
        let parent = namedParent(size)
        for row in 0..<factor {
            for column in 0..<factor {
                let child = TileFixtures.slot(size)
                TileScaler.enlarge(parent, levels: levels, column: column, row: row, into: child)
                var wrong = 0, first = ""
                for y in 0..<n {
                    let pixels = child.buffer.row(y).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<n {
                        // The child's (x, y) is the parent's (column·n + x, row·n + y) / factor.
                        let expected = 0xFF00_0000 | UInt32((row * n + y) / factor) << 12 | UInt32((column * n + x) / factor)
                        if pixels[x] != expected {
                            if wrong == 0 { first = "(\(x), \(y)) is \(String(pixels[x], radix: 16)), expected \(String(expected, radix: 16))" }
                            wrong += 1
                        }
                    }
                }
                XCTAssertEqual(wrong, 0, "\(n) px, \(levels) levels, column \(column) row \(row): \(first)", file: file, line: line)
            }
        }
    }

    func testTwiceEachQuarterInItsPlace() {
        assertChildren(.px256, levels: 1)
        assertChildren(.px512, levels: 1)
    }

    func testFourTimesEachSixteenthInItsPlace() {
        assertChildren(.px256, levels: 2)
        assertChildren(.px512, levels: 2)
    }

    func testTheTopRightQuarterOfAnAsymmetricTile() {
        // Spelled out once: the parent's top-right quarter is red, the rest blue. The child at
        // column 1, row 0 is all red; the one at column 0, row 1 all blue.
        let parent = TileFixtures.slot(.px256)
        for y in 0..<256 {
            let row = parent.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<256 { row[x] = x >= 128 && y < 128 ? 0xFFFF_0000 : 0xFF00_00FF }
        }
        let topRight = TileFixtures.slot(.px256), bottomLeft = TileFixtures.slot(.px256)
        TileScaler.enlarge(parent, levels: 1, column: 1, row: 0, into: topRight)
        TileScaler.enlarge(parent, levels: 1, column: 0, row: 1, into: bottomLeft)
        XCTAssertTrue(topRight.bytes.bindMemory(to: UInt32.self).allSatisfy { $0 == 0xFFFF_0000 })
        XCTAssertTrue(bottomLeft.bytes.bindMemory(to: UInt32.self).allSatisfy { $0 == 0xFF00_00FF })
    }
}
