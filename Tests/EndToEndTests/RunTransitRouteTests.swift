import Foundation
import PNG
import Raster
import TestSupport
import Tiles
import XCTest

/// The followed trip's route on the map of a running daemon: a PNG display over a map image, or
/// tiles, of the trip's part of Fortaleza, the vehicle at the trip's first stop; once the trip is loaded the
/// written frames show the route's colour (`routeColor`: the feed gives route 804 none) along the
/// trip's shape, where the bare map has only greys.
final class RunTransitRouteTests: XCTestCase {
    static let feed = "/work/shared/testdata/gtfs/fortaleza.zip"
    static let trip = "D804-T01V01B01-I"
    static let (mapWidth, mapHeight) = (900, 700)
    static let color = (r: 0xB0, g: 0x1C, b: 0x6E)

    /// CSV rows of one file of the feed (no quoted commas in the columns read here).
    private func rows(_ file: String) throws -> [[Substring]] {
        try runProgram("/usr/bin/unzip", ["-p", Self.feed, file]).stdout.split(whereSeparator: \.isNewline)
            .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    }

    /// The trip's shape, in order.
    private func shape() throws -> [(lat: Double, lon: Double)] {
        let shapeID = try XCTUnwrap(try rows("trips.txt").first { $0[2] == Self.trip })[7]
        let shape = try rows("shapes.txt").filter { $0[0] == shapeID }
            .sorted { Int($0[3])! < Int($1[3])! }.map { (lat: Double($0[1])!, lon: Double($0[2])!) }
        XCTAssertGreaterThan(shape.count, 10)
        return shape
    }

    /// Runs the daemon with `map` (a `[map]` section's lines) at the trip's first stop until the
    /// trip is loaded; the last frame written after it, and its line in frames.jsonl.
    private func run(map: String, at first: (lat: Double, lon: Double), in dir: URL) throws -> (ScreenImage, FrameLine, String) {
        let frames = dir.appendingPathComponent("frames")
        let config = """
            [source]
            position = \(first.lat),\(first.lon)
            \(ConfigSnippet.pngDisplay(frames.path, mode: "480x360", fps: 10, pngFps: 10))
            [map]
            \(map)
            follow = center
            [transit]
            gtfs = \(Self.feed)
            trip = \(Self.trip)
            cache = \(dir.path)/cache
            routeColor = #B01C6E
            routeWidth = 8

            """
        let daemon = try RunningDaemon(config: config, in: dir)
        try daemon.waitForLog("transit: trip \(Self.trip)", timeout: 120)
        let before = daemon.frames(in: frames).count
        let seen = try daemon.waitForFrames(in: frames, "frames after the trip loaded") { $0.count >= before + 3 }
        let line = try XCTUnwrap(seen.last)
        let image = try ScreenImage.read(frames.appendingPathComponent(line.file).path)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
        return (image, line, daemon.log)
    }

    /// Points every 3 px along the shape in view, away from the dot, sampled on the pixel they
    /// fall in (the line is 8 px wide: every such pixel is inside it), mostly the route's colour
    /// (stops' white discs sit on it); `pixel` places a position on the map.
    private func assertRouteShown(_ image: ScreenImage, _ line: FrameLine, _ log: String, shape: [(lat: Double, lon: Double)],
                                  pixel mapPixel: (Double, Double) -> (x: Double, y: Double)) throws {
        XCTAssertTrue(log.contains("on the map, drawn into it ("), "the map does not carry the route: \(log)")
        // Where the canvas lies on the map: the dot's map pixel less its canvas pixel.
        let dot = (x: try XCTUnwrap(line.x), y: try XCTUnwrap(line.y))
        let at = mapPixel(try XCTUnwrap(line.lat), try XCTUnwrap(line.lon))
        let origin = (x: (at.x - dot.x).rounded(), y: (at.y - dot.y).rounded())
        var sampled = 0, coloured = 0
        for i in 0..<(shape.count - 1) {
            let a = mapPixel(shape[i].lat, shape[i].lon), b = mapPixel(shape[i + 1].lat, shape[i + 1].lon)
            let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            guard length > 0 else { continue }
            for t in stride(from: 0, to: 1, by: 3 / length) {
                let x = a.x + (b.x - a.x) * t - origin.x, y = a.y + (b.y - a.y) * t - origin.y
                guard x >= 4, y >= 4, x < Double(image.width - 4), y < Double(image.height - 4),
                      (x - dot.x) * (x - dot.x) + (y - dot.y) * (y - dot.y) > 50 * 50 else { continue }
                sampled += 1
                let p = image.pixel(Int(x), Int(y))
                if abs(p.r - Self.color.r) <= 2, abs(p.g - Self.color.g) <= 2, abs(p.b - Self.color.b) <= 2 { coloured += 1 }
            }
        }
        XCTAssertGreaterThan(sampled, 30, "too little of the shape in view to tell")
        XCTAssertGreaterThan(Double(coloured), Double(sampled) * 0.8, "\(coloured) of \(sampled) points on the shape show the route's colour; log:\n\(log)")
        var anywhere = 0
        for y in 0..<image.height { for x in 0..<image.width {
            let p = image.pixel(x, y)
            if p.r == Self.color.r, p.g == Self.color.g, p.b == Self.color.b { anywhere += 1 }
        } }
        XCTAssertLessThan(anywhere, image.width * image.height / 4, "the route's colour is all over the frame")
    }

    func testAPNGRunFollowingATripShowsItsRouteAlongTheShapeOverAMapImage() throws {
        let dir = try TestEnvironment.temporaryDirectory("run-transit-route")
        defer { try? FileManager.default.removeItem(at: dir) }
        let shape = try shape()
        // The map: the shape's box and a margin, a light grey with a darker grid.
        let lats = shape.map(\.lat), lons = shape.map(\.lon)
        let pad = 0.004
        let (west, east, south, north) = (lons.min()! - pad, lons.max()! + pad, lats.min()! - pad, lats.max()! + pad)
        var rgb = [UInt8](repeating: 0xE0, count: Self.mapWidth * Self.mapHeight * 3)
        for y in 0..<Self.mapHeight { for x in 0..<Self.mapWidth where x % 40 == 0 || y % 40 == 0 {
            for c in 0..<3 { rgb[(y * Self.mapWidth + x) * 3 + c] = 0x90 }
        } }
        let mapPath = dir.appendingPathComponent("fortaleza.png").path
        try PNGWrite.rgb(width: Self.mapWidth, height: Self.mapHeight, rgb: rgb, to: mapPath)
        func my(_ lat: Double) -> Double { let s = sin(lat * .pi / 180); return log((1 + s) / (1 - s)) / 2 }
        let (image, line, said) = try run(map: "image = \(mapPath)\nbounds = \(west),\(south),\(east),\(north)", at: shape[0], in: dir)
        try assertRouteShown(image, line, said, shape: shape) { lat, lon in
            ((lon - west) / (east - west) * Double(Self.mapWidth), (my(north) - my(lat)) / (my(north) - my(south)) * Double(Self.mapHeight))
        }
    }

    func testAPNGRunFollowingATripShowsItsRouteAlongTheShapeOverTiles() throws {
        let dir = try TestEnvironment.temporaryDirectory("run-transit-route-tiles")
        defer { try? FileManager.default.removeItem(at: dir) }
        let shape = try shape()
        // Tiles at zoom 15 over the shape's box and a tile more: a light grey with a darker grid.
        let zoom = 15
        let tile = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)
        for y in 0..<256 { for x in 0..<256 {
            tile.buffer.row(y).storeBytes(of: x % 40 == 0 || y % 40 == 0 ? 0xFF90_9090 : 0xFFE0_E0E0, toByteOffset: x * 4, as: UInt32.self)
        } }
        let bytes = try PNGWrite.frame(tile.buffer)
        let corners = shape.map { TiledView.worldPixel(latitude: $0.lat, longitude: $0.lon, zoom: zoom) }
        let (x0, x1) = (Int(corners.map(\.x).min()! / 256) - 1, Int(corners.map(\.x).max()! / 256) + 1)
        let (y0, y1) = (Int(corners.map(\.y).min()! / 256) - 1, Int(corners.map(\.y).max()! / 256) + 1)
        let nw = TileID(z: zoom, x: x0, y: y0).bounds, se = TileID(z: zoom, x: x1, y: y1).bounds
        let path = dir.appendingPathComponent("fortaleza.mbtiles").path
        let writer = try MBTilesWriter(path: path, metadata: [
            ("name", "fortaleza"), ("format", "png"), ("minzoom", "\(zoom)"), ("maxzoom", "\(zoom)"),
            ("bounds", "\(nw.west),\(se.south),\(se.east),\(nw.north)"),
        ])
        for y in y0...y1 { for x in x0...x1 { try writer.add(TileID(z: zoom, x: x, y: y), bytes: bytes) } }
        try writer.finish()
        let (image, line, said) = try run(map: "tiles = \(path)\nzoom = \(zoom)", at: shape[0], in: dir)
        try assertRouteShown(image, line, said, shape: shape) { lat, lon in TiledView.worldPixel(latitude: lat, longitude: lon, zoom: zoom) }
    }
}
