import XCTest
import Raster

final class RotationTests: XCTestCase {
    // kms.md: with 90, logical (x, y) on an H×W logical canvas lands on physical (W−1−y, x).
    func testPixelMappingOfEachTurn() {
        let lw = 5, lh = 3  // logical canvas 5 wide, 3 tall
        XCTAssertTrue(Rotation.r0.map(x: 1, y: 2, logicalWidth: lw, logicalHeight: lh) == (1, 2))
        // r90: the panel is 3 wide (W = 3) and 5 tall: (W−1−y, x).
        XCTAssertTrue(Rotation.r90.map(x: 1, y: 2, logicalWidth: lw, logicalHeight: lh) == (0, 1))
        XCTAssertTrue(Rotation.r90.map(x: 0, y: 0, logicalWidth: lw, logicalHeight: lh) == (2, 0), "top-left goes top-right")
        XCTAssertTrue(Rotation.r180.map(x: 1, y: 2, logicalWidth: lw, logicalHeight: lh) == (3, 0))
        XCTAssertTrue(Rotation.r270.map(x: 0, y: 0, logicalWidth: lw, logicalHeight: lh) == (0, 4), "top-left goes bottom-left")
        XCTAssertTrue(Rotation.r270.map(x: 1, y: 2, logicalWidth: lw, logicalHeight: lh) == (2, 3))
    }

    func testEveryTurnIsABijectionAndItsInverseUndoesIt() {
        let lw = 7, lh = 4
        for rot in Rotation.allCases {
            let (pw, ph) = rot.physicalSize(logicalWidth: lw, logicalHeight: lh)
            var seen = Set<Int>()
            for y in 0..<lh { for x in 0..<lw {
                let p = rot.map(x: x, y: y, logicalWidth: lw, logicalHeight: lh)
                XCTAssertTrue(p.x >= 0 && p.x < pw && p.y >= 0 && p.y < ph)
                seen.insert(p.y * pw + p.x)
                let back = rot.inverse.map(x: p.x, y: p.y, logicalWidth: pw, logicalHeight: ph)
                XCTAssertTrue(back == (x, y), "\(rot) (\(x),\(y))")
            } }
            XCTAssertEqual(seen.count, lw * lh)
            XCTAssertEqual(Rotation(degrees: rot.degrees), rot)
        }
        XCTAssertNil(Rotation(degrees: 45))
    }

    func testRectMappingHoldsExactlyTheMappedPixels() {
        let lw = 9, lh = 6
        let rects = [Rect(x: 0, y: 0, width: 1, height: 1), Rect(x: 2, y: 1, width: 4, height: 3),
                     Rect(x: 0, y: 0, width: 9, height: 6), Rect(x: 8, y: 5, width: 1, height: 1)]
        for rot in Rotation.allCases { for r in rects {
            let m = rot.map(rect: r, logicalWidth: lw, logicalHeight: lh)
            XCTAssertEqual(m.area, r.area)
            for y in r.y..<r.maxY { for x in r.x..<r.maxX {
                let p = rot.map(x: x, y: y, logicalWidth: lw, logicalHeight: lh)
                XCTAssertTrue(m.contains(x: p.x, y: p.y), "\(rot) \(r) -> \(m) misses (\(x),\(y))")
            } }
        } }
        XCTAssertEqual(Rotation.r90.map(rect: Rect(x: 2, y: 1, width: 4, height: 3), logicalWidth: lw, logicalHeight: lh),
                       Rect(x: 2, y: 2, width: 3, height: 4))
        XCTAssertEqual(Rotation.r90.map(rect: .empty, logicalWidth: lw, logicalHeight: lh), .empty)
    }
}
