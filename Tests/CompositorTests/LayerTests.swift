import Compositor
import LocationDot
import Raster
import XCTest

/// The scene's layers: map layers over the map and under the dot, screen layers over everything,
/// each drawn only where a frame changed — and every frame, however it was reached (damage only,
/// a scrolled view, a layer moved or replaced), equal to the same scene drawn whole.
final class LayerTests: XCTestCase {
    /// A rectangle of one colour with alpha, in map pixels, drawn in the view its owner sets.
    final class MapBox: Layer {
        let mapRect: Rect
        let color: Color
        var view = (x: 0, y: 0)
        private var damage = Rect.empty
        init(_ mapRect: Rect, _ color: Color) { self.mapRect = mapRect; self.color = color }
        var frame: Rect { Rect(x: mapRect.x - view.x, y: mapRect.y - view.y, width: mapRect.width, height: mapRect.height) }
        func takeDamage() -> Rect { defer { damage = .empty }; return damage }
        func recolor() { damage = frame }
        func draw(into canvas: PixelBuffer, clip: Rect) {
            let box = frame.intersection(clip).intersection(canvas.bounds)
            if box.isEmpty { return }
            for y in box.y..<box.maxY {
                let row = canvas.row(y).assumingMemoryBound(to: UInt32.self)
                for x in box.x..<box.maxX { row[x] = Blend.over(row[x], color, coverage: 255) }
            }
        }
    }

    static func map(width: Int, height: Int) -> OwnedPixelBuffer {
        let m = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
        for y in 0..<height {
            let row = m.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { row[x] = 0xFF00_0000 | UInt32((x * 7) & 255) << 16 | UInt32((y * 5) & 255) << 8 | UInt32((x + y) & 255) }
        }
        return m
    }

    static func label(x: Int, y: Int) -> Overlay {
        let o = Overlay(width: 40, height: 12, x: x, y: y)
        o.fill(Rect(x: 0, y: 0, width: 40, height: 12), with: Color(r: 255, g: 255, b: 255, a: 170))
        return o
    }

    func pixels(_ b: PixelBuffer) -> [UInt32] {
        (0..<b.height).flatMap { y in Array(UnsafeBufferPointer(start: b.row(y).assumingMemoryBound(to: UInt32.self), count: b.width)) }
    }

    /// The order: map, map layer, dot, screen layer — seen at one pixel where all four meet.
    func testLayersAreDrawnInTheirPlaceInTheOrder() throws {
        let renderer = try FrameRenderer(width: 64, height: 48, style: DotStyle(), scale: 1, background: .color(Color(r: 0, g: 0, b: 255)))
        let route = MapBox(Rect(x: 0, y: 20, width: 64, height: 8), Color(r: 255, g: 0, b: 0))
        renderer.add(route, on: .map)
        let banner = PictureLayer(Overlay(width: 64, height: 4, x: 0, y: 22))
        banner.picture.fill(Rect(x: 0, y: 0, width: 64, height: 4), with: Color(r: 0, g: 255, b: 0))
        renderer.add(banner, on: .screen)
        renderer.render(DotAppearance(), centerX: 32, centerY: 24)
        let row = { (y: Int) in self.pixels(renderer.canvas.buffer)[y * 64 + 2] }
        XCTAssertEqual(row(10) & 0xFF_FFFF, 0x0000FF, "the map")
        XCTAssertEqual(row(21) & 0xFF_FFFF, 0xFF0000, "the route over the map")
        XCTAssertEqual(row(23) & 0xFF_FFFF, 0x00FF00, "the banner over the route")
        let centre = pixels(renderer.canvas.buffer)[24 * 64 + 32] & 0xFF_FFFF
        XCTAssertEqual(centre, 0x00FF00, "the banner over the dot")
        let underDot = pixels(renderer.canvas.buffer)[20 * 64 + 32] & 0xFF_FFFF
        XCTAssertNotEqual(underDot, 0xFF0000, "the dot over the route")
    }

    /// Over a larger map image that the view pans across, with the dot moving and the layers
    /// moving, changing and replaced: every frame equals a fresh renderer's whole frame.
    func testEveryFrameEqualsTheSceneDrawnWhole() throws {
        let w = 96, h = 64
        let background = Self.map(width: w + 60, height: h + 40)
        let renderer = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .frame(background))
        let route = MapBox(Rect(x: 30, y: 10, width: 70, height: 6), Color(r: 200, g: 30, b: 30, a: 180))
        let stop = MapBox(Rect(x: 50, y: 5, width: 9, height: 9), Color(r: 255, g: 255, b: 255, a: 220))
        let banner = PictureLayer(Self.label(x: 50, y: 50))
        renderer.add(route, on: .map)
        renderer.add(stop, on: .map)
        renderer.add(banner, on: .screen)
        let clock = DotClock(style: DotStyle())
        for n in 0..<40 {
            let origin = (x: n / 3, y: n / 5)
            if n % 7 == 3 { renderer.scrollBackground(toX: origin.x, y: origin.y) }
            let view = renderer.backgroundOrigin
            route.view = (view.x, view.y); stop.view = (view.x, view.y)
            if n == 11 { stop.recolor() }
            if n == 17 { banner.move(x: 10, y: 4) }
            if n == 23 { banner.replace(with: Self.label(x: 30, y: 30)) }
            let cx = 20 + Double(n) * 1.37, cy = 12 + Double(n) * 0.61
            let a = clock.appearance(at: Double(n) / 60)
            renderer.render(a, centerX: cx, centerY: cy)

            let whole = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .frame(background))
            whole.scrollBackground(toX: view.x, y: view.y)
            whole.add(route, on: .map)
            whole.add(stop, on: .map)
            whole.add(PictureLayer(banner.picture), on: .screen)
            whole.render(a, centerX: cx, centerY: cy)
            XCTAssertEqual(pixels(renderer.canvas.buffer), pixels(whole.canvas.buffer), "frame \(n)")
        }
    }
}
