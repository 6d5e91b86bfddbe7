import Foundation
import Geo
import Tiles
import XCTest

/// The metadata table read into `MBTilesMetadata`: every key, keys derived from the tiles when
/// missing, formats, and values that do not parse refused naming the key.
final class MBTilesMetadataTests: XCTestCase {
    func testEveryKeyIsRead() throws {
        let dir = try MBTilesFixture.directory("metadata", removedAfter: self)
        let path = dir + "/city.mbtiles"
        let fixture = try MBTilesFixture(path: path, metadata: [
            "name": "Berlin Mitte", "format": "jpg", "bounds": "13.30, 52.45,13.50,52.58",
            "center": "13.4050,52.5200,14", "minzoom": "10", "attribution": "© OpenStreetMap contributors",
            "type": "baselayer", "description": "not read", "version": "1.3",
        ])
        // Some writers store zooms as numbers, not text.
        try fixture.run("INSERT INTO metadata VALUES ('maxzoom', ?)", [.integer(16)])
        // Tiles at one zoom only, so derived values could not pass for the declared ones.
        try fixture.insertXYZ(z: 12, x: 2200, y: 1343)
        fixture.close()

        let tiles = try MBTiles(path: path)
        let expected = MBTilesMetadata(
            name: "Berlin Mitte", format: .jpeg, bounds: GeoBounds(west: 13.30, south: 52.45, east: 13.50, north: 52.58),
            center: .init(point: GeoPoint(latitude: 52.52, longitude: 13.405), zoom: 14), minZoom: 10, maxZoom: 16,
            attribution: "© OpenStreetMap contributors", type: .baselayer, derivedKeys: [])
        XCTAssertEqual(tiles.metadata, expected)
    }

    func testMissingKeysAreDerivedFromTheTiles() throws {
        let dir = try MBTilesFixture.directory("derived", removedAfter: self)
        let path = dir + "/derived.mbtiles"
        let fixture = try MBTilesFixture(path: path, metadata: ["name": "no extent", "format": "png"])
        try fixture.insertXYZ(z: 3, x: 4, y: 2)
        // At the deepest zoom: columns 17…19, rows 9…12 (y down), not a square, off the centre.
        for (x, y) in [(17, 9), (19, 10), (18, 12), (17, 11)] { try fixture.insertXYZ(z: 5, x: x, y: y) }
        // Rows outside the pyramid are ignored, not taken for the deepest zoom or the extent.
        try fixture.insert(z: 40, x: 0, tmsRow: 0, data: .blob([1]))
        try fixture.insert(z: 5, x: 99, tmsRow: 0, data: .blob([1]))
        fixture.close()

        let metadata = try MBTiles(path: path).metadata
        XCTAssertEqual(metadata.minZoom, 3)
        XCTAssertEqual(metadata.maxZoom, 5)
        XCTAssertEqual(metadata.derivedKeys, ["bounds", "maxzoom", "minzoom"])
        func longitude(_ x: Double) -> Double { x / 32 * 360 - 180 }
        func latitude(_ y: Double) -> Double { atan(sinh(Double.pi * (1 - 2 * y / 32))) * 180 / .pi }
        XCTAssertEqual(metadata.bounds.west, longitude(17), accuracy: 1e-9)
        XCTAssertEqual(metadata.bounds.east, longitude(20), accuracy: 1e-9)
        XCTAssertEqual(metadata.bounds.north, latitude(9), accuracy: 1e-9)
        XCTAssertEqual(metadata.bounds.south, latitude(13), accuracy: 1e-9)
        XCTAssertNil(metadata.center)
        XCTAssertNil(metadata.attribution)
        XCTAssertNil(metadata.type)
    }

    /// A declared zoom range with missing bounds: the extent comes from the deepest zoom present.
    func testOnlyTheMissingKeysAreDerived() throws {
        let dir = try MBTilesFixture.directory("partly", removedAfter: self)
        let path = dir + "/partly.mbtiles"
        let fixture = try MBTilesFixture(path: path, metadata: ["format": "png", "minzoom": "0", "maxzoom": "1"])
        try fixture.insertXYZ(z: 1, x: 0, y: 1)
        fixture.close()
        let metadata = try MBTiles(path: path).metadata
        XCTAssertEqual(metadata.derivedKeys, ["bounds"])
        XCTAssertEqual(metadata.minZoom, 0)
        XCTAssertEqual(metadata.maxZoom, 1)
        XCTAssertEqual(metadata.bounds.west, -180)
        XCTAssertEqual(metadata.bounds.east, 0)
        XCTAssertEqual(metadata.bounds.north, 0, accuracy: 1e-12)
        XCTAssertEqual(metadata.bounds.south, -MapProjection.maxLatitude, accuracy: 1e-8)
        XCTAssertNil(metadata.name)
    }

    func testFormatNamesAndFormatFromTheTilesBytes() throws {
        let dir = try MBTilesFixture.directory("formats", removedAfter: self)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]
        let webp: [UInt8] = Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        let cases: [(format: String?, tile: [UInt8], expected: TileFormat)] = [
            ("png", [0], .png), ("PNG", [0], .png), ("image/png", [0], .png), ("jpg", [0], .jpeg),
            ("jpeg", [0], .jpeg), ("image/jpeg", [0], .jpeg), ("webp", [0], .webp),
            (nil, MBTilesFixture.pngSignature, .png), (nil, jpeg, .jpeg), (nil, webp, .webp),
        ]
        for (i, c) in cases.enumerated() {
            let path = dir + "/\(i).mbtiles"
            let fixture = try MBTilesFixture(path: path, metadata: c.format.map { ["format": $0] } ?? [:])
            try fixture.insert(z: 0, x: 0, tmsRow: 0, data: .blob(c.tile))
            fixture.close()
            let metadata = try MBTiles(path: path).metadata
            XCTAssertEqual(metadata.format, c.expected, "format \(c.format ?? "missing"), tile \(c.tile)")
            XCTAssertEqual(metadata.derivedKeys.contains("format"), c.format == nil)
        }
    }

    func testVectorTilesAreRefusedInOneLine() throws {
        let dir = try MBTilesFixture.directory("vector", removedAfter: self)
        let path = dir + "/roads.mbtiles"
        let fixture = try MBTilesFixture(path: path, metadata: ["format": "pbf", "name": "roads"])
        try fixture.insert(z: 0, x: 0, tmsRow: 0, data: .blob([0x1F, 0x8B, 8, 0]))
        fixture.close()
        XCTAssertThrowsError(try MBTiles(path: path)) { error in
            XCTAssertEqual(error as? MBTilesError, .vectorTiles(path: path, format: "pbf"))
            XCTAssertEqual("\(error)", "\(path): holds vector tiles (format=pbf); PulseDot draws raster tiles (png, jpg)")
        }
        // Without a format key, gzip-compressed tiles are vector tiles all the same.
        let unnamed = dir + "/unnamed.mbtiles"
        let second = try MBTilesFixture(path: unnamed, metadata: [:])
        try second.insert(z: 0, x: 0, tmsRow: 0, data: .blob([0x1F, 0x8B, 8, 0]))
        second.close()
        XCTAssertThrowsError(try MBTiles(path: unnamed)) { error in
            XCTAssertEqual(error as? MBTilesError, .vectorTiles(path: unnamed, format: nil))
            XCTAssertEqual("\(error)", "\(unnamed): holds vector tiles (no format key, compressed tiles); PulseDot draws raster tiles (png, jpg)")
        }
    }

    func testUnknownFormatsAreRefusedNamingTheFormat() throws {
        let dir = try MBTilesFixture.directory("unknown", removedAfter: self)
        let path = dir + "/scan.mbtiles"
        let fixture = try MBTilesFixture(path: path, metadata: ["format": "tiff\nnext line"])
        try fixture.insertXYZ(z: 0, x: 0, y: 0)
        fixture.close()
        XCTAssertThrowsError(try MBTiles(path: path)) { error in
            XCTAssertEqual(error as? MBTilesError, .unknownFormat(path: path, format: "tiff\nnext line"))
            XCTAssertEqual("\(error)", "\(path): tile format \"tiff\\u{a}next line\" is not one PulseDot reads (png, jpg, webp)")
        }
        let unmarked = dir + "/unmarked.mbtiles"
        let second = try MBTilesFixture(path: unmarked, metadata: [:])
        try second.insert(z: 0, x: 0, tmsRow: 0, data: .blob(Array("GIF89a".utf8)))
        second.close()
        XCTAssertThrowsError(try MBTiles(path: unmarked)) { error in
            XCTAssertEqual(error as? MBTilesError, .undeterminedFormat(path: unmarked))
        }
    }

    func testValuesThatDoNotParseAreRefusedNamingTheKey() throws {
        let dir = try MBTilesFixture.directory("bad", removedAfter: self)
        let cases: [(key: String, value: String)] = [
            ("bounds", "13.3,52.4,13.5"), ("bounds", "13.3,52.6,13.5,52.4"), ("bounds", "west,south,east,north"),
            ("bounds", "13.3,52.4,200,52.6"), ("center", "13.4"), ("center", "13.4,52.5,14.5"),
            ("minzoom", "ten"), ("maxzoom", "31"), ("maxzoom", "-1"), ("type", "basemap"),
        ]
        for (i, c) in cases.enumerated() {
            let path = dir + "/\(i).mbtiles"
            let fixture = try MBTilesFixture(path: path, metadata: ["format": "png", c.key: c.value])
            try fixture.insertXYZ(z: 0, x: 0, y: 0)
            fixture.close()
            XCTAssertThrowsError(try MBTiles(path: path), "\(c.key)=\(c.value)") { error in
                guard case let .badMetadata(file, key, value, _)? = error as? MBTilesError else { return XCTFail("\(error)") }
                XCTAssertEqual([file, key, value], [path, c.key, c.value])
                XCTAssertTrue("\(error)".hasPrefix("\(path): metadata \(c.key) \"\(c.value)\" is not "), "\(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
        // A declared range the wrong way round.
        let path = dir + "/range.mbtiles"
        let fixture = try MBTilesFixture(path: path, metadata: ["format": "png", "minzoom": "9", "maxzoom": "4"])
        try fixture.insertXYZ(z: 4, x: 0, y: 0)
        fixture.close()
        XCTAssertThrowsError(try MBTiles(path: path)) { error in
            XCTAssertEqual("\(error)", "\(path): metadata minzoom \"9\" is not at most maxzoom (4)")
        }
    }
}
