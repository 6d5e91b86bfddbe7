import Foundation
import Geo
import Raster
import TestSupport
import TileDecode
import Tiles
import XCTest

/// Tiles made by GDAL read through the project's own readers (`MBTiles`, `TileFolder`) and decoded
/// by `TileDecoder`: every pixel is the source image's pixel at that place (PNG exactly, JPEG within
/// its loss), and the fixture's idea of where a point falls on the source is GDAL's own.
final class TileInteropFixtureTests: XCTestCase {
    typealias Fixture = TileInteropFixture

    private func fixture() throws -> Fixture { try Fixture.shared() }

    /// What transparent tile pixels are composed onto: blue 255 is in no source pixel.
    static let background = Color(r: 255, g: 0, b: 255)
    static let backgroundRGB = Fixture.RGB(r: 255, g: 0, b: 255)

    /// A tile decoded as the daemon decodes it, as rows of colours.
    private func decode(_ read: TileRead, _ id: TileID, file: StaticString = #filePath, line: UInt = #line) throws -> [Fixture.RGB] {
        guard case let .bytes(bytes) = read else { throw TestFailure("tile \(id): \(read), not bytes") }
        let slot = OwnedPixelBuffer(width: Fixture.tilePixels, height: Fixture.tilePixels, format: .xrgb8888)
        try withExtendedLifetime(slot) {
            _ = try TileDecoder(tileSize: .px256, background: Self.background).decode(bytes, into: slot.buffer)
        }
        let raw = slot.bytes
        return (0..<Fixture.tilePixels * Fixture.tilePixels).map { Fixture.RGB(r: raw[$0 * 4 + 2], g: raw[$0 * 4 + 1], b: raw[$0 * 4]) }
    }

    /// The source's extent in degrees, from the fixture's own grid.
    private func sourceBounds() -> (west: Double, south: Double, east: Double, north: Double) {
        let pixels = Double(Fixture.tilePixels << Fixture.zoom)
        let northWest = Fixture.coordinate(worldX: Double(Fixture.firstColumn * Fixture.tilePixels) / pixels,
                                           worldY: Double(Fixture.firstRow * Fixture.tilePixels) / pixels)
        let southEast = Fixture.coordinate(worldX: Double((Fixture.firstColumn + Fixture.columns) * Fixture.tilePixels) / pixels,
                                           worldY: Double((Fixture.firstRow + Fixture.rows) * Fixture.tilePixels) / pixels)
        return (northWest.longitude, southEast.latitude, southEast.longitude, northWest.latitude)
    }

    func testGDALsMBTilesOpenWithTheExtentItWrote() throws {
        let fixture = try fixture()
        let expected = sourceBounds()
        for (product, format) in [(Fixture.Product.mbtilesPNG, TileFormat.png), (.mbtilesJPEG, .jpeg)] {
            let tiles = try MBTiles(path: fixture.path(product))
            let metadata = tiles.metadata
            XCTAssertEqual(metadata.format, format)
            XCTAssertEqual(metadata.minZoom, Fixture.mbtilesZoom)
            XCTAssertEqual(metadata.maxZoom, Fixture.mbtilesZoom)
            XCTAssertEqual(metadata.derivedKeys, [], "GDAL writes format, bounds and zooms")
            XCTAssertEqual(metadata.bounds.west, expected.west, accuracy: 1e-9)
            XCTAssertEqual(metadata.bounds.east, expected.east, accuracy: 1e-9)
            XCTAssertEqual(metadata.bounds.north, expected.north, accuracy: 1e-9)
            XCTAssertEqual(metadata.bounds.south, expected.south, accuracy: 1e-9)
            XCTAssertEqual(try tiles.tileCount(), fixture.produced[product]?[Fixture.mbtilesZoom]?.count)
        }
    }

    func testPNGMBTilesAreTheSourcePixelForPixel() throws {
        let fixture = try fixture()
        let tiles = try MBTiles(path: fixture.path(.mbtilesPNG))
        let level = try XCTUnwrap(fixture.produced[.mbtilesPNG]?[Fixture.mbtilesZoom])
        for x in level.west...level.east {
            for y in level.north...level.south {
                let id = TileID(z: Fixture.mbtilesZoom, x: x, y: y)
                try assertTile(try decode(tiles.read(id), id), is: id, exact: true)
            }
        }
        XCTAssertEqual(tiles.read(TileID(z: Fixture.mbtilesZoom, x: level.east + 1, y: level.north)), .missing)
        XCTAssertEqual(tiles.read(TileID(z: Fixture.zoom, x: Fixture.firstColumn, y: Fixture.firstRow)), .missing)
    }

    func testJPEGMBTilesAreTheSourceWithinJPEGsLoss() throws {
        let fixture = try fixture()
        let tiles = try MBTiles(path: fixture.path(.mbtilesJPEG))
        let level = try XCTUnwrap(fixture.produced[.mbtilesJPEG]?[Fixture.mbtilesZoom])
        for x in level.west...level.east {
            for y in level.north...level.south {
                let id = TileID(z: Fixture.mbtilesZoom, x: x, y: y)
                try assertTile(try decode(tiles.read(id), id), is: id, exact: false)
            }
        }
    }

    func testXYZFolderTilesAreTheSourcePixelForPixel() throws {
        try assertFolder(.xyzFolder, scheme: .xyz)
    }

    func testTMSFolderTilesAreTheSourcePixelForPixel() throws {
        try assertFolder(.tmsFolder, scheme: .tms)
        // The same files taken for XYZ rows are not this map: none of its tiles is where it was.
        let path = try fixture().path(.tmsFolder)
        let wrong = try TileFolder(path: path, scheme: .xyz)
        XCTAssertEqual(wrong.read(TileID(z: Fixture.zoom, x: Fixture.firstColumn, y: Fixture.firstRow)), .missing)
        XCTAssertEqual(wrong.metadata.bounds.north, -(try TileFolder(path: path, scheme: .tms).metadata.bounds.south), accuracy: 1e-9,
                       "rows mirrored about the equator")
    }

    /// A folder opened with `TileFolder`: its listing is what gdal2tiles wrote, and every tile is
    /// the source where the source is, the background more than a pixel away from it.
    private func assertFolder(_ product: Fixture.Product, scheme: TileScheme, file: StaticString = #filePath, line: UInt = #line) throws {
        let fixture = try fixture()
        let folder = try TileFolder(path: fixture.path(product), scheme: scheme)
        let level = try XCTUnwrap(fixture.produced[product]?[Fixture.zoom], file: file, line: line)
        let metadata = folder.metadata
        XCTAssertEqual(metadata.format, .png, file: file, line: line)
        XCTAssertEqual(folder.fileExtension, "png", file: file, line: line)
        XCTAssertEqual(metadata.minZoom, Fixture.zoom, file: file, line: line)
        XCTAssertEqual(metadata.maxZoom, Fixture.zoom, file: file, line: line)
        XCTAssertEqual(folder.tileCount, level.count, file: file, line: line)
        XCTAssertNil(metadata.center, file: file, line: line)
        // The extent of the tiles written, ring included.
        let side = Double(1 << Fixture.zoom)
        let northWest = Fixture.coordinate(worldX: Double(level.west) / side, worldY: Double(level.north) / side)
        let southEast = Fixture.coordinate(worldX: Double(level.east + 1) / side, worldY: Double(level.south + 1) / side)
        XCTAssertEqual(metadata.bounds.west, northWest.longitude, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(metadata.bounds.north, northWest.latitude, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(metadata.bounds.east, southEast.longitude, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(metadata.bounds.south, southEast.latitude, accuracy: 1e-9, file: file, line: line)

        for x in level.west...level.east {
            for y in level.north...level.south {
                let id = TileID(z: Fixture.zoom, x: x, y: y)
                try assertTile(try decode(folder.read(id), id), is: id, exact: true, file: file, line: line)
            }
        }
    }

    /// Every pixel whose centre is inside the source is the source's pixel there (exactly, or for
    /// JPEG within its loss); every pixel more than one source pixel outside is the background.
    /// The pixels between are where tools round the image's edges, left unchecked.
    private func assertTile(_ pixels: [Fixture.RGB], is id: TileID, exact: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        var inside = 0, wrong = 0, firstWrong = "", totalError = 0, worstError = 0
        for j in 0..<Fixture.tilePixels {
            for i in 0..<Fixture.tilePixels {
                let source = Fixture.sourcePixel(z: id.z, x: id.x, y: id.y, i: i, j: j)
                let seen = pixels[j * Fixture.tilePixels + i]
                if source.outside == 0 {
                    let expected = Fixture.color(column: source.column, row: source.row)
                    inside += 1
                    let error = max(abs(Int(seen.r) - Int(expected.r)), abs(Int(seen.g) - Int(expected.g)), abs(Int(seen.b) - Int(expected.b)))
                    totalError += error
                    worstError = max(worstError, error)
                    if exact ? error != 0 : error > Self.jpegWorstError {
                        if wrong == 0 { firstWrong = "pixel (\(i), \(j)) is \(seen), the source's (\(source.column), \(source.row)) is \(expected)" }
                        wrong += 1
                    }
                } else if source.outside > 1 && seen != Self.backgroundRGB {
                    if wrong == 0 { firstWrong = "pixel (\(i), \(j)), \(source.outside) px outside the source, is \(seen), not the background" }
                    wrong += 1
                }
            }
        }
        XCTAssertEqual(wrong, 0, "tile \(id): \(wrong) wrong pixels; first: \(firstWrong)", file: file, line: line)
        if !exact && inside > 0 {
            XCTAssertLessThanOrEqual(Double(totalError) / Double(inside), Self.jpegMeanError, "tile \(id): mean error", file: file, line: line)
        }
    }

    /// JPEG at GDAL's default quality 75 on this smooth picture: measured worst 5 and mean 1.35 per
    /// pixel's largest channel error (GDAL 3.6, libjpeg-turbo 2.1), with room above. A tile from a
    /// neighbouring block is 20 off in blue, a pixel from half a tile away 128 off in red or green.
    static let jpegWorstError = 8
    static let jpegMeanError = 2.0

    /// The fixture's lat/lon → source pixel against GDAL's own lookup in the GeoTIFF
    /// (`gdallocationinfo -wgs84`): the same pixel and the same colour.
    func testExpectedColourAtAPointIsWhatGDALFindsThere() throws {
        let fixture = try fixture()
        var points = [(0, 0), (1023, 767), (1023, 0), (0, 767), (300, 500), (256, 255), (777, 513)].map {
            Fixture.coordinate(column: $0.0, row: $0.1)
        }
        points.append((latitude: 52.55, longitude: 13.37))
        points.append((latitude: 52.5601, longitude: 13.4001))
        for point in points {
            let report = try runProgram(Fixture.gdallocationinfo, ["-wgs84", fixture.sourceGeoTIFF, "\(point.longitude)", "\(point.latitude)"])
            XCTAssertEqual(report.status, 0, report.stderr)
            // "Location: (247P,498L)", then "Band 1:" and "Value: 247" for each band.
            func numbers(after label: String) -> [Int] {
                report.stdout.split(separator: "\n").filter { $0.contains(label) }
                    .flatMap { $0.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } }
            }
            let location = numbers(after: "Location:"), values = numbers(after: "Value:")
            guard location.count == 2, values.count == 3 else { XCTFail("gdallocationinfo said \(report.stdout)"); continue }
            let position = Fixture.sourcePosition(latitude: point.latitude, longitude: point.longitude)
            XCTAssertEqual(Int(position.x), location[0], "column at \(point)")
            XCTAssertEqual(Int(position.y), location[1], "row at \(point)")
            let gdal = Fixture.RGB(r: UInt8(values[0]), g: UInt8(values[1]), b: UInt8(values[2]))
            XCTAssertEqual(Fixture.expectedColor(latitude: point.latitude, longitude: point.longitude, margin: 0), gdal, "\(point)")
        }
        // Near an edge no colour is promised; outside there is none.
        let corner = Fixture.coordinate(column: 1, row: 300)
        XCTAssertNil(Fixture.expectedColor(latitude: corner.latitude, longitude: corner.longitude))
        XCTAssertNotNil(Fixture.expectedColor(latitude: corner.latitude, longitude: corner.longitude, margin: 1))
        let inside = Fixture.coordinate(column: 2, row: 765)
        XCTAssertEqual(Fixture.expectedColor(latitude: inside.latitude, longitude: inside.longitude), Fixture.color(column: 2, row: 765))
        XCTAssertNil(Fixture.expectedColor(latitude: 52.6, longitude: 13.37, margin: 0))
    }
}
