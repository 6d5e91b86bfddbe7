import XCTest
import Raster

final class DamageTests: XCTestCase {
    func testRectUnionAndIntersection() {
        let a = Rect(x: 0, y: 0, width: 4, height: 4), b = Rect(x: 6, y: 2, width: 2, height: 5)
        XCTAssertEqual(a.union(b), Rect(x: 0, y: 0, width: 8, height: 7))
        XCTAssertEqual(a.union(.empty), a)
        XCTAssertEqual(Rect.empty.union(b), b)
        XCTAssertEqual(a.intersection(b), .empty)
        XCTAssertEqual(a.intersection(Rect(x: 2, y: -1, width: 10, height: 3)), Rect(x: 2, y: 0, width: 2, height: 2))
    }

    /// Double buffering: the buffer being drawn was last written two frames ago, so it needs this
    /// frame's damage and the previous one's.
    func testDamageKeepsThisAndThePreviousFrame() {
        var d = Damage(bounds: Rect(x: 0, y: 0, width: 100, height: 50))
        d.add(Rect(x: 10, y: 10, width: 5, height: 5))
        d.add(Rect(x: 20, y: 12, width: 5, height: 5))
        XCTAssertEqual(d.current, Rect(x: 10, y: 10, width: 15, height: 7))
        XCTAssertEqual(d.union, d.current)
        d.endFrame()
        XCTAssertEqual(d.previous, Rect(x: 10, y: 10, width: 15, height: 7))
        XCTAssertEqual(d.current, .empty)
        d.add(Rect(x: 90, y: 40, width: 30, height: 30))  // clipped to the canvas
        XCTAssertEqual(d.current, Rect(x: 90, y: 40, width: 10, height: 10))
        XCTAssertEqual(d.union, Rect(x: 10, y: 10, width: 90, height: 40))
        d.endFrame()
        d.endFrame()
        XCTAssertEqual(d.union, .empty, "two quiet frames: nothing left to copy")
        d.addAll()
        XCTAssertEqual(d.current, d.bounds)
    }
}
