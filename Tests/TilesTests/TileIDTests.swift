import Foundation
import Geo
import Tiles
import XCTest

/// XYZ and TMS rows, and the area a tile covers, checked against the formulas written out here.
final class TileIDTests: XCTestCase {
    func testTMSRowIsTheRowCountedFromTheBottom() {
        XCTAssertEqual(TileID(z: 0, x: 0, y: 0).tmsRow, 0)
        XCTAssertEqual(TileID(z: 1, x: 0, y: 0).tmsRow, 1)
        XCTAssertEqual(TileID(z: 3, x: 5, y: 0).tmsRow, 7)
        XCTAssertEqual(TileID(z: 3, x: 5, y: 6).tmsRow, 1)
        XCTAssertEqual(TileID(z: 18, x: 140_000, y: 85_000).tmsRow, 262_143 - 85_000)
        XCTAssertEqual(TileID(z: 30, x: 0, y: 0).tmsRow, (1 << 30) - 1)
        for z in 0...12 {
            let side = 1 << z
            for y in [0, side / 3, side / 2, side - 1] {
                let id = TileID(z: z, x: side / 2, y: y)
                XCTAssertEqual(id.tmsRow, side - 1 - y)
                XCTAssertEqual(TileID(z: z, x: id.x, tmsRow: id.tmsRow), id, "\(id) does not come back from its TMS row")
            }
        }
    }

    func testValidTilesAreThoseInsideThePyramid() {
        XCTAssertTrue(TileID(z: 0, x: 0, y: 0).isValid)
        XCTAssertTrue(TileID(z: 4, x: 15, y: 15).isValid)
        XCTAssertFalse(TileID(z: 4, x: 16, y: 0).isValid)
        XCTAssertFalse(TileID(z: 4, x: 0, y: 16).isValid)
        XCTAssertFalse(TileID(z: 4, x: -1, y: 0).isValid)
        XCTAssertFalse(TileID(z: -1, x: 0, y: 0).isValid)
        XCTAssertTrue(TileID(z: 30, x: (1 << 30) - 1, y: 0).isValid)
        XCTAssertFalse(TileID(z: 31, x: 0, y: 0).isValid)
        XCTAssertFalse(TileID(z: 64, x: 0, y: 0).isValid)
        XCTAssertEqual(TileID(z: 7, x: 1, y: 2).description, "7/1/2")
    }

    func testBoundsAreTheTilesEdgesInDegrees() {
        let world = TileID(z: 0, x: 0, y: 0).bounds
        XCTAssertEqual(world.west, -180)
        XCTAssertEqual(world.east, 180)
        XCTAssertEqual(world.north, MapProjection.maxLatitude, accuracy: 1e-8)
        XCTAssertEqual(world.south, -MapProjection.maxLatitude, accuracy: 1e-8)
        // XYZ y grows southward: tile 1/1/0 is the north-eastern quarter.
        let northEast = TileID(z: 1, x: 1, y: 0).bounds
        XCTAssertEqual(northEast.west, 0)
        XCTAssertEqual(northEast.east, 180)
        XCTAssertEqual(northEast.south, 0, accuracy: 1e-12)
        XCTAssertEqual(northEast.north, MapProjection.maxLatitude, accuracy: 1e-8)
        // A street-level tile against the formula with the C library's functions.
        let id = TileID(z: 16, x: 35_210, y: 21_493)
        func latitude(_ y: Int) -> Double { atan(sinh(Double.pi * (1 - 2 * Double(y) / 65_536))) * 180 / .pi }
        XCTAssertEqual(id.bounds.west, 35_210 / 65_536 * 360 - 180, accuracy: 1e-9)
        XCTAssertEqual(id.bounds.east, 35_211 / 65_536 * 360 - 180, accuracy: 1e-9)
        XCTAssertEqual(id.bounds.north, latitude(21_493), accuracy: 1e-9)
        XCTAssertEqual(id.bounds.south, latitude(21_494), accuracy: 1e-9)
    }
}
