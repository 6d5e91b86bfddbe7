import Foundation
import Raster
import TestSupport
import TileDecode
import Tiles
import XCTest

/// `pulsedot run` over the maps GDAL made (TileInteropFixture), headless: at fixed positions, the
/// frame around the dot is the source image at those coordinates — PNG tiles exactly, JPEG tiles
/// as TurboJPEG decodes the same tile bytes — and where the tiles have no data, the map's colour.
///
/// One daemon per tile set; each further position (and zoom) is a SIGHUP to a rewritten
/// configuration, so the first frame after each reload is checked too.
final class TileInteropRunTests: XCTestCase {
    typealias Fixture = TileInteropFixture

    private func fixture() throws -> Fixture { try Fixture.shared() }

    private var dir: URL!

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("tile-interop-run")
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    static let width = 640, height = 400

    /// Where the dot is, in source image pixels (fractions: between pixel centres), the zoom
    /// shown, and how the view is placed: `follow = center`, or `follow = off` around `center`.
    struct Stop {
        var column: Double, row: Double, zoom: Int
        var center: (column: Double, row: Double)? = nil
        /// `[map] bounds`, in source pixels: the part of the tile set shown.
        var bounds: (west: Double, north: Double, east: Double, south: Double)? = nil
        /// No source pixel has red 255, green 0 and blue 255.
        var background = Fixture.RGB(r: 255, g: 0, b: 255)

        static func coordinate(_ column: Double, _ row: Double) -> (latitude: Double, longitude: Double) {
            let side = Double(Fixture.tilePixels << Fixture.zoom)
            return Fixture.coordinate(worldX: (Double(Fixture.firstColumn * Fixture.tilePixels) + column) / side,
                                      worldY: (Double(Fixture.firstRow * Fixture.tilePixels) + row) / side)
        }

        var coordinate: (latitude: Double, longitude: Double) { Self.coordinate(column, row) }
    }

    /// A tile set as GDAL made it, and what the test knows of it from the tool's own output.
    struct Target {
        var path: String
        var tms = false
        /// As the daemon's summary names it.
        var format = "PNG"
        var tileSize = 256
        /// The zoom GDAL wrote, and the tiles there (XYZ columns and rows).
        var sourceZoom: Int
        var level: Fixture.Level
    }

    private func target(_ product: Fixture.Product) throws -> Target {
        let fixture = try fixture()
        let zoom = product == .mbtilesPNG || product == .mbtilesJPEG ? Fixture.mbtilesZoom : Fixture.zoom
        return Target(path: fixture.path(product), tms: product == .tmsFolder, format: product == .mbtilesJPEG ? "JPEG" : "PNG",
                      sourceZoom: zoom, level: try XCTUnwrap(fixture.produced[product]?[zoom]))
    }

    // The middle, then near the south-east corner and the west edge, where the view stops at the
    // map's edge and the dot is off the canvas's middle.

    /// Also `bounds` showing part of the file: the tiles covering it and no others, the view
    /// held inside them, or centred when they are smaller than the canvas.
    func testPNGMBTilesAreTheSourceAroundTheDot() throws {
        let z = Fixture.mbtilesZoom
        try run(try target(.mbtilesPNG), stops: [Stop(column: 300.3, row: 200.7, zoom: z), Stop(column: 1000.6, row: 740.2, zoom: z),
                                                 Stop(column: 20.35, row: 380.8, zoom: z),
                                                 Stop(column: 140.2, row: 590.6, zoom: z, bounds: (130.4, 70.2, 900.6, 600.3)),
                                                 Stop(column: 350.3, row: 340.2, zoom: z, bounds: (300.5, 300.5, 420.5, 380.5))])
    }

    /// One level deeper than the file: its tiles enlarged, each source pixel 4×4 screen pixels.
    func testPNGMBTilesOneZoomDeeperAreTheSourceEnlarged() throws {
        let z = Fixture.mbtilesZoom
        try run(try target(.mbtilesPNG), stops: [Stop(column: 612.7, row: 455.4, zoom: z + 1), Stop(column: 70.2, row: 700.9, zoom: z + 1)])
        XCTAssertEqual(countLines(containing: "zoom \(z + 1) is drawn from zoom \(z) tiles enlarged 2x"), 2,
                       "said once per view:\n\(lastLog)")
    }

    /// Last, one zoom deeper: the decoded tile enlarged.
    func testJPEGMBTilesAreTurboJPEGsDecodeAroundTheDot() throws {
        let z = Fixture.mbtilesZoom
        try run(try target(.mbtilesJPEG), stops: [Stop(column: 500.5, row: 300.25, zoom: z), Stop(column: 990.1, row: 20.6, zoom: z),
                                                  Stop(column: 8.9, row: 760.1, zoom: z), Stop(column: 700.3, row: 100.9, zoom: z + 1)])
    }

    /// Also a new `background` at a reload (gdal2tiles' transparent tiles beside the image are
    /// decoded onto the new colour), and `follow = off` around a `center` that is not the dot.
    func testXYZFolderIsTheSourceAroundTheDot() throws {
        let z = Fixture.zoom
        try run(try target(.xyzFolder), stops: [Stop(column: 400.4, row: 333.6, zoom: z), Stop(column: 1010.3, row: 750.7, zoom: z),
                                                Stop(column: 3.6, row: 5.2, zoom: z),
                                                Stop(column: 3.6, row: 300.2, zoom: z, background: Fixture.RGB(r: 0, g: 255, b: 0)),
                                                Stop(column: 600.2, row: 400.7, zoom: z, center: (480.5, 350.5))])
    }

    /// Last, two zooms deeper: the parent tile's rows flipped before it is enlarged, not after.
    func testTMSFolderIsTheSourceAroundTheDot() throws {
        let z = Fixture.zoom
        try run(try target(.tmsFolder), stops: [Stop(column: 700.8, row: 120.1, zoom: z), Stop(column: 30.3, row: 740.4, zoom: z),
                                                Stop(column: 512.5, row: 384.5, zoom: z), Stop(column: 250.6, row: 600.4, zoom: z + 2)])
    }

    /// 512-px tiles, as GDAL writes them when asked (`BLOCKSIZE=512`, `--tilesize=512`): the
    /// same zoom-15 grid, each tile twice as many pixels, so each source pixel 2×2 tile pixels.
    func testFiveHundredTwelvePixelTilesAreTheSourceAroundTheDot() throws {
        let fixture = try fixture()
        let mbtiles = dir.appendingPathComponent("512.mbtiles").path, folder = dir.appendingPathComponent("512").path
        for (tool, arguments) in [
            (Fixture.gdalTranslate, ["-q", "-of", "MBTILES", "-co", "TILE_FORMAT=PNG", "-co", "RESAMPLING=NEAREST", "-co", "ZOOM_LEVEL_STRATEGY=UPPER",
                                     "-co", "BLOCKSIZE=512", fixture.sourceGeoTIFF, mbtiles]),
            (Fixture.gdal2tiles, ["--xyz", "--tilesize=512", "-z", "\(Fixture.zoom)", "-r", "near", fixture.sourceGeoTIFF, folder]),
        ] {
            let made = try runProgram(tool, arguments, timeout: 120)
            XCTAssertEqual(made.status, 0, "\(tool): \(made.stderr)")
        }
        // What GDAL wrote, seen with Python's own SQLite and a directory listing.
        let listing = try runProgram(Fixture.python, ["-c", """
            import sqlite3, sys
            db = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)
            print(*db.execute('SELECT zoom_level, COUNT(*), MIN(tile_column), MAX(tile_column), MIN(tile_row), MAX(tile_row) FROM tiles').fetchone())
            """, mbtiles])
        let n = listing.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        let last = (1 << Fixture.zoom) - 1
        XCTAssertEqual(n, [Fixture.zoom, Fixture.columns * Fixture.rows, Fixture.firstColumn, Fixture.firstColumn + Fixture.columns - 1,
                           last - (Fixture.firstRow + Fixture.rows - 1), last - Fixture.firstRow],
                       "gdal_translate made \(listing.stdout)\(listing.stderr)")
        let block = Fixture.Level(count: Fixture.columns * Fixture.rows, west: Fixture.firstColumn, east: Fixture.firstColumn + Fixture.columns - 1,
                                  north: Fixture.firstRow, south: Fixture.firstRow + Fixture.rows - 1)
        var columns: [Int] = [], rows: Set<Int> = []
        for x in try FileManager.default.contentsOfDirectory(atPath: folder + "/\(Fixture.zoom)") {
            columns.append(try XCTUnwrap(Int(x)))
            for y in try FileManager.default.contentsOfDirectory(atPath: folder + "/\(Fixture.zoom)/\(x)") {
                rows.insert(try XCTUnwrap(Int(y.dropLast(4))))
            }
        }
        let ring = Fixture.Level(count: columns.count * rows.count, west: columns.min() ?? 0, east: columns.max() ?? 0,
                                 north: rows.min() ?? 0, south: rows.max() ?? 0)
        XCTAssertTrue(ring.west >= block.west - 1 && ring.west <= block.west && ring.east >= block.east && ring.east <= block.east + 1
                      && ring.north >= block.north - 1 && ring.north <= block.north && ring.south >= block.south && ring.south <= block.south + 1,
                      "gdal2tiles made \(ring)")

        let z = Fixture.zoom
        let stops = [Stop(column: 450.3, row: 300.6, zoom: z), Stop(column: 1015.6, row: 10.3, zoom: z),
                     Stop(column: 600.8, row: 500.1, zoom: z + 1)]
        try run(Target(path: mbtiles, tileSize: 512, sourceZoom: z, level: block), stops: stops)
        try run(Target(path: folder, tileSize: 512, sourceZoom: z, level: ring), stops: stops)
    }

    // MARK: -

    private var lastLog = ""

    private func countLines(containing text: String) -> Int {
        lastLog.split(separator: "\n").filter { $0.contains(text) }.count
    }

    private func config(_ target: Target, _ stop: Stop, frames: URL) -> String {
        let c = stop.coordinate
        let b = stop.background
        var text = """
            [source]
            position = \(c.latitude),\(c.longitude)
            \(ConfigSnippet.pngDisplay(frames.path, mode: "\(Self.width)x\(Self.height)", fps: 10, pngFps: 10))
            [map]
            tiles = \(target.path)
            tileScheme = \(target.tms ? "tms" : "xyz")
            zoom = \(stop.zoom)
            background = \(String(format: "#%02X%02X%02X", b.r, b.g, b.b))
            attribution = none

            """
        if let b = stop.bounds {
            let nw = Stop.coordinate(b.west, b.north), se = Stop.coordinate(b.east, b.south)
            text += "bounds = \(nw.longitude),\(se.latitude),\(se.longitude),\(nw.latitude)\n"
        }
        if let centre = stop.center {
            let m = Stop.coordinate(centre.column, centre.row)
            text += "follow = off\ncenter = \(m.latitude),\(m.longitude)\n"
        } else {
            text += "follow = center\n"
        }
        return text
    }

    /// Starts the daemon at the first stop, reloads to each further one, and checks the first
    /// frame each view writes.
    private func run(_ target: Target, stops: [Stop], file: StaticString = #filePath, line: UInt = #line) throws {
        let frames = dir.appendingPathComponent("frames")
        try? FileManager.default.removeItem(at: frames)
        var daemon: RunningDaemon!
        for (i, stop) in stops.enumerated() {
            let text = config(target, stop, frames: frames)
            var before = 0
            if i == 0 {
                daemon = try RunningDaemon(config: text, in: dir)
            } else {
                try daemon.reload(text, count: i)
                // Every line so far is the old view's: the reload was said before the new one drew.
                before = daemon.frames(in: frames).count
            }
            let c = stop.coordinate
            // The drawn position has been through the projection and back: the same to a nanodegree.
            let here = { (l: FrameLine) in abs((l.lat ?? 0) - c.latitude) < 1e-9 && abs((l.lon ?? 0) - c.longitude) < 1e-9 }
            let seen = try daemon.waitForFrames(in: frames, "a frame at \(c) (zoom \(stop.zoom))") {
                $0.dropFirst(before).contains(where: here)
            }
            let frame = try XCTUnwrap(seen.dropFirst(before).first(where: here))
            try check(frame, in: frames, target: target, stop: stop, file: file, line: line)
        }
        lastLog = daemon.log
        XCTAssertEqual(countLines(containing: "<6>map \(target.path): \(target.format) tiles of \(target.tileSize) px, zoom "), stops.count,
                       "the new map said at each reload:\n\(lastLog)", file: file, line: line)
        XCTAssertFalse(lastLog.contains("colour shows there"), "every tile in view is readable:\n\(lastLog)", file: file, line: line)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log, file: file, line: line)
    }

    /// The frame's dot is where the test's Web Mercator puts it (the view as `follow` says), and
    /// every pixel away from the dot is the map's pixel there.
    private func check(_ frame: FrameLine, in frames: URL, target: Target, stop: Stop, file: StaticString, line: UInt) throws {
        XCTAssertEqual(frame.state, "live", "\(frame)", file: file, line: line)
        let n = target.tileSize
        let scale = 1 << (stop.zoom - target.sourceZoom)
        let level = target.level
        let side = Double(n << stop.zoom)
        func world(_ c: (latitude: Double, longitude: Double)) -> (x: Double, y: Double) {
            let w = Fixture.worldFraction(latitude: c.latitude, longitude: c.longitude)
            return (w.x * side, w.y * side)
        }
        let c = stop.coordinate
        let dot = world(c)
        let held = stop.center.map { world(Stop.coordinate($0.column, $0.row)) } ?? dot
        // The tiles shown, in world pixels: those GDAL wrote, or those covering `bounds`.
        var map = (x: level.west * n * scale, y: level.north * n * scale,
                   width: (level.east - level.west + 1) * n * scale, height: (level.south - level.north + 1) * n * scale)
        if let b = stop.bounds {
            let nw = world(Stop.coordinate(b.west, b.north)), se = world(Stop.coordinate(b.east, b.south))
            let x0 = Int(nw.x) / n, y0 = Int(nw.y) / n, x1 = Int(se.x) / n, y1 = Int(se.y) / n
            map = (x0 * n, y0 * n, (x1 - x0 + 1) * n, (y1 - y0 + 1) * n)
        }
        let ox = TiledView.offset(dot: held.x, canvas: Self.width, start: map.x, length: map.width)
        let oy = TiledView.offset(dot: held.y, canvas: Self.height, start: map.y, length: map.height)
        let x = try XCTUnwrap(frame.x, file: file, line: line), y = try XCTUnwrap(frame.y, file: file, line: line)
        XCTAssertEqual(x, dot.x - Double(ox), accuracy: 0.01, "\(frame)", file: file, line: line)
        XCTAssertEqual(y, dot.y - Double(oy), accuracy: 0.01, "\(frame)", file: file, line: line)

        let picture = try FramePicture(frames, frame)
        XCTAssertEqual(picture.width, Self.width, file: file, line: line)
        XCTAssertEqual(picture.height, Self.height, file: file, line: line)
        let jpeg = target.format == "JPEG" ? try MBTiles(path: target.path) : nil
        var decoded: [TileID: [Fixture.RGB]] = [:]
        var checked = 0, nearDot = 0, wrong = 0, firstWrong = ""
        for cy in 0..<Self.height {
            for cx in 0..<Self.width {
                let distance = hypot(Double(cx) + 0.5 - x, Double(cy) + 0.5 - y)
                guard distance > TiledView.dotReach else { continue }
                let wx = cx + ox, wy = cy + oy
                let expected: Fixture.RGB
                if wx < map.x || wx >= map.x + map.width || wy < map.y || wy >= map.y + map.height {
                    expected = stop.background
                } else if let jpeg {
                    // At a deeper zoom, the file's tile there with each pixel repeated.
                    let levels = stop.zoom - target.sourceZoom
                    let sx = wx >> levels, sy = wy >> levels
                    let id = TileID(z: target.sourceZoom, x: sx / n, y: sy / n)
                    if decoded[id] == nil { decoded[id] = try decode(jpeg.read(id), id, background: stop.background) }
                    expected = decoded[id]![(sy % n) * n + (sx % n)]
                } else {
                    let p = Fixture.sourcePosition(worldX: (Double(wx) + 0.5) / side, worldY: (Double(wy) + 0.5) / side)
                    let outside = max(-p.x, p.x - Double(Fixture.width), -p.y, p.y - Double(Fixture.height))
                    if outside <= -2 {
                        expected = Fixture.color(column: Int(p.x), row: Int(p.y))
                    } else if outside > 1 {
                        expected = stop.background
                    } else {
                        continue
                    }
                }
                checked += 1
                if distance < TiledView.dotReach + 30 { nearDot += 1 }
                let seen = picture.rgb(cx, cy)
                if seen != expected {
                    if wrong == 0 { firstWrong = "canvas (\(cx), \(cy)) = world (\(wx), \(wy)) is \(seen), not \(expected)" }
                    wrong += 1
                }
            }
        }
        XCTAssertEqual(wrong, 0, "\(target.path) zoom \(stop.zoom) at \(c), \(frame.file): \(wrong) of \(checked) pixels wrong; first: \(firstWrong)",
                       file: file, line: line)
        XCTAssertGreaterThan(checked, Self.width * Self.height / 2, "most of the frame is checked", file: file, line: line)
        XCTAssertGreaterThan(nearDot, 2000, "pixels just outside the dot are checked", file: file, line: line)
    }

    /// A tile's bytes as the daemon decodes them (TileDecoder: TurboJPEG), as colours.
    private func decode(_ read: TileRead, _ id: TileID, background: Fixture.RGB) throws -> [Fixture.RGB] {
        guard case let .bytes(bytes) = read else { throw TestFailure("tile \(id): \(read), not bytes") }
        let slot = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)
        try withExtendedLifetime(slot) {
            _ = try TileDecoder(tileSize: .px256, background: Color(r: background.r, g: background.g, b: background.b))
                .decode(bytes, into: slot.buffer)
        }
        let raw = slot.bytes
        return (0..<256 * 256).map { Fixture.RGB(r: raw[$0 * 4 + 2], g: raw[$0 * 4 + 1], b: raw[$0 * 4]) }
    }
}
