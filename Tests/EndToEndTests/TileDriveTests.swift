import Bench
import Foundation
import Glibc
import PNG
import Raster
import TestSupport
import Tiles
import XCTest

/// A drive through a city-sized tiled map (the bench's made-up city, 72×60 zoom-17 tiles and
/// their zoom-16 parents), replayed from NMEA with `follow = center`, headless: every frame puts
/// the dot where the test's own Web Mercator puts the drawn position, shows the city's own pixels
/// away from the dot, and shows the map's colour where a tile on the route is missing or damaged
/// (each said once, by z/x/y). Then SIGHUP to another tiles file, and back and forth: the new
/// map is drawn and said, and the pools given up do not stay in memory.
final class TileDriveTests: XCTestCase {
    typealias RGB = TileInteropFixture.RGB

    static let columns = 72, rows = 60
    static let width = 640, height = 400
    static let background = RGB(r: 255, g: 0, b: 255)

    /// The route in zoom-17 world pixels: east-south-east across 12 tiles and down 4, a fix about
    /// every 40 m (54 px).
    static let start = (x: Double((BenchCity.firstColumn + 6) * 256) + 37.3, y: Double((BenchCity.firstRow + 8) * 256) + 91.6)
    static let legs = 60
    static let step = (x: 51.7, y: 16.7)

    static func routePoint(_ fraction: Double) -> (x: Double, y: Double) {
        (start.x + fraction * Double(legs) * step.x, start.y + fraction * Double(legs) * step.y)
    }

    static func tile(at p: (x: Double, y: Double)) -> TileID { TileID(z: BenchCity.zoom, x: Int(p.x) >> 8, y: Int(p.y) >> 8) }

    /// On the route, a third and two thirds of the way: a tile left out, and one written truncated.
    static let missing = tile(at: routePoint(0.3))
    static let damaged = tile(at: routePoint(0.7))

    /// Written once for the class: 5,400 tiles take a while in a debug build.
    nonisolated(unsafe) private static var city: (dir: URL, path: String)?

    private func cityPath() throws -> String {
        if let city = Self.city { return city.path }
        let dir = try TestEnvironment.temporaryDirectory("tile-drive-city")
        let path = dir.appendingPathComponent("city.mbtiles").path
        XCTAssertNotEqual(Self.missing, Self.damaged)
        try BenchCity.write(to: path, format: .png, columns: Self.columns, rows: Self.rows,
                            skip: [Self.missing], damage: [Self.damaged])
        Self.city = (dir, path)
        return path
    }

    override class func tearDown() {
        if let city { try? FileManager.default.removeItem(at: city.dir) }
        city = nil
        super.tearDown()
    }

    private var dir: URL!
    private var frames: URL { dir.appendingPathComponent("frames") }
    private var nmea: URL { dir.appendingPathComponent("drive.nmea") }

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("tile-drive")
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func testADriveThroughTheCityThenReloadsToAnotherMap() throws {
        let city = try cityPath()
        let (daemon, drive, seen) = try startDrive(city, zoom: 17)
        try checkDrive(seen, drive, zoom: 17)
        let log = daemon.log
        XCTAssertEqual(lines(log, containing: "tile \(Self.missing) is not in the map"), 1, "the missing tile is said once, by z/x/y:\n\(log)")
        XCTAssertEqual(lines(log, containing: "tile \(Self.damaged)"), 1, "the damaged tile is said once, by z/x/y:\n\(log)")
        XCTAssertTrue(log.contains("<6>map \(city): PNG tiles of 256 px, zoom 17 of 16–17, "), log)

        // SIGHUP to the other map: drawn from the first frame after the reload, and said.
        let last = drive.fixes[drive.fixes.count - 1]
        let other = dir.appendingPathComponent("other.mbtiles").path
        let first = try writeOtherMap(other, around: Self.tile(at: Self.routePoint(1)), variant: 0)
        try daemon.reload(config(other, zoom: 17), count: 1)
        XCTAssertTrue(daemon.log.contains("<6>map \(other): PNG tiles of 256 px, zoom 17 of 17–17, 6x5 tiles in view range"), daemon.log)
        try checkOtherMap(daemon, last: last, first: first, variant: 0)

        // A new map renamed over the same path (as maps are installed) and the same configuration
        // again: the reload opens what is there now.
        let replacement = dir.appendingPathComponent("replacement.mbtiles").path
        _ = try writeOtherMap(replacement, around: Self.tile(at: Self.routePoint(1)), variant: 1)
        XCTAssertEqual(rename(replacement, other), 0)
        try daemon.reload(config(other, zoom: 17), count: 2)
        try checkOtherMap(daemon, last: last, first: first, variant: 1)

        // Back and forth: each reload makes a new pool and worker and gives up the old ones.
        func rssAnonKB() throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(daemon.child.pid)/status", encoding: .utf8)
            let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
            return try XCTUnwrap(Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? ""))
        }
        func reload(_ i: Int) throws {
            try daemon.reload(config(i % 2 == 0 ? other : city, zoom: 17), count: i)
            let n = daemon.frames(in: frames).count
            try daemon.waitForFrames(in: frames, "a frame after reload \(i)") { $0.count > n }
        }
        // Open descriptors but a frame being written at that moment.
        func descriptors() throws -> [String] {
            let fd = "/proc/\(daemon.child.pid)/fd"
            return try FileManager.default.contentsOfDirectory(atPath: fd).compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: fd + "/" + $0) }
                .filter { !$0.hasPrefix(frames.path + "/frame-") }.sorted()
        }
        for i in 3...8 { try reload(i) }
        let settled = try rssAnonKB(), open = try descriptors()
        for i in 9...16 { try reload(i) }
        let grown = try rssAnonKB() - settled
        XCTAssertEqual(try descriptors(), open, "each old map's database and worker descriptors are closed")
        // A pool kept alive would hold the tiles it decoded: some 30 of 256 KiB each per reload.
        XCTAssertLessThan(grown, 4096, "RssAnon grew \(grown) kB over 8 reloads:\n\(daemon.log)")
        XCTAssertEqual(lines(daemon.log, containing: "<6>map \(city): "), 8, daemon.log)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }

    /// Zoom 18, one deeper than the city: its zoom-17 tiles enlarged, and the missing and damaged
    /// tiles named as the file has them (zoom 17), once each, though each covers four in view.
    func testADriveOneZoomDeeperIsTheCityEnlarged() throws {
        let city = try cityPath()
        let (daemon, drive, seen) = try startDrive(city, zoom: 18)
        try checkDrive(seen, drive, zoom: 18)
        let log = daemon.log
        XCTAssertEqual(lines(log, containing: "zoom 18 is drawn from zoom 17 tiles enlarged 2x"), 1, log)
        XCTAssertEqual(lines(log, containing: "tile \(Self.missing) is not in the map"), 1, "the missing tile is said once, by z/x/y:\n\(log)")
        XCTAssertEqual(lines(log, containing: "tile \(Self.damaged)"), 1, "the damaged tile is said once, by z/x/y:\n\(log)")
        XCTAssertFalse(log.contains("tile 18/"), "no zoom-18 tile is in the file to be named:\n\(log)")
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }

    // MARK: -

    private func config(_ tiles: String, zoom: Int) -> String {
        """
        [source]
        replay = drive.nmea
        replaySpeed = 6
        \(ConfigSnippet.pngDisplay(frames.path, mode: "\(Self.width)x\(Self.height)", fps: 10, pngFps: 10))
        [map]
        tiles = \(tiles)
        zoom = \(zoom)
        follow = center
        background = #FF00FF
        attribution = none

        """
    }

    /// Writes the route's NMEA, runs the daemon over it to the last fix, and returns the frames.
    private func startDrive(_ city: String, zoom: Int) throws -> (RunningDaemon, DriveNMEA, [FrameLine]) {
        var drive = DriveNMEA()
        let side = Double(256 << BenchCity.zoom)
        for i in 0...Self.legs {
            let p = (x: Self.start.x + Double(i) * Self.step.x, y: Self.start.y + Double(i) * Self.step.y)
            let c = TileInteropFixture.coordinate(worldX: p.x / side, worldY: p.y / side)
            drive.fix(lat: c.latitude, lon: c.longitude, knots: 150, course: 108)
        }
        try drive.write(to: nmea)
        let daemon = try RunningDaemon(config: config(city, zoom: zoom), in: dir)
        try daemon.waitForLog("<5>replay \(nmea.path) ended", timeout: 60)
        let last = drive.fixes[drive.fixes.count - 1]
        let seen = try daemon.waitForFrames(in: frames, "a frame at the last fix") { $0.contains { Self.at(last, $0) } }
        return (daemon, drive, seen)
    }

    static func at(_ fix: (lat: Double, lon: Double), _ line: FrameLine) -> Bool {
        abs((line.lat ?? 0) - fix.lat) < 1e-9 && abs((line.lon ?? 0) - fix.lon) < 1e-9
    }

    /// Every frame with a position: on the route, where follow = center puts it, and the city's
    /// pixels (zoom-17 pixels, enlarged at a deeper zoom) away from the dot — the map's colour on
    /// the missing and the damaged tile, both of which must have been in view.
    private func checkDrive(_ seen: [FrameLine], _ drive: DriveNMEA, zoom: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let levels = zoom - BenchCity.zoom
        var pixels = CityPixels()
        var checked = (frames: 0, missing: 0, damaged: 0)
        for frame in seen where frame.lat != nil {
            let lat = try XCTUnwrap(frame.lat), lon = try XCTUnwrap(frame.lon)
            XCTAssertLessThan(drive.route.distance(lat: lat, lon: lon), 1e-9, "\(frame) is off the route", file: file, line: line)
            let dot = TiledView.worldPixel(latitude: lat, longitude: lon, zoom: zoom)
            let ox = Int((dot.x - Double(Self.width) / 2).rounded()), oy = Int((dot.y - Double(Self.height) / 2).rounded())
            let x = try XCTUnwrap(frame.x), y = try XCTUnwrap(frame.y)
            XCTAssertEqual(x, dot.x - Double(ox), accuracy: 0.01, "\(frame)", file: file, line: line)
            XCTAssertEqual(y, dot.y - Double(oy), accuracy: 0.01, "\(frame)", file: file, line: line)
            let reach = max(TiledView.dotReach, (frame.accuracyPx ?? 0) + 6)
            let picture = try FramePicture(frames, frame)
            var wrong = 0, firstWrong = ""
            // Every third pixel each way, the grid shifted from frame to frame.
            let phase = checked.frames % 3
            for cy in stride(from: phase, to: Self.height, by: 3) {
                for cx in stride(from: phase, to: Self.width, by: 3) where hypot(Double(cx) + 0.5 - x, Double(cy) + 0.5 - y) > reach {
                    let wx = (cx + ox) >> levels, wy = (cy + oy) >> levels
                    let id = TileID(z: BenchCity.zoom, x: wx >> 8, y: wy >> 8)
                    let expected: RGB
                    if id == Self.missing || id == Self.damaged {
                        expected = Self.background
                        if id == Self.missing { checked.missing += 1 } else { checked.damaged += 1 }
                    } else {
                        expected = pixels.city(worldX: wx, worldY: wy)
                    }
                    let got = picture.rgb(cx, cy)
                    if got != expected {
                        if wrong == 0 { firstWrong = "canvas (\(cx), \(cy)) = zoom-17 world (\(wx), \(wy)), tile \(id), is \(got), not \(expected)" }
                        wrong += 1
                    }
                }
            }
            XCTAssertEqual(wrong, 0, "\(frame): \(wrong) sampled pixels wrong; first: \(firstWrong)", file: file, line: line)
            checked.frames += 1
        }
        XCTAssertGreaterThan(checked.frames, 40, "frames along the drive", file: file, line: line)
        XCTAssertGreaterThan(checked.missing, 1000, "the missing tile was in view", file: file, line: line)
        XCTAssertGreaterThan(checked.damaged, 1000, "the damaged tile was in view", file: file, line: line)
    }

    /// The first frame after the latest reload: the other map (`variant`) around the last fix.
    private func checkOtherMap(_ daemon: RunningDaemon, last: (lat: Double, lon: Double), first: (x: Int, y: Int), variant: Int,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let before = daemon.frames(in: frames).count
        let after = try daemon.waitForFrames(in: frames, "a frame of the other map") { $0.count > before }
        let frame = after[before]
        XCTAssertTrue(Self.at(last, frame), "the view after the reload shows the last fix: \(frame)", file: file, line: line)
        let dot = TiledView.worldPixel(latitude: last.lat, longitude: last.lon, zoom: BenchCity.zoom)
        let ox = TiledView.offset(dot: dot.x, canvas: Self.width, start: first.x * 256, length: 6 * 256)
        let oy = TiledView.offset(dot: dot.y, canvas: Self.height, start: first.y * 256, length: 5 * 256)
        let x = try XCTUnwrap(frame.x), y = try XCTUnwrap(frame.y)
        XCTAssertEqual(x, dot.x - Double(ox), accuracy: 0.01, "\(frame)", file: file, line: line)
        XCTAssertEqual(y, dot.y - Double(oy), accuracy: 0.01, "\(frame)", file: file, line: line)
        let picture = try FramePicture(frames, frame)
        var wrong = 0, firstWrong = "", count = 0
        for cy in 0..<Self.height {
            for cx in 0..<Self.width where hypot(Double(cx) + 0.5 - x, Double(cy) + 0.5 - y) > TiledView.dotReach + 10 {
                let wx = cx + ox, wy = cy + oy
                let expected = Self.otherColor(column: (wx >> 8) - first.x, row: (wy >> 8) - first.y, px: wx & 255, py: wy & 255, variant: variant)
                count += 1
                if picture.rgb(cx, cy) != expected {
                    if wrong == 0 { firstWrong = "canvas (\(cx), \(cy)) is \(picture.rgb(cx, cy)), not \(expected)" }
                    wrong += 1
                }
            }
        }
        XCTAssertEqual(wrong, 0, "\(frame): \(wrong) of \(count) pixels are not the other map's (variant \(variant)); first: \(firstWrong)",
                       file: file, line: line)
    }

    private func lines(_ log: String, containing text: String) -> Int {
        log.split(separator: "\n").filter { $0.contains(text) }.count
    }

    /// The city's pixels, tile by tile as BenchCity draws them.
    private struct CityPixels {
        private var tiles: [TileID: [UInt8]] = [:]
        private let buffer = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)

        mutating func city(worldX: Int, worldY: Int) -> RGB {
            let id = TileID(z: BenchCity.zoom, x: worldX >> 8, y: worldY >> 8)
            if tiles[id] == nil {
                BenchCity.draw(into: buffer.buffer, worldX: id.x * 256, worldY: id.y * 256, scale: 1)
                tiles[id] = Array(buffer.bytes)
            }
            let i = ((worldY & 255) * 256 + (worldX & 255)) * 4
            let t = tiles[id]!
            return RGB(r: t[i + 2], g: t[i + 1], b: t[i])
        }
    }

    /// A second map's pixels: where they are in it, and which of two versions of it.
    static func otherColor(column: Int, row: Int, px: Int, py: Int, variant: Int) -> RGB {
        RGB(r: UInt8(px), g: UInt8(py), b: UInt8(100 + variant * 60 + column * 10 + row))
    }

    /// A second map, 6×5 zoom-17 tiles around `centre`; returns its first tile.
    private func writeOtherMap(_ path: String, around centre: TileID, variant: Int) throws -> (x: Int, y: Int) {
        let first = (x: centre.x - 3, y: centre.y - 2)
        let nw = TileID(z: 17, x: first.x, y: first.y).bounds, se = TileID(z: 17, x: first.x + 5, y: first.y + 4).bounds
        let writer = try MBTilesWriter(path: path, metadata: [
            ("name", "other"), ("format", "png"), ("minzoom", "17"), ("maxzoom", "17"),
            ("bounds", "\(nw.west),\(se.south),\(se.east),\(nw.north)"),
        ])
        let tile = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)
        for row in 0..<5 {
            for column in 0..<6 {
                for py in 0..<256 {
                    let out = tile.buffer.row(py).assumingMemoryBound(to: UInt32.self)
                    for px in 0..<256 {
                        let c = Self.otherColor(column: column, row: row, px: px, py: py, variant: variant)
                        out[px] = 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
                    }
                }
                try writer.add(TileID(z: 17, x: first.x + column, y: first.y + row), bytes: try PNGWrite.frame(tile.buffer))
            }
        }
        try writer.finish()
        return first
    }
}
