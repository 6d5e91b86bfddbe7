import CSQLite
import XCTest
@testable import Tiles

/// Reading tiles: the TMS row flip on a map that is not symmetric, the deduplicated layout's view,
/// missing tiles, one statement reused for many reads, and closing.
final class MBTilesReadTests: XCTestCase {
    /// Tiles at zooms 1 to 3 in the northern half only, plus one tile in the far south-east: read
    /// upside down, a northern tile would come back as its southern mirror, which is either missing
    /// or says another tile in its bytes.
    func testXYZTilesComeFromTheMirroredTMSRow() throws {
        let dir = try MBTilesFixture.directory("flip", removedAfter: self)
        let path = dir + "/north.mbtiles"
        let fixture = try MBTilesFixture(path: path, metadata: ["format": "png"])
        var stored: Set<TileID> = []
        for z in 1...3 {
            let side = 1 << z
            for y in 0..<side / 2 { for x in 0..<side { stored.insert(TileID(z: z, x: x, y: y)) } }
            stored.insert(TileID(z: z, x: side - 1, y: side - 1))
        }
        for id in stored { try fixture.insertXYZ(z: id.z, x: id.x, y: id.y) }
        fixture.close()

        let tiles = try MBTiles(path: path)
        for z in 0...3 {
            for y in 0..<(1 << z) {
                for x in 0..<(1 << z) {
                    let id = TileID(z: z, x: x, y: y)
                    let bytes = try tiles.tile(id)
                    if stored.contains(id) {
                        XCTAssertEqual(bytes.map { String(decoding: $0.dropFirst(8), as: UTF8.self) }, "xyz \(z)/\(x)/\(y)")
                    } else {
                        XCTAssertNil(bytes, "\(id) is not in the file")
                    }
                }
            }
        }
        // The derived extent is the northern half plus the south-eastern corner tile: the world.
        XCTAssertEqual(tiles.metadata.bounds.north, TileID(z: 3, x: 0, y: 0).bounds.north)
        XCTAssertEqual(tiles.metadata.bounds.south, TileID(z: 3, x: 7, y: 7).bounds.south)
    }

    func testMissingTilesAreNil() throws {
        let dir = try MBTilesFixture.directory("missing", removedAfter: self)
        let path = dir + "/sparse.mbtiles"
        let fixture = try MBTilesFixture(path: path, metadata: ["format": "png", "minzoom": "0", "maxzoom": "4"])
        try fixture.insertXYZ(z: 4, x: 3, y: 5)
        try fixture.insert(z: 4, x: 4, tmsRow: 0, data: .null)
        try fixture.insert(z: 4, x: 5, tmsRow: 0, data: .blob([]))
        fixture.close()

        let tiles = try MBTiles(path: path)
        XCTAssertEqual(try tiles.tile(TileID(z: 4, x: 3, y: 5)), MBTilesFixture.bytes(z: 4, x: 3, y: 5))
        XCTAssertNil(try tiles.tile(TileID(z: 4, x: 5, y: 3)), "x and y swapped")
        XCTAssertNil(try tiles.tile(TileID(z: 3, x: 3, y: 5)), "another zoom")
        XCTAssertNil(try tiles.tile(TileID(z: 4, x: 4, y: 15)), "a row without data")
        XCTAssertEqual(try tiles.tile(TileID(z: 4, x: 5, y: 15)), [], "an empty tile is a tile")
        for outside in [TileID(z: 4, x: 16, y: 0), TileID(z: 4, x: -1, y: 0), TileID(z: 31, x: 0, y: 0), TileID(z: -1, x: 0, y: 0)] {
            XCTAssertNil(try tiles.tile(outside), "\(outside)")
        }
        XCTAssertEqual(try tiles.tile(TileID(z: 4, x: 3, y: 5)), MBTilesFixture.bytes(z: 4, x: 3, y: 5), "after misses")
    }

    func testTheDeduplicatedLayoutsViewIsRead() throws {
        let dir = try MBTilesFixture.directory("view", removedAfter: self)
        let path = dir + "/dedup.mbtiles"
        let fixture = try MBTilesFixture(path: path, layout: .deduplicated, metadata: ["format": "png", "name": "sea"])
        for (x, y) in [(0, 0), (1, 0), (1, 1)] { try fixture.insertXYZ(z: 1, x: x, y: y, layout: .deduplicated) }
        // Two places sharing one image, as deduplication stores open sea.
        try fixture.run("INSERT INTO images VALUES (?, 'sea')", [.blob(MBTilesFixture.pngSignature + Array("sea".utf8))])
        try fixture.run("INSERT INTO map VALUES (2, 0, 0, 'sea'), (2, 3, 0, 'sea')", [])
        fixture.close()

        let tiles = try MBTiles(path: path)
        XCTAssertEqual(tiles.metadata.name, "sea")
        XCTAssertEqual(tiles.metadata.minZoom, 1)
        XCTAssertEqual(tiles.metadata.maxZoom, 2)
        XCTAssertEqual(tiles.metadata.bounds.south, TileID(z: 2, x: 0, y: 3).bounds.south)
        XCTAssertEqual(tiles.metadata.bounds.north, TileID(z: 2, x: 0, y: 3).bounds.north)
        XCTAssertEqual(tiles.metadata.bounds.west, -180)
        XCTAssertEqual(tiles.metadata.bounds.east, 180)
        for (x, y) in [(0, 0), (1, 0), (1, 1)] {
            XCTAssertEqual(try tiles.tile(TileID(z: 1, x: x, y: y)), MBTilesFixture.bytes(z: 1, x: x, y: y))
        }
        XCTAssertNil(try tiles.tile(TileID(z: 1, x: 0, y: 1)))
        XCTAssertEqual(try tiles.tile(TileID(z: 2, x: 0, y: 3)), try tiles.tile(TileID(z: 2, x: 3, y: 3)))
        XCTAssertEqual(try tiles.tile(TileID(z: 2, x: 3, y: 3)).map { Array($0.dropFirst(8)) }, Array("sea".utf8))
        XCTAssertEqual(try tiles.tileCount(), 5)
    }

    /// Ten thousand tiles read in a scrambled order, misses between them: every answer right, and
    /// all of it through the one prepared statement, reset after each read.
    func testOneStatementServesManyReads() throws {
        let dir = try MBTilesFixture.directory("many", removedAfter: self)
        let path = dir + "/many.mbtiles"
        let fixture = try MBTilesFixture(path: path, metadata: ["format": "png"])
        try fixture.execute("BEGIN")
        let count = 10_000
        for i in 0..<count { try fixture.insertXYZ(z: 7, x: i % 128, y: i / 128) }
        try fixture.execute("COMMIT")
        fixture.close()

        let tiles = try MBTiles(path: path)
        XCTAssertEqual(tiles.openStatementCount, 1, "only the tile statement outlives opening")
        XCTAssertEqual(try tiles.tileCount(), count)
        var misses = 0
        // 7919 is prime to 10,000: i * 7919 mod 10,000 visits every tile once, far from in order.
        for i in 0..<count {
            let n = i * 7919 % count
            let id = TileID(z: 7, x: n % 128, y: n / 128)
            guard let bytes = try tiles.tile(id) else { XCTFail("\(id) missing"); continue }
            if bytes != MBTilesFixture.bytes(z: 7, x: id.x, y: id.y) {
                XCTFail("\(id) read \(String(decoding: bytes.dropFirst(8), as: UTF8.self))")
            }
            if i % 100 == 0 {
                // Row 100 holds no tiles: 10,000 fill rows 0…77 and part of 78.
                XCTAssertNil(try tiles.tile(TileID(z: 7, x: i % 128, y: 100)))
                misses += 1
            }
        }
        XCTAssertEqual(tiles.tileStatementRuns, count + misses)
        XCTAssertFalse(tiles.tileStatementIsBusy)
        XCTAssertEqual(tiles.openStatementCount, 1)
    }

    func testClosingFinalizesAndLaterReadsThrow() throws {
        let dir = try MBTilesFixture.directory("close", removedAfter: self)
        let path = dir + "/map.mbtiles"
        let fixture = try MBTilesFixture(path: path, metadata: ["format": "png"])
        try fixture.insertXYZ(z: 0, x: 0, y: 0)
        fixture.close()

        let tiles = try MBTiles(path: path)
        XCTAssertNotNil(try tiles.tile(TileID(z: 0, x: 0, y: 0)))
        XCTAssertFalse(tiles.isClosed)
        tiles.close()
        XCTAssertTrue(tiles.isClosed)
        XCTAssertEqual(tiles.closeResult, SQLITE_OK, "a statement was left unfinalized")
        XCTAssertThrowsError(try tiles.tile(TileID(z: 0, x: 0, y: 0))) { error in
            XCTAssertEqual(error as? MBTilesError, .closed(path: path))
        }
        XCTAssertThrowsError(try tiles.tileCount())
        tiles.close()
    }
}
