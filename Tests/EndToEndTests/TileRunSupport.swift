import Foundation
import Glibc
import Geo
import PNG
import Raster
import TestSupport
import Tiles
import XCTest

/// What the tiled-map run tests share: a written frame as colours, and where `follow = center`
/// puts a tiled map's view, worked out with the test's own Web Mercator (not the product's).
struct FramePicture {
    let width: Int, height: Int
    private let rgba: [UInt8]

    init(_ frames: URL, _ line: FrameLine) throws {
        let image = try PNGRead.rgba(path: frames.appendingPathComponent(line.file).path)
        width = image.width
        height = image.height
        rgba = image.rgba
    }

    func rgb(_ x: Int, _ y: Int) -> TileInteropFixture.RGB {
        let i = (y * width + x) * 4
        return TileInteropFixture.RGB(r: rgba[i], g: rgba[i + 1], b: rgba[i + 2])
    }
}

enum TiledView {
    /// A point in world pixels of 256-px tiles at `zoom`.
    static func worldPixel(latitude: Double, longitude: Double, zoom: Int) -> (x: Double, y: Double) {
        let w = TileInteropFixture.worldFraction(latitude: latitude, longitude: longitude)
        let side = Double(256 << zoom)
        return (w.x * side, w.y * side)
    }

    /// `follow = center` along one axis, in world pixels: the whole pixel putting the dot nearest
    /// the canvas's middle, held inside a map of `length` px starting at world pixel `start`
    /// (a map no larger than the canvas stays centred on it).
    static func offset(dot: Double, canvas: Int, start: Int, length: Int) -> Int {
        if length <= canvas { return start + ((length - canvas) >> 1) }
        let wanted = Int((dot - Double(start) - Double(canvas) / 2).rounded())
        return start + min(max(wanted, 0), length - canvas)
    }

    /// Everything the dot draws at scale 1 lies within this many pixels of its centre: the halo
    /// at its widest (22 pt × 5.3 / 2) and the shadow's blur and offset, with a few pixels spare.
    static let dotReach = 66.0
}

extension RunningDaemon {
    /// Swaps in `config` with SIGHUP and waits until the daemon says it took it (the `count`-th time).
    func reload(_ config: String, count: Int) throws {
        try rewrite(config)
        child.signal(SIGHUP)
        try waitForLog("configuration reloaded", occurrences: count)
    }
}

/// A small plain tiled map: 3×3 PNG tiles of one colour at zoom 14, in Berlin.
enum SmallTileMap {
    static let first = TileID(z: 14, x: 8_800, y: 5_373)
    static let last = TileID(z: 14, x: 8_802, y: 5_375)

    /// Writes it to `path`; returns the north-west and south-east tiles' bounds.
    @discardableResult
    static func write(to path: String) throws -> (nw: GeoBounds, se: GeoBounds) {
        let nw = first.bounds, se = last.bounds
        let writer = try MBTilesWriter(path: path, metadata: [
            ("name", "small"), ("format", "png"), ("minzoom", "14"), ("maxzoom", "14"),
            ("bounds", "\(nw.west),\(se.south),\(se.east),\(nw.north)"),
        ])
        let tile = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)
        tile.buffer.fill(tile.buffer.bounds, with: Color(r: 200, g: 180, b: 150))
        let bytes = try PNGWrite.frame(tile.buffer)
        for x in 0..<3 { for y in 0..<3 { try writer.add(TileID(z: 14, x: first.x + x, y: first.y + y), bytes: bytes) } }
        try writer.finish()
        return (nw, se)
    }
}
