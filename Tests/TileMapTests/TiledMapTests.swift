import Compositor
import Foundation
import Geo
import LocationDot
import Raster
import TestSupport
import TileDecode
import TileMap
import Tiles
import XCTest

final class TiledMapTests: XCTestCase {
    let colour = Color(r: 0x11, g: 0x22, b: 0x33)
    var background: UInt32 { SolidPaint.pixel(colour) }

    func openSet(_ fixture: TileMapFixture) throws -> TileSet {
        try TileSet.open(path: fixture.path, scheme: .xyz, measure: TileDimensions.of)
    }

    /// The canvas the mosaic restores for a view at `offset`.
    func canvas(_ map: TiledMap) -> OwnedPixelBuffer {
        let c = OwnedPixelBuffer(width: map.mosaic.canvasWidth, height: map.mosaic.canvasHeight, format: .xrgb8888)
        map.mosaic.restore(c.buffer.bounds, into: c.buffer)
        return c
    }

    func assertShows(_ map: TiledMap, offset: ViewOffset, except blank: Set<TileID> = [], file: StaticString = #filePath, line: UInt = #line) {
        let c = canvas(map)
        for y in stride(from: 0, to: c.buffer.height, by: 7) {
            for x in stride(from: 0, to: c.buffer.width, by: 5) {
                let mx = offset.x + x, my = offset.y + y
                var expected = TileMapFixture.mapPixel(x: mx, y: my) ?? background
                let id = TileID(z: TileMapFixture.zoom, x: TileMapFixture.firstX + (mx >> 8), y: TileMapFixture.firstY + (my >> 8))
                if blank.contains(id) { expected = background }
                let got = withExtendedLifetime(c) { c.buffer.pixel(x: x, y: y) }
                if got != expected {
                    XCTFail("canvas (\(x), \(y)), map (\(mx), \(my)): \(String(got, radix: 16)), expected \(String(expected, radix: 16))", file: file, line: line)
                    return
                }
            }
        }
    }

    func testOpensTheSetAndLearnsItsTileSizeAndRange() throws {
        let fixture = try TileMapFixture.make(in: try TestEnvironment.temporaryDirectory("tilemap"))
        let set = try openSet(fixture)
        XCTAssertEqual(set.tileSize, 256)
        XCTAssertEqual(set.kind, .mbtiles)
        let r = set.tileRange(zoom: 12)
        XCTAssertEqual(r.firstColumn, TileMapFixture.firstX)
        XCTAssertEqual(r.firstRow, TileMapFixture.firstY)
        XCTAssertEqual(r.columns, TileMapFixture.across)
        XCTAssertEqual(r.rows, TileMapFixture.down)
        let deeper = set.tileRange(zoom: 13)
        XCTAssertEqual(deeper.firstColumn, 2 * TileMapFixture.firstX)
        XCTAssertEqual(deeper.columns, 2 * TileMapFixture.across)
    }

    func testAViewShowsTheTilesUnderIt() throws {
        let fixture = try TileMapFixture.make(in: try TestEnvironment.temporaryDirectory("tilemap"))
        let map = try TiledMap(tileSet: try openSet(fixture), zoom: 12, background: colour, cacheBytes: 32 << 20,
                               canvasWidth: 600, canvasHeight: 400)
        defer { map.close() }
        // Before any tile arrives the colour shows; after the wait every tile in view is in place.
        let offset = ViewOffset(x: 300, y: 130)
        XCTAssertTrue(map.show(offset: offset))
        let before = canvas(map)
        XCTAssertEqual(before.buffer.pixel(x: 10, y: 10), background)
        let damage = map.waitForView()
        XCTAssertEqual(damage, Rect(x: 0, y: 0, width: 600, height: 400), "the tiles that arrived cover the canvas")
        assertShows(map, offset: offset)
        XCTAssertFalse(map.show(offset: offset), "the same offset is no move")
        // Off the map's edge (left and above) the colour shows.
        let edge = ViewOffset(x: -100, y: -50)
        map.show(offset: edge)
        map.waitForView()
        assertShows(map, offset: edge)
    }

    func test512PixelTilesAreShownAtTheirOwnSize() throws {
        let fixture = try TileMapFixture.make(in: try TestEnvironment.temporaryDirectory("tilemap"), size: 512)
        let set = try openSet(fixture)
        XCTAssertEqual(set.tileSize, 512)
        let map = try TiledMap(tileSet: set, zoom: 12, background: colour, cacheBytes: 48 << 20, canvasWidth: 700, canvasHeight: 500)
        defer { map.close() }
        XCTAssertEqual(try map.projection().imageSize?.width, TileMapFixture.across * 512)
        let offset = ViewOffset(x: 900, y: 700)
        map.show(offset: offset)
        map.waitForView()
        let c = canvas(map)
        for (x, y) in [(0, 0), (123, 321), (699, 499), (400, 10)] {
            XCTAssertEqual(c.buffer.pixel(x: x, y: y), TileMapFixture.mapPixel(x: offset.x + x, y: offset.y + y, size: 512), "(\(x), \(y))")
        }
    }

    func testMissingAndDamagedTilesShowTheColourAndAreSaidOnce() throws {
        let gone = TileID(z: 12, x: TileMapFixture.firstX + 1, y: TileMapFixture.firstY + 1)
        let broken = TileID(z: 12, x: TileMapFixture.firstX + 2, y: TileMapFixture.firstY)
        let fixture = try TileMapFixture.make(in: try TestEnvironment.temporaryDirectory("tilemap"), missing: [gone], corrupt: [broken])
        let map = try TiledMap(tileSet: try openSet(fixture), zoom: 12, background: colour, cacheBytes: 32 << 20,
                               canvasWidth: 700, canvasHeight: 500)
        defer { map.close() }
        let offset = ViewOffset(x: 0, y: 0)
        map.show(offset: offset)
        map.waitForView()
        assertShows(map, offset: offset, except: [gone, broken])
        let notes = map.takeNotes()
        XCTAssertEqual(notes.count, 2, "\(notes)")
        XCTAssertEqual(notes.filter { $0.contains("tile 12/\(broken.x)/\(broken.y)") }.count, 1, "the damaged tile is named: \(notes)")
        XCTAssertEqual(notes.filter { $0.contains("tile 12/\(gone.x)/\(gone.y) is not in the map") }.count, 1, "the missing tile is named: \(notes)")
        XCTAssertTrue(map.takeNotes().isEmpty)
        XCTAssertEqual(map.tilesFailed, 1)
    }

    func testTheCacheStaysItsSizeOverALongDriveAndStillShowsTheRightTiles() throws {
        let fixture = try TileMapFixture.make(in: try TestEnvironment.temporaryDirectory("tilemap"))
        let needed = try openSet(fixture).slotsNeeded(canvasWidth: 300, canvasHeight: 200)
        let map = try TiledMap(tileSet: try openSet(fixture), zoom: 12, background: colour, cacheBytes: needed * 256 * 256 * 4,
                               canvasWidth: 300, canvasHeight: 200)
        defer { map.close() }
        XCTAssertEqual(map.cacheSlots, needed)
        // Back and forth across the whole map: tiles are given up and decoded again.
        var offsets: [ViewOffset] = []
        for lap in 0..<2 {
            for step in 0..<40 {
                let t = lap == 0 ? step : 39 - step
                offsets.append(ViewOffset(x: t * 33, y: (t * 29) % 1100))
            }
        }
        for offset in offsets {
            map.show(offset: offset)
            map.waitForView()
            assertShows(map, offset: offset)
        }
        XCTAssertEqual(map.cacheSlots, needed)
        XCTAssertEqual(map.cacheBytes, needed * 256 * 256 * 4)
        XCTAssertGreaterThan(map.tilesDecoded, needed, "tiles were given up and decoded again")
    }

    func testADeeperZoomEnlargesTheDeepestTilesAndSaysSo() throws {
        let fixture = try TileMapFixture.make(in: try TestEnvironment.temporaryDirectory("tilemap"))
        let map = try TiledMap(tileSet: try openSet(fixture), zoom: 13, background: colour, cacheBytes: 32 << 20,
                               canvasWidth: 400, canvasHeight: 300)
        defer { map.close() }
        XCTAssertEqual(map.sourceZoom, 12)
        XCTAssertEqual(map.columns, 2 * TileMapFixture.across)
        let offset = ViewOffset(x: 700, y: 450)
        map.show(offset: offset)
        map.waitForView()
        let c = canvas(map)
        for (x, y) in [(0, 0), (13, 77), (399, 299), (250, 3)] {
            let expected = TileMapFixture.mapPixel(x: (offset.x + x) >> 1, y: (offset.y + y) >> 1)
            XCTAssertEqual(c.buffer.pixel(x: x, y: y), expected, "(\(x), \(y)) is the zoom-12 pixel enlarged 2x")
        }
        XCTAssertTrue(map.takeNotes().first?.contains("enlarged 2x") ?? false)
        XCTAssertThrowsError(try TiledMap(tileSet: try openSet(fixture), zoom: 15, background: colour, cacheBytes: 32 << 20,
                                          canvasWidth: 400, canvasHeight: 300)) { error in
            XCTAssertTrue("\(error)".contains("at most two levels"), "\(error)")
        }
    }

    func testACacheSmallerThanTheViewAndItsRingIsRefused() throws {
        let fixture = try TileMapFixture.make(in: try TestEnvironment.temporaryDirectory("tilemap"))
        XCTAssertEqual(try openSet(fixture).slotsNeeded(canvasWidth: 1920, canvasHeight: 1080), 88)
        XCTAssertThrowsError(try TiledMap(tileSet: try openSet(fixture), zoom: 12, background: colour, cacheBytes: 8 << 20,
                                          canvasWidth: 1920, canvasHeight: 1080)) { error in
            XCTAssertTrue("\(error)".contains("need 88"), "\(error)")
            XCTAssertTrue("\(error)".contains("cacheMegabytes ≥ 22"), "\(error)")
        }
    }

    /// The renderer over tiles draws exactly what it draws over the same map as one image.
    func testFramesOverTilesEqualFramesOverTheSameImage() throws {
        let fixture = try TileMapFixture.make(in: try TestEnvironment.temporaryDirectory("tilemap"))
        let map = try TiledMap(tileSet: try openSet(fixture), zoom: 12, background: colour, cacheBytes: 32 << 20,
                               canvasWidth: 320, canvasHeight: 240)
        defer { map.close() }
        let offset = ViewOffset(x: 500, y: 333)
        map.show(offset: offset)
        map.waitForView()
        let image = OwnedPixelBuffer(width: 320, height: 240, format: .xrgb8888)
        for y in 0..<240 {
            for x in 0..<320 {
                image.buffer.row(y).storeBytes(of: TileMapFixture.mapPixel(x: offset.x + x, y: offset.y + y)!, toByteOffset: x * 4, as: UInt32.self)
            }
        }
        var look = DotAppearance()
        look.haloSize = 0.6
        look.haloOpacity = 0.5
        look.accuracyRadiusPx = 40
        let tiled = try FrameRenderer(width: 320, height: 240, style: DotStyle(), scale: 2, background: .tiles(map.mosaic))
        let plain = try FrameRenderer(width: 320, height: 240, style: DotStyle(), scale: 2, background: .frame(image))
        for step in 0..<6 {
            let x = 100 + Double(step) * 13.25, y = 120 - Double(step) * 5.5
            XCTAssertEqual(tiled.render(look, centerX: x, centerY: y), plain.render(look, centerX: x, centerY: y))
            XCTAssertTrue(Array(tiled.canvas.bytes) == Array(plain.canvas.bytes), "step \(step): frames differ")
        }
    }
}

final class TiledScrollTests: XCTestCase {
    /// A band across the map in map pixels, translucent, drawn in the view the test sets: a map
    /// layer that must move with the tiles when the canvas scrolls.
    final class Band: Layer {
        var view = ViewOffset(x: 0, y: 0)
        var frame: Rect { Rect(x: 150 - view.x, y: 120 - view.y, width: 400, height: 9) }
        func takeDamage() -> Rect { .empty }
        func draw(into canvas: PixelBuffer, clip: Rect) {
            let box = frame.intersection(clip).intersection(canvas.bounds)
            if box.isEmpty { return }
            for y in box.y..<box.maxY {
                let row = canvas.row(y).assumingMemoryBound(to: UInt32.self)
                for x in box.x..<box.maxX { row[x] = Blend.over(row[x], Color(r: 230, g: 20, b: 60, a: 150), coverage: 255) }
            }
        }
    }

    /// A view that pans over tiles (the canvas scrolled, only what that uncovers restored) ends
    /// every frame with exactly the pixels of a frame drawn from nothing over the same map, with
    /// a map layer moving with the tiles and a screen layer staying put.
    func testScrolledFramesEqualFramesDrawnFromNothing() throws {
        let fixture = try TileMapFixture.make(in: try TestEnvironment.temporaryDirectory("tilemap"))
        let set = try TileSet.open(path: fixture.path, scheme: .xyz, measure: TileDimensions.of)
        let colour = Color(r: 0x11, g: 0x22, b: 0x33)
        let (w, h) = (300, 200)
        let map = try TiledMap(tileSet: set, zoom: 12, background: colour, cacheBytes: 32 << 20, canvasWidth: w, canvasHeight: h)
        defer { map.close() }
        func label() -> Overlay {
            let o = Overlay(width: 60, height: 14, x: w - 60, y: h - 14)
            o.fill(Rect(x: 0, y: 0, width: 60, height: 14), with: Color(r: 255, g: 255, b: 255, a: 191))
            o.fill(Rect(x: 5, y: 3, width: 30, height: 6), with: Color(r: 0x33, g: 0x33, b: 0x33))
            return o
        }
        let tiled = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 2, background: .tiles(map.mosaic))
        let band = Band()
        tiled.add(band, on: .map)
        tiled.add(PictureLayer(label()), on: .screen)
        var look = DotAppearance()
        look.haloSize = 0.7
        look.haloOpacity = 0.4
        look.accuracyRadiusPx = 30
        // Small moves every way, tile edges crossed, a standstill, a jump, and the map's edge.
        let moves = [(0, 0), (3, 1), (-2, 4), (7, -5), (0, -3), (40, 0), (0, 0), (-1, -1), (260, 130), (1, 2), (-700, -500), (2, 1)]
        var offset = ViewOffset(x: 200, y: 100)
        for (step, move) in moves.enumerated() {
            offset = ViewOffset(x: offset.x + move.0, y: offset.y + move.1)
            let was = map.mosaic.offset
            if map.show(offset: offset) { tiled.scrollCanvas(byX: offset.x - was.x, y: offset.y - was.y) }
            band.view = ViewOffset(x: map.mosaic.offset.x, y: map.mosaic.offset.y)
            tiled.invalidate(map.waitForView())
            let x = 150 + Double(step) * 1.37, y = 100 - Double(step) * 0.61
            tiled.render(look, centerX: x, centerY: y)

            let image = OwnedPixelBuffer(width: w, height: h, format: .xrgb8888)
            for py in 0..<h {
                for px in 0..<w {
                    let v = TileMapFixture.mapPixel(x: offset.x + px, y: offset.y + py) ?? SolidPaint.pixel(colour)
                    image.buffer.row(py).storeBytes(of: v, toByteOffset: px * 4, as: UInt32.self)
                }
            }
            let fresh = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 2, background: .frame(image))
            let still = Band()
            still.view = ViewOffset(x: map.mosaic.offset.x, y: map.mosaic.offset.y)
            fresh.add(still, on: .map)
            fresh.add(PictureLayer(label()), on: .screen)
            fresh.render(look, centerX: x, centerY: y)
            XCTAssertTrue(Array(tiled.canvas.bytes) == Array(fresh.canvas.bytes), "step \(step), offset \(offset): the scrolled frame differs")
        }
    }
}
