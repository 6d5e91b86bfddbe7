import Compositor
import Foundation
import Geo
import Raster
import TestSupport
import TileDecode
import TileMap
import Tiles
import XCTest

/// A route drawn into the tiles: each frame shows exactly the bare map with the route drawn over
/// the whole canvas once; moving the travelled boundary or the next stop repaints only the tiles'
/// damaged part and still equals a whole redraw; the RGB565 copies and a plane's map picture
/// carry it too; taking it away gives the bare map back.
final class TiledMapRouteTests: XCTestCase {
    static let (w, h) = (300, 200)
    static let blue = Color(r: 20, g: 60, b: 200)

    static func route() -> RouteLayer {
        let layer = RouteLayer(style: RouteStyle(color: blue))
        let xs: [Double] = [150.5, 330.2, 420.7, 520.1, 610.4, 700]
        let ys: [Double] = [120.3, 160.8, 260.2, 250.5, 140.9, 300]
        layer.setRoute(x: xs, y: ys)
        layer.setStops([(330.2, 160.8), (420.7, 260.2), (520.1, 250.5), (700, 300)].map { Point256(x: $0.0, y: $0.1) })
        return layer
    }

    /// The bare map under a canvas at `offset`, with `route` (if any) drawn over it all at once.
    static func expected(offset: ViewOffset, route: RouteLayer?) -> OwnedPixelBuffer {
        let canvas = OwnedPixelBuffer(width: w, height: h, format: .xrgb8888)
        for y in 0..<h {
            let row = canvas.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w { row[x] = TileMapFixture.mapPixel(x: offset.x + x, y: offset.y + y) ?? 0xFF11_2233 }
        }
        route?.draw(into: canvas.buffer, clip: canvas.buffer.bounds, originX: offset.x, originY: offset.y)
        return canvas
    }

    /// An owned frame's bytes, kept alive while read (a `PixelBuffer` alone does not keep it).
    static func pixels(_ o: OwnedPixelBuffer) -> [UInt8] { withExtendedLifetime(o) { pixels(o.buffer) } }

    static func pixels(_ b: PixelBuffer) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<b.height { out += UnsafeRawBufferPointer(start: b.row(y), count: b.width * b.format.bytesPerPixel) }
        return out
    }

    private func makeMap(_ name: String) throws -> (TiledMap, FrameRenderer) {
        let fixture = try TileMapFixture.make(in: try TestEnvironment.temporaryDirectory(name))
        let set = try TileSet.open(path: fixture.path, scheme: .xyz, measure: TileDimensions.of)
        let map = try TiledMap(tileSet: set, zoom: 12, background: Color(r: 0x11, g: 0x22, b: 0x33), cacheBytes: 16 << 20,
                               canvasWidth: Self.w, canvasHeight: Self.h)
        let renderer = try FrameRenderer(width: Self.w, height: Self.h, style: .init(), scale: 1, background: .tiles(map.mosaic))
        return (map, renderer)
    }

    private func frame(_ map: TiledMap, _ renderer: FrameRenderer, at offset: ViewOffset) {
        let was = map.mosaic.offset
        if map.show(offset: offset) { renderer.scrollCanvas(byX: offset.x - was.x, y: offset.y - was.y) }
        renderer.invalidate(map.waitForView())
        renderer.render(nil, centerX: 0, centerY: 0)
    }

    func testFramesShowTheRouteAsIfDrawnOverTheWholeCanvasAndRepaintOnlyWhereItMoved() throws {
        let (map, renderer) = try makeMap("tilemap-route")
        defer { map.close() }
        var offset = ViewOffset(x: 200, y: 100)
        // Some tiles are in the pool before the route comes, the rest arrive after it.
        frame(map, renderer, at: offset)
        XCTAssertTrue(Self.pixels(renderer.canvas.buffer) == Self.pixels(Self.expected(offset: offset, route: nil)), "the bare map")
        let route = Self.route()
        route.setTravelled(distance256: 60 * 256)
        route.setNextStop(1)
        map.setRoute(route)
        renderer.invalidate()
        XCTAssertGreaterThan(map.routeBytes, 0)
        XCTAssertLessThan(map.routeBytes, 1 << 20, "the map is kept under the route only")
        let steps: [(dx: Int, dy: Int, travelled: Int, next: Int?)] = [
            (0, 0, 60, 1), (0, 0, 75, 1), (3, -2, 140, 1), (0, 0, 141, 2), (120, 90, 300, 2), (0, 0, 310, nil),
            (-40, 10, 420, 3), (260, 0, 700, 3), (-300, -60, 90, 0),
        ]
        var onRoute = 0
        for (n, step) in steps.enumerated() {
            offset = ViewOffset(x: offset.x + step.dx, y: offset.y + step.dy)
            route.setTravelled(distance256: Int64(step.travelled * 256))
            route.setNextStop(step.next)
            let repainted = map.routeMoved()
            if n > 0, step.dx == 0, step.dy == 0, step.next == steps[n - 1].next {
                XCTAssertFalse(repainted.isEmpty, "step \(n): the change repainted nothing")
                XCTAssertLessThan(repainted.area, Self.w * Self.h / 4, "step \(n): \(repainted) is not a small part of the canvas")
            }
            renderer.invalidate(repainted)
            frame(map, renderer, at: offset)
            let want = Self.expected(offset: offset, route: route), bare = Self.expected(offset: offset, route: nil)
            XCTAssertTrue(Self.pixels(renderer.canvas.buffer) == Self.pixels(want), "step \(n) at \(offset): not the route drawn over the map")
            if Self.pixels(want) != Self.pixels(bare) { onRoute += 1 }
        }
        XCTAssertGreaterThanOrEqual(onRoute, steps.count - 2, "the route was hardly ever in view")

        // A plane's picture is drawn from the same slots: it shows the route.
        let picture = OwnedPixelBuffer(width: 500, height: 400, format: .xrgb8888)
        map.drawPicture(originX: 100, originY: 50, width: 500, height: 400, into: picture.buffer)
        _ = map.waitForView()
        map.drawPicture(originX: 100, originY: 50, width: 500, height: 400, into: picture.buffer)
        let inView = Self.expected(offset: offset, route: route)
        let window = PixelBuffer(base: picture.buffer.row(offset.y - 50) + (offset.x - 100) * 4, width: Self.w, height: Self.h,
                                 stride: picture.buffer.stride, format: .xrgb8888)
        XCTAssertTrue(withExtendedLifetime(picture) { Self.pixels(window) } == Self.pixels(inView), "the map picture lacks the route")

        // Taken away: the bare map again.
        map.setRoute(nil)
        renderer.invalidate()
        frame(map, renderer, at: offset)
        XCTAssertTrue(Self.pixels(renderer.canvas.buffer) == Self.pixels(Self.expected(offset: offset, route: nil)),
                      "the route was left in the tiles")
    }

    func testRGB565FramesShowTheRoute() throws {
        let (map, renderer) = try makeMap("tilemap-route-565")
        defer { map.close() }
        renderer.prepareCopyOut(format: .rgb565)
        var offset = ViewOffset(x: 250, y: 120)
        let route = Self.route()
        map.setRoute(route)
        let screen = OwnedPixelBuffer(width: Self.w, height: Self.h, format: .rgb565)
        let want = OwnedPixelBuffer(width: Self.w, height: Self.h, format: .rgb565)
        for (n, travelled) in [0, 40, 41, 200, 380].enumerated() {
            offset = ViewOffset(x: offset.x + n, y: offset.y - n)
            route.setTravelled(distance256: Int64(travelled * 256))
            route.setNextStop(n % 3)
            renderer.invalidate(map.routeMoved())
            frame(map, renderer, at: offset)
            XCTAssertTrue(map.mosaic.hasNarrowed || n == 0)
            renderer.copyOut(renderer.bounds, to: screen.buffer)
            let whole = Self.expected(offset: offset, route: route)
            whole.buffer.copyOut(region: whole.buffer.bounds, to: want.buffer, rotation: .r0)
            XCTAssertTrue(Self.pixels(screen) == Self.pixels(want), "frame \(n): the RGB565 frame lacks the route")
        }
        XCTAssertTrue(map.mosaic.hasNarrowed, "the tiles' RGB565 copies were never used")
    }
}
