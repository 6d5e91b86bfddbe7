@testable import Demo
import Foundation
import Raster
import XCTest

/// The built-in map: the town's plan in flat colours, with the bus line on the route's pixels.
final class DemoMapTests: XCTestCase {
    // One drawing for every test (it takes a moment in a debug build).
    static let map = DemoMap.draw()

    private func colour(_ x: Double, _ y: Double) -> UInt32 {
        Self.map.buffer.pixel(x: Int(x), y: Int(y)) & 0xFF_FFFF
    }

    private func rgb(_ c: Color) -> UInt32 { UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b) }

    func testSizeAndFormat() {
        XCTAssertEqual(Self.map.buffer.width, DemoTown.width)
        XCTAssertEqual(Self.map.buffer.height, DemoTown.height)
        XCTAssertEqual(Self.map.buffer.format, .xrgb8888)
    }

    func testTheBusLineLiesOnTheRoute() {
        let route = DemoTown().route
        var s = 0.0
        while s < route.length {
            let p = route.point(at: s)
            let stop = [DemoTown.stopA, DemoTown.stopB, DemoTown.terminal].contains { abs($0.x - p.x) < 14 && abs($0.y - p.y) < 14 }
            if !stop { XCTAssertEqual(colour(p.x, p.y), rgb(DemoMap.line), "no line at \(p)") }
            s += 7
        }
        // Beside the line: the arterial's yellow, then its casing.
        XCTAssertEqual(colour(2500, 590 + 7), rgb(DemoMap.arterial))
        XCTAssertEqual(colour(2500, 590 + 10), rgb(DemoMap.arterialCasing))
        // The route's other streets and avenues are arterials too; a side street is white.
        let arterials: [(x: Double, y: Double)] = [(2853, 1000), (2300, 1957), (2163, 2100), (1400, 2297), (1257, 900)]
        for (x, y) in arterials {
            XCTAssertEqual(colour(x, y), rgb(DemoMap.arterial), "at \(x), \(y)")
        }
        XCTAssertEqual(colour(2500, 2120 + 5), rgb(DemoMap.street))
    }

    func testStreetsParkWaterAndBlocks() {
        XCTAssertEqual(colour(330, 300), rgb(DemoMap.street), "a side avenue")
        XCTAssertEqual(colour(200, 250), rgb(DemoMap.street), "a side street")
        XCTAssertEqual(colour(2100, 450), rgb(DemoMap.park), "the park")
        XCTAssertEqual(colour(DemoTown.pond.x, DemoTown.pond.y), rgb(DemoMap.water), "the pond")
        for x in [200.0, 1300, 2500, 3900] {
            XCTAssertEqual(colour(x, DemoTown.river(atX: x).center), rgb(DemoMap.water), "the river at x = \(x)")
        }
        let blockOrBuilding = [rgb(DemoMap.block), rgb(DemoMap.building)]
        XCTAssertTrue(blockOrBuilding.contains(colour(445, 335)), "inside a block")
        XCTAssertTrue(blockOrBuilding.contains(colour(1700 + 115, 1180)), "inside a block")
    }

    func testTheBridgeCrossesTheWaterAndTheTunnelShowsItThrough() {
        // Both bridges (arterials): the arterial's surface over the river, between parapets.
        for x in DemoTown.bridges.map(Double.init) {
            let r = DemoTown.river(atX: x)
            XCTAssertEqual(colour(x - 7, r.center), rgb(DemoMap.arterial))
            XCTAssertEqual(colour(x - 11, r.center), rgb(DemoMap.bridgeCasing))
        }
        // A side avenue stops at the bank.
        XCTAssertEqual(colour(1940, DemoTown.river(atX: 1940).center), rgb(DemoMap.water))
        // The tunnel: the river is still seen over it (a faint roadway, not a bridge).
        let t = DemoTown.river(atX: 1250)
        let over = colour(1250 - 7, t.center)
        XCTAssertNotEqual(over, rgb(DemoMap.water))
        XCTAssertNotEqual(over, rgb(DemoMap.arterial))
        XCTAssertGreaterThan(over & 0xFF, 0xE0, "the tunnel's roadway is a light wash over the water")
    }

    func testTheSameBytesEveryTime() {
        let again = DemoMap.draw()
        withExtendedLifetime(again) {
            let a = Self.map.buffer, b = again.buffer
            var differing = 0
            for y in 0..<a.height where memcmp(a.row(y), b.row(y), a.width * 4) != 0 { differing += 1 }
            XCTAssertEqual(differing, 0)
        }
    }
}
