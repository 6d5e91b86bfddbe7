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

/// A map picture drawn from the tiles for a display plane that pans the map holds, wherever a
/// window of it lies, exactly what the software canvas shows for the same view: in XRGB8888 and
/// RGB565 (narrowing the tiles, or from their RGB565 copies), over a hole in the map and off the
/// tiles. While a picture is shown its tiles are asked for, and one arriving marks it outdated.
final class TiledMapPictureTests: XCTestCase {
    private let background = Color(r: 0x11, g: 0x22, b: 0x33)
    private let (w, h) = (300, 200)

    private func map(_ name: String) throws -> TiledMap {
        let missing: Set<TileID> = [TileID(z: 12, x: 1201, y: 1401)]
        let fixture = try TileMapFixture.make(in: try TestEnvironment.temporaryDirectory(name), missing: missing)
        let set = try TileSet.open(path: fixture.path, scheme: .xyz, measure: TileDimensions.of)
        return try TiledMap(tileSet: set, zoom: 12, background: background, cacheBytes: 32 << 20, canvasWidth: w, canvasHeight: h)
    }

    /// Row `row` of the `width`-pixel run at (x, y) of `b`.
    private func run(_ b: PixelBuffer, x: Int, y: Int, width: Int) -> [UInt8] {
        let bpp = b.format.bytesPerPixel
        return Array(UnsafeRawBufferPointer(start: b.row(y) + x * bpp, count: width * bpp))
    }

    func testEveryWindowOfThePictureIsTheCanvasOfThatViewInBothFormats() throws {
        let map = try map("tile-picture")
        defer { map.close() }
        let renderer = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .tiles(map.mosaic))
        let m = 70, (uw, uh) = (w + 2 * 70, h + 2 * 70)
        let canvas565 = OwnedPixelBuffer(width: w, height: h, format: .rgb565)
        // Inside, over the missing tile (256…511, 256…511), off the top-left, off the bottom-right
        // (the map is 1536×1280), and nowhere near the tiles.
        let views = [(400, 300), (150, 180), (-150, -80), (1400, 1150), (-2000, 50)]
        for pass in ["xrgb8888", "rgb565 narrowed", "rgb565 from the tiles' copies"] {
            let format: PixelFormat = pass == "xrgb8888" ? .xrgb8888 : .rgb565
            if pass == "rgb565 from the tiles' copies" { map.mosaic.requestNarrowed() }
            let picture = OwnedPixelBuffer(width: uw + 9, height: uh + 5, format: format)
            for v in views {
                let origin = (x: v.0 - m, y: v.1 - m)
                let corners = [(0, 0), (2 * m, 0), (0, 2 * m), (2 * m, 2 * m), (m, m), (31, 97)]
                for c in corners { map.preload(offset: ViewOffset(x: origin.x + c.0, y: origin.y + c.1)) }
                map.drawPicture(originX: origin.x, originY: origin.y, width: uw, height: uh, into: picture.buffer)
                XCTAssertFalse(map.pictureOutdated)
                for c in corners {
                    map.show(offset: ViewOffset(x: origin.x + c.0, y: origin.y + c.1))
                    map.waitForView()
                    _ = map.receive()
                    renderer.invalidate()
                    renderer.render(nil, centerX: 0, centerY: 0)
                    var shown = renderer.canvas.buffer
                    if format == .rgb565 {
                        renderer.canvas.buffer.copyOut(region: renderer.bounds, to: canvas565.buffer, rotation: .r0)
                        shown = canvas565.buffer
                    }
                    for row in 0..<h where run(picture.buffer, x: c.0, y: c.1 + row, width: w) != run(shown, x: 0, y: row, width: w) {
                        return XCTFail("\(pass), view \(v), window at \(c): row \(row) is not the canvas's")
                    }
                }
                if pass == "rgb565 from the tiles' copies" { XCTAssertTrue(map.mosaic.hasNarrowed) }
            }
            // The hole in the map, and off the tiles, in the map's colour; a tile's own pixels.
            map.drawPicture(originX: 200, originY: 200, width: uw, height: uh, into: picture.buffer)
            XCTAssertEqual(picture.buffer.pixel(x: 100, y: 100) & 0xFF_FFFF, widened(0x112233, format), pass)
            XCTAssertEqual(picture.buffer.pixel(x: 10, y: 10) & 0xFF_FFFF, widened(TileMapFixture.tileColor(column: 0, row: 0, px: 210, py: 210), format), pass)
            map.drawPicture(originX: -400, originY: 10, width: uw, height: uh, into: picture.buffer)
            XCTAssertEqual(picture.buffer.pixel(x: 5, y: 5) & 0xFF_FFFF, widened(0x112233, format), pass)
        }
    }

    private func widened(_ rgb: UInt32, _ format: PixelFormat) -> UInt32 {
        let one = OwnedPixelBuffer(width: 1, height: 1, format: .xrgb8888), out = OwnedPixelBuffer(width: 1, height: 1, format: format)
        one.buffer.row(0).storeBytes(of: 0xFF00_0000 | rgb, as: UInt32.self)
        one.buffer.copyOut(region: one.buffer.bounds, to: out.buffer, rotation: .r0)
        return out.buffer.pixel(x: 0, y: 0) & 0xFF_FFFF
    }

    func testAPictureAsksForItsTilesAndATileArrivingInsideMarksItOutdated() throws {
        let map = try map("tile-picture-arrivals")
        defer { map.close() }
        let picture = OwnedPixelBuffer(width: 1500, height: 1100, format: .xrgb8888)
        map.show(offset: ViewOffset(x: 600, y: 500))
        // Drawn before any tile is decoded: the map's colour everywhere.
        map.drawPicture(originX: 0, originY: 0, width: 1500, height: 1100, into: picture.buffer)
        XCTAssertEqual(picture.buffer.pixel(x: 750, y: 600) & 0xFF_FFFF, 0x112233, "a tile not decoded yet")
        XCTAssertFalse(map.pictureOutdated)
        // The view's ring is tiles 1…4 × 0…3 (16); the picture reaches all 6×5 of the map, the
        // hole among them, and the pool has room for them all.
        let deadline = Date().addingTimeInterval(20)
        while map.tilesHeld < 30, Date() < deadline {
            _ = try? map.deliveryDescriptor.waitUntilReadable(timeoutMilliseconds: 200)
            _ = map.receive()
        }
        XCTAssertEqual(map.tilesHeld, 30, "the picture's tiles were asked for")
        XCTAssertTrue(map.pictureOutdated, "tiles arrived inside the picture")
        map.drawPicture(originX: 0, originY: 0, width: 1500, height: 1100, into: picture.buffer)
        XCTAssertFalse(map.pictureOutdated)
        XCTAssertEqual(picture.buffer.pixel(x: 750, y: 600) & 0xFF_FFFF,
                       TileMapFixture.tileColor(column: 2, row: 2, px: 750 - 512, py: 600 - 512) & 0xFF_FFFF)
        XCTAssertEqual(picture.buffer.pixel(x: 1400, y: 1050) & 0xFF_FFFF,
                       TileMapFixture.tileColor(column: 5, row: 4, px: 1400 - 1280, py: 1050 - 1024) & 0xFF_FFFF, "beyond the ring")
        map.forgetPicture()
        XCTAssertFalse(map.pictureOutdated)
    }
}
