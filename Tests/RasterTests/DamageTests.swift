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
    /// frame's damage and the previous one's; places apart stay apart.
    func testDamageKeepsThisAndThePreviousFrame() {
        var d = Damage(bounds: Rect(x: 0, y: 0, width: 100, height: 50))
        let a = Rect(x: 10, y: 10, width: 5, height: 5), b = Rect(x: 20, y: 12, width: 5, height: 5)
        d.add(a)
        d.add(b)
        XCTAssertEqual(parts(d.current), [a, b])
        XCTAssertEqual(d.current.area, 50)
        XCTAssertEqual(d.current.bounds, Rect(x: 10, y: 10, width: 15, height: 7))
        XCTAssertEqual(d.union, d.current)
        d.endFrame()
        XCTAssertEqual(parts(d.previous), [a, b])
        XCTAssertTrue(d.current.isEmpty)
        d.add(Rect(x: 90, y: 40, width: 30, height: 30))  // clipped to the canvas
        XCTAssertEqual(parts(d.current), [Rect(x: 90, y: 40, width: 10, height: 10)])
        XCTAssertEqual(d.union.area, 150)
        XCTAssertEqual(d.union.bounds, Rect(x: 10, y: 10, width: 90, height: 40))
        d.endFrame()
        d.endFrame()
        XCTAssertTrue(d.union.isEmpty, "two quiet frames: nothing left to copy")
        d.addAll()
        XCTAssertEqual(parts(d.current), [d.bounds])
    }

    /// Overlapping parts are joined, so no pixel is restored or copied twice, and a join that
    /// reaches a part added earlier takes it in too.
    func testOverlappingPartsAreJoinedUntilNoneOverlap() {
        var r = DamageRegion()
        r.add(Rect(x: 0, y: 0, width: 10, height: 10))
        r.add(Rect(x: 30, y: 0, width: 10, height: 10))
        r.add(.empty)
        XCTAssertEqual(r.count, 2)
        r.add(Rect(x: 5, y: 5, width: 10, height: 10))
        XCTAssertEqual(Set(parts(r)), [Rect(x: 0, y: 0, width: 15, height: 15), Rect(x: 30, y: 0, width: 10, height: 10)])
        // Touches only the first part, but the join reaches the second.
        r.add(Rect(x: 12, y: 12, width: 20, height: 3))
        XCTAssertEqual(parts(r), [Rect(x: 0, y: 0, width: 40, height: 15)])
        XCTAssertTrue(r.meets(Rect(x: 39, y: 14, width: 5, height: 5)))
        XCTAssertFalse(r.meets(Rect(x: 40, y: 0, width: 5, height: 5)))
    }

    /// Past its capacity a region joins the newcomer with the part it grows least, and stays
    /// disjoint and complete: every pixel added is covered.
    func testAFullRegionJoinsTheCheapestPairAndCoversEverything() {
        var r = DamageRegion()
        var added: [Rect] = []
        for i in 0..<(DamageRegion.capacity + 8) {
            let rect = Rect(x: (i % 8) * 100, y: (i / 8) * 100, width: 10, height: 10)
            added.append(rect)
            r.add(rect)
            XCTAssertLessThanOrEqual(r.count, DamageRegion.capacity)
        }
        XCTAssertEqual(r.count, DamageRegion.capacity)
        let kept = parts(r)
        for a in added { XCTAssertTrue(kept.contains { $0.intersection(a) == a }, "\(a) covered") }
        for i in kept.indices { for j in kept.indices where i < j { XCTAssertTrue(kept[i].intersection(kept[j]).isEmpty) } }
        // Eight extra parts on a 100-px grid: each join is two neighbours 100 px apart.
        XCTAssertLessThan(r.area, added.count * 100 + 8 * 1100)
    }

    private func parts(_ r: DamageRegion) -> [Rect] { (0..<r.count).map { r[$0] } }
}
