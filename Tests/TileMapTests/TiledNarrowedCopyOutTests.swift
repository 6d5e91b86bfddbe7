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

/// Copy-out to an RGB565 panel over tiles moves the tiles' RGB565 copies and narrows only what
/// was drawn over them: through pans, tile edges, holes in the map, tiles arriving late and a
/// jump, two scan-out buffers written in turn with two frames' damage must each hold exactly
/// what narrowing the whole canvas gives.
final class TiledNarrowedCopyOutTests: XCTestCase {
    func testEveryCopiedFrameEqualsNarrowingTheWholeCanvas() throws {
        let missing: Set<TileID> = [TileID(z: 12, x: 1201, y: 1401)]
        let fixture = try TileMapFixture.make(in: try TestEnvironment.temporaryDirectory("tilemap-narrowed"), missing: missing)
        let set = try TileSet.open(path: fixture.path, scheme: .xyz, measure: TileDimensions.of)
        let (w, h) = (300, 200)
        let map = try TiledMap(tileSet: set, zoom: 12, background: Color(r: 0x11, g: 0x22, b: 0x33), cacheBytes: 32 << 20,
                               canvasWidth: w, canvasHeight: h)
        defer { map.close() }
        let renderer = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 2, background: .tiles(map.mosaic))
        let label = Overlay(width: 60, height: 14, x: w - 60, y: h - 14)
        label.fill(Rect(x: 0, y: 0, width: 60, height: 14), with: Color(r: 255, g: 255, b: 255, a: 191))
        renderer.add(PictureLayer(label), on: .screen)
        let screens = [OwnedPixelBuffer(width: w, height: h, format: .rgb565), OwnedPixelBuffer(width: w, height: h, format: .rgb565)]
        let plain = OwnedPixelBuffer(width: w, height: h, format: .rgb565)
        var damage = Damage(bounds: renderer.bounds)
        let clock = DotClock(style: DotStyle())
        let moves = [(0, 0), (3, 1), (-2, 4), (7, -5), (0, 0), (40, 0), (-1, -1), (260, 130), (1, 2), (-700, -500), (2, 1), (5, 3)]
        var offset = ViewOffset(x: 200, y: 100)
        var narrowedFrames = 0
        for (n, move) in moves.enumerated() {
            offset = ViewOffset(x: offset.x + move.0, y: offset.y + move.1)
            let was = map.mosaic.offset
            if map.show(offset: offset) { renderer.scrollCanvas(byX: offset.x - was.x, y: offset.y - was.y) }
            // Tiles arrive when they do, except every third frame, which waits for the view.
            renderer.invalidate(n % 3 == 2 ? map.waitForView() : map.receive())
            let changed = renderer.render(clock.appearance(at: Double(n) * 0.23), centerX: 150 + Double(n) * 1.37,
                                          centerY: 100 - Double(n) * 0.61)
            damage.add(changed)
            renderer.prepareCopyOut(format: .rgb565)
            if map.mosaic.hasNarrowed { narrowedFrames += 1 }
            let screen = screens[n & 1].buffer
            renderer.copyOut(damage.union, to: screen)
            damage.endFrame()
            renderer.canvas.buffer.copyOut(region: renderer.bounds, to: plain.buffer, rotation: .r0)
            XCTAssertTrue(Array(bytes(screen)) == Array(bytes(plain.buffer)), "frame \(n), offset \(offset): the copied frame differs")
        }
        XCTAssertGreaterThanOrEqual(narrowedFrames, moves.count - 2, "the tiles' RGB565 copies were not used")
        XCTAssertTrue(map.takeNotes().contains { $0.contains("RGB565 copies of the cached tiles for the panel (16 MiB more)") })
    }

    private func bytes(_ b: PixelBuffer) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<b.height { out += UnsafeRawBufferPointer(start: b.row(y), count: b.width * b.format.bytesPerPixel) }
        return out
    }
}
