@testable import Config
import Compositor
import DisplayCore
import Foundation
@testable import Geo
import Location
import Outputs
import PNG
import Raster
@testable import Scene
import Syscall
import TestSupport
import XCTest

/// A route on a view over a map image: the image carries it, so the canvas shows the bare map
/// with the route drawn over it (but where the dot is), also after the travelled part and the
/// next stop moved and only their damage was redrawn; panned on the display's primary plane the
/// screen is that same frame; taken away, the bare map is back.
final class SceneRouteTests: XCTestCase {
    static let (mapWidth, mapHeight) = (900, 700)
    static let files = MapFiles(imageSize: (mapWidth, mapHeight))

    private static func pixel(_ p: PixelBuffer, _ x: Int, _ y: Int) -> UInt32 { p.row(y).load(fromByteOffset: x * 4, as: UInt32.self) & 0xFF_FFFF }

    private func mapSettings() throws -> (Settings, String) {
        let dir = try TestEnvironment.temporaryDirectory("scene-route")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        var rgb: [UInt8] = []
        rgb.reserveCapacity(Self.mapWidth * Self.mapHeight * 3)
        for y in 0..<Self.mapHeight { for x in 0..<Self.mapWidth { rgb += [UInt8((x * 7 + y) & 0xFF), UInt8((y * 5 + x / 3) & 0xFF), UInt8((x ^ y) & 0xFF)] } }
        let path = dir.appendingPathComponent("map.png").path
        try PNGWrite.rgb(width: Self.mapWidth, height: Self.mapHeight, rgb: rgb, to: path)
        var s = Settings()
        s.map.imagePath = path
        s.map.bounds = GeoBounds(west: 0, south: 0, east: 0.04, north: 0.03)
        s.map.follow = .center
        return (s, path)
    }

    /// A zigzag through the middle of the map, where the dot drives.
    private func makeRoute() -> RouteLayer {
        let layer = RouteLayer(style: RouteStyle(color: Color(r: 200, g: 30, b: 90)))
        layer.setRoute(x: [150, 300.5, 380.2, 470.8, 560.1, 700], y: [420, 350.7, 410.3, 330.9, 300.2, 250])
        layer.setStops([Point256(x: 300.5, y: 350.7), Point256(x: 470.8, y: 330.9), Point256(x: 700, y: 250)])
        return layer
    }

    /// Pixels of `canvas` differing from the bare map at `offset` with `route` drawn over it,
    /// farther than 70 px from `dot`; and how many compared pixels the route changed.
    private func differences(_ canvas: PixelBuffer, bare: OwnedPixelBuffer, offset: ViewOffset, route: RouteLayer?,
                             dot: MapPoint?) -> (wrong: Int, routed: Int) {
        let want = OwnedPixelBuffer(width: canvas.width, height: canvas.height, format: .xrgb8888)
        return withExtendedLifetime((want, bare)) {
            let view = PixelBuffer(base: bare.buffer.row(offset.y) + offset.x * 4, width: canvas.width, height: canvas.height,
                                   stride: bare.buffer.stride, format: .xrgb8888)
            want.buffer.copy(want.buffer.bounds, from: view)
            route?.draw(into: want.buffer, clip: want.buffer.bounds, originX: offset.x, originY: offset.y)
            var wrong = 0, routed = 0
            for y in 0..<canvas.height { for x in 0..<canvas.width {
                if let dot, (Double(x) - dot.x) * (Double(x) - dot.x) + (Double(y) - dot.y) * (Double(y) - dot.y) < 70 * 70 { continue }
                let w = Self.pixel(want.buffer, x, y)
                if Self.pixel(canvas, x, y) != w { wrong += 1 }
                if w != Self.pixel(view, x, y) { routed += 1 }
            } }
            return (wrong, routed)
        }
    }

    func testTheImageCarriesTheRouteOnTheCanvasAndOnThePlane() throws {
        let (settings, path) = try mapSettings()
        let bare = try MapImage(path: path, background: settings.map.background).pixels
        let map = try MapImage(path: path, background: settings.map.background)
        let software = try SceneView(settings: settings, files: Self.files, canvasWidth: 240, canvasHeight: 180, physicalHeight: 180, map: map,
                                     staleAfter: 30, center: nil)
        // The display's view has a map and a route of its own, as a daemon's one view has.
        let planeImage = try MapImage(path: path, background: settings.map.background)
        let display = PlanesDisplay(width: 240, height: 180, margin: PlaneMap.margin)
        let driven = try DrivenDisplay.start(display, now: 0) { w, h, _ throws(SceneView.SetupError) in
            try SceneView(settings: settings, files: Self.files, canvasWidth: w, canvasHeight: h, physicalHeight: h, map: planeImage, staleAfter: 30, center: nil)
        }.get()
        XCTAssertNotNil(driven.view.planeMap)
        let route = makeRoute(), planeRoute = makeRoute()
        software.showRoute(route)
        driven.view.showRoute(planeRoute)
        XCTAssertTrue(software.route === route)
        // Another view over the same image: the image carries the route for it too.
        let again = try SceneView(settings: settings, files: Self.files, canvasWidth: 240, canvasHeight: 180, physicalHeight: 180, map: map,
                                  staleAfter: 30, center: nil)
        XCTAssertTrue(again.route === route)
        var routedFrames = 0
        for n in 0..<60 {
            let t = 1 + Double(n) * 0.1
            if n % 10 == 5 {
                for r in [route, planeRoute] {
                    r.setTravelled(distance256: Int64(n * 8 * 256))
                    r.setNextStop(n / 20)
                }
                software.routeMoved()
                driven.view.routeMoved()
            }
            let fix = Fix(latitude: 0.012 + Double(n) * 0.00005, longitude: 0.012 + Double(n) * 0.00015, mode: .threeD,
                          horizontalError: 3, receivedAt: MonotonicInstant(nanoseconds: Int64(t * 1e9)))
            software.add(fix)
            driven.view.add(fix)
            _ = software.draw(at: t)
            try driven.present(driven.view.draw(at: t), frame: FrameStamp(sinceStart: t, monotonic: t))
            let d = differences(software.renderer.canvas.buffer, bare: bare, offset: software.last.offset, route: route,
                                dot: software.last.center)
            XCTAssertEqual(d.wrong, 0, "frame \(n): not the bare map with the route drawn over it")
            if d.routed > 0 { routedFrames += 1 }
            if display.shown != nil {
                let screen = display.screen()
                let e = withExtendedLifetime(screen) {
                    differences(screen.buffer, bare: bare, offset: driven.view.last.offset, route: route, dot: driven.view.last.center)
                }
                XCTAssertEqual(e.wrong, 0, "frame \(n): the plane's picture lacks the route as it is now")
            }
        }
        XCTAssertGreaterThan(routedFrames, 50, "the route was hardly in view")
        XCTAssertGreaterThan(display.windowMoves, 20, "the map panned on the plane")

        software.showRoute(nil)
        XCTAssertNil(software.route)
        _ = software.draw(at: 8)
        let d = differences(software.renderer.canvas.buffer, bare: bare, offset: software.last.offset, route: nil, dot: software.last.center)
        XCTAssertEqual(d.wrong, 0, "the route was left in the image")
    }
}
