import Config
import Foundation
import Geo
import PNG
import Scene
import TestSupport
import Tiles
import XCTest

/// The map's files opened by their users (`MapFiles.open`): `[map] tiles` and its companions, what
/// the file decides when the configuration does not, an image's size, and one-line errors naming
/// the file, line and key, as the settings' own are.
final class MapFilesTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("config-tiles")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
    }

    /// A real MBTiles file: zooms 14–15, 4×3 tiles at 15 (256-px PNG tiles of one colour).
    func writeMap(_ name: String = "city.mbtiles", format: String = "png", metadata extra: [(name: String, value: String)] = [],
                  centre: String? = "13.365,52.52,15") throws -> String {
        let path = dir.appendingPathComponent(name).path
        let nw = TileID(z: 15, x: 17600, y: 10744).bounds, se = TileID(z: 15, x: 17603, y: 10746).bounds
        var metadata: [(name: String, value: String)] = [("format", format), ("minzoom", "14"), ("maxzoom", "15"),
                                                         ("bounds", "\(nw.west),\(se.south),\(se.east),\(nw.north)"),
                                                         ("attribution", "&copy; Test")]
        if let centre { metadata.append(("center", centre)) }
        metadata += extra
        let writer = try MBTilesWriter(path: path, metadata: metadata)
        // One 256×256 PNG, written by Python's zlib (the project writes RGB PNGs only through libpng in PNG).
        let tile = try pngTile()
        for y in 10744...10746 { for x in 17600...17603 { try writer.add(TileID(z: 15, x: x, y: y), bytes: tile) } }
        try writer.add(TileID(z: 14, x: 8800, y: 5372), bytes: tile)
        try writer.finish()
        return path
    }

    func pngTile() throws -> [UInt8] {
        // A minimal valid 256×256 grey PNG: IHDR, one IDAT of zlib-stored rows, IEND.
        let url = dir.appendingPathComponent("tile.png")
        let script = """
            import struct, zlib, sys
            def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
            raw = b''.join(b'\\x00' + b'\\x80\\x80\\x80' * 256 for _ in range(256))
            png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 256, 256, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
            open(sys.argv[1], 'wb').write(png)
            """
        let r = try runProgram("/usr/bin/python3", ["-c", script, url.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return Array(try Data(contentsOf: url))
    }

    /// The configuration parsed, then its map's files opened as the daemon and check-config do.
    func load(_ text: String, overrides: [String] = []) throws -> (settings: Settings, files: MapFiles) {
        var c = try Configuration.parse(text, file: dir.appendingPathComponent("pulsedot.conf").path, overrides: overrides)
        let files = try MapFiles.open(&c.settings)
        return (c.settings, files)
    }

    func error(_ text: String, overrides: [String] = []) -> String {
        do {
            _ = try load(text, overrides: overrides)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func testTheFileDecidesZoomAndStartWhenTheConfigurationDoesNot() throws {
        let path = try writeMap()
        let c = try load("[map]\ntiles = \(path)\n")
        let set = try XCTUnwrap(c.files.tiles)
        XCTAssertEqual(set.tileSize, 256)
        XCTAssertEqual(set.kind, .mbtiles)
        XCTAssertEqual(c.settings.map.zoom, 15, "the file's centre zoom")
        XCTAssertEqual(c.files.tileStart, GeoPoint(latitude: 52.52, longitude: 13.365))
        XCTAssertEqual(c.settings.map.tiles.cacheMegabytes, 24)
        XCTAssertEqual(c.settings.map.tiles.attribution, .auto)

        let bare = try writeMap("bare.mbtiles", centre: nil)
        let d = try load("[map]\ntiles = bare.mbtiles\n")
        XCTAssertEqual(d.files.tiles?.path, bare, "relative to the configuration's folder")
        XCTAssertEqual(d.settings.map.zoom, 15, "without a centre: the deepest zoom")
        let b = set.metadata.bounds
        let start = try XCTUnwrap(d.files.tileStart)
        XCTAssertEqual(start.latitude, (b.south + b.north) / 2, accuracy: 1e-9)
        XCTAssertEqual(start.longitude, (b.west + b.east) / 2, accuracy: 1e-9)
    }

    func testZoomAttributionSchemeAndBoundsAreTaken() throws {
        let path = try writeMap()
        let c = try load("[map]\ntiles = \(path)\nzoom = 17\nattribution = © Someone\ntileScheme = tms\ncacheMegabytes = 40\nbounds = 13.36,52.5,13.39,52.53\n")
        XCTAssertEqual(c.settings.map.zoom, 17, "two levels past the deepest: drawn enlarged")
        XCTAssertEqual(c.settings.map.tiles.attribution, .text("© Someone"))
        XCTAssertEqual(c.settings.map.tiles.scheme, .tms)
        XCTAssertEqual(c.settings.map.tiles.cacheBytes, 40 << 20)
        XCTAssertEqual(c.files.tiles?.metadata.bounds, GeoBounds(west: 13.36, south: 52.5, east: 13.39, north: 52.53))
        XCTAssertEqual(try load("[map]\ntiles = \(path)\nattribution = none\n").settings.map.tiles.attribution, .none)
    }

    func testRefusalsNameTheLineAndTheKey() throws {
        let path = try writeMap()
        let file = dir.appendingPathComponent("pulsedot.conf").path
        // A tile set not there is no parse error but the opening's, naming the path it looked at.
        XCTAssertEqual(error("[map]\ntiles = nowhere.mbtiles\n").hasPrefix("\(file):2: map.tiles = \(dir.path)/nowhere.mbtiles: stat "), true,
                       error("[map]\ntiles = nowhere.mbtiles\n"))
        let both = error("[map]\nimage = none\ntiles = \(path)\nzoom = 15\n")
        XCTAssertEqual(both, "no error", "image = none is no image")
        XCTAssertTrue(error("[map]\ntiles = \(path)\nzoom = 15.5\n").contains(":3: map.zoom = 15.5: a tiled map is shown at a whole zoom level"),
                      error("[map]\ntiles = \(path)\nzoom = 15.5\n"))
        XCTAssertTrue(error("[map]\ntiles = \(path)\nzoom = 18\n").contains(":3: map.zoom = 18: \(path) has zooms 14–15"))
        XCTAssertTrue(error("[map]\ntiles = \(path)\nzoom = 13\n").contains("zoom 13 is outside them"))
        XCTAssertTrue(error("[map]\ntiles = \(path)\ncacheMegabytes = 2.5\n").contains(":3: map.cacheMegabytes = 2.5: must be a whole number"))
        // A screen whose size the configuration knows must fit the cache: 1920x1080 needs 88 tiles of 256 px.
        let small = error("[display]\noutput = png:\(dir.path)\nmode = 1920x1080\n[map]\ntiles = \(path)\ncacheMegabytes = 8\n")
        XCTAssertTrue(small.contains(":6: map.cacheMegabytes = 8: a tile cache of 8 MiB holds 32 tiles of 256 px; a 1920x1080 view and the ring around it need 88 (cacheMegabytes ≥ 22)"), small)
        XCTAssertTrue(error("[map]\ntiles = \(path)\ntileScheme = upside\n").contains("map.tileScheme = upside"))

        let vector = try writeMap("vector.mbtiles", format: "pbf")
        let v = error("[map]\ntiles = vector.mbtiles\n")
        XCTAssertTrue(v.hasSuffix(":2: map.tiles = \(vector): holds vector tiles (format=pbf); PulseDot draws raster tiles (png, jpg)"), v)

        let mixed = error("[map]\nimage = \(try writeImage())\nbounds = 13.36,52.5,13.39,52.53\ntiles = \(path)\n")
        XCTAssertTrue(mixed.contains(":4: map.tiles = \(path): a map is either an image or tiles"), mixed)
    }

    /// Parsing reads no file: a tile set or an image that cannot be taken is refused when it is
    /// opened, at the key's line.
    func testParsingOpensNothing() throws {
        let file = dir.appendingPathComponent("pulsedot.conf").path
        let image = try Configuration.parse("[map]\nimage = gone.png\nbounds = 13.36,52.5,13.39,52.53\n", file: file)
        XCTAssertEqual(image.settings.map.imagePath, dir.path + "/gone.png")
        XCTAssertEqual(error("[map]\nimage = gone.png\nbounds = 13.36,52.5,13.39,52.53\n"),
                       "\(file):2: map.image = \(dir.path)/gone.png: no such file (a PNG image is expected here)")
        try Data("not a png".utf8).write(to: dir.appendingPathComponent("text.png"))
        var text = Settings()
        try text.set("map.image=\(dir.path)/text.png")
        XCTAssertThrowsError(try MapFiles.open(&text)) { error in
            XCTAssertTrue("\(error)".hasPrefix("map.image = \(dir.path)/text.png: not a readable PNG ("), "\(error)")
        }
        let path = try writeMap()
        let vector = try writeMap("vector.mbtiles", format: "pbf")
        let parsed = try Configuration.parse("[map]\ntiles = vector.mbtiles\n", file: file)
        XCTAssertEqual(parsed.settings.map.tiles.path, vector, "vector tiles are refused only when the file is opened")
        XCTAssertEqual(parsed.settings.map.zoom, 16, "the file decides the zoom only once it is opened")
        XCTAssertEqual(try load("[map]\ntiles = \(path)\n").settings.map.zoom, 15)
    }

    func testAnImagesSizeIsItsHeaders() throws {
        try PNGWrite.rgb(width: 3, height: 2, rgb: [UInt8](repeating: 200, count: 18), to: dir.path + "/route.png")
        let c = try load("[map]\nimage = route.png\nbounds = -73.6,45.49,-73.54,45.52\n")
        XCTAssertTrue(c.files.imageSize! == (3, 2))
        XCTAssertNil(c.files.tiles)
        XCTAssertNil(try load("[map]\nzoom = 3\n").files.imageSize, "a plain map has no files")
    }

    func writeImage() throws -> String {
        let url = dir.appendingPathComponent("map.png")
        try Data(try pngTile()).write(to: url)
        return url.path
    }
}
