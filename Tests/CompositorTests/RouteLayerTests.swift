import Compositor
import LocationDot
import Raster
import XCTest

/// The route as a map layer: stops and their markers, the damage of a moving boundary or a new
/// next stop (small, and enough: redrawing only it equals a whole redraw), a fixed scene's hash.
final class RouteLayerTests: XCTestCase {
    static let green = Color(r: 0, g: 150, b: 80)
    static let w = 240, h = 160

    static func map() -> OwnedPixelBuffer { LayerTests.map(width: w, height: h) }

    static func route(_ view: (x: Int, y: Int) = (0, 0)) -> RouteLayer {
        let layer = RouteLayer(style: RouteStyle(color: green))
        let xs: [Double] = [12, 60.4, 95.2, 130, 131, 190.7, 220, 170.3, 40]
        let ys: [Double] = [20, 30.2, 80.9, 80, 60, 40.1, 110, 140.6, 120]
        layer.setRoute(x: xs.map { $0 + Double(view.x) }, y: ys.map { $0 + Double(view.y) })
        layer.setStops([(60.4, 30.2), (130, 80), (190.7, 40.1), (40, 120)].map { Point256(x: $0.0 + Double(view.x), y: $0.1 + Double(view.y)) })
        layer.setView(x: view.x, y: view.y)
        return layer
    }

    static func drawWhole(_ layer: RouteLayer) -> OwnedPixelBuffer {
        let canvas = map()
        layer.draw(into: canvas.buffer, clip: canvas.buffer.bounds)
        return canvas
    }

    /// Pixels of an owned frame, kept alive while read (a `PixelBuffer` alone does not keep it).
    static func pixels(_ o: OwnedPixelBuffer) -> [UInt32] { withExtendedLifetime(o) { PolylinePixels.of(o.buffer) } }

    /// The map put back in `rect`, as the renderer restores it before drawing the layers.
    static func restore(_ rect: Rect, in canvas: OwnedPixelBuffer) {
        let m = map()
        withExtendedLifetime(m) { canvas.buffer.copy(rect, from: m.buffer) }
    }

    func testStopMarkersAreWhiteDiscsInColouredRingsTheNextLargerTheTerminusDoubled() {
        let layer = Self.route()
        layer.setNextStop(1)
        let canvas = Self.drawWhole(layer)
        let white = SolidPaint.pixel(.white), green = SolidPaint.pixel(Self.green)
        // A plain stop (60.4, 30.2): radius 4.5, ring 2.
        XCTAssertEqual(canvas.buffer.pixel(x: 60, y: 30), white)
        XCTAssertEqual(canvas.buffer.pixel(x: 60, y: 26), green, "its ring")
        XCTAssertNotEqual(canvas.buffer.pixel(x: 60, y: 23), green, "beyond its ring")
        // The next stop (130, 80): radius 7.5, ring 3.3.
        XCTAssertEqual(canvas.buffer.pixel(x: 129, y: 79), white)
        XCTAssertEqual(canvas.buffer.pixel(x: 129, y: 73), green, "its larger ring")
        // The terminus (40, 120): rings at 6.75, 4.75, 3.25, 1.75.
        XCTAssertEqual(canvas.buffer.pixel(x: 39, y: 119), white, "its centre")
        XCTAssertEqual(canvas.buffer.pixel(x: 39, y: 117), green, "its inner ring (2 px out)")
        XCTAssertEqual(canvas.buffer.pixel(x: 41, y: 116), white, "the gap (3.8 px out)")
        XCTAssertEqual(canvas.buffer.pixel(x: 41, y: 114), green, "its outer ring (5.7 px out)")
        XCTAssertEqual(layer.nextStop, 1)
        layer.setNextStop(9)
        XCTAssertNil(layer.nextStop, "no such stop")
    }

    /// The boundary moves a few pixels: the damage is a few line widths around it, and redrawing
    /// only that over the old frame gives the new frame drawn whole.
    func testMovingTheBoundaryDamagesLittleAndEnough() {
        for view in [(x: 0, y: 0), (x: -700, y: 350)] {
            let layer = Self.route(view)
            layer.setTravelled(distance256: 100 * 256)
            _ = layer.takeDamage()
            XCTAssertEqual(layer.takeDamage(), .empty, "damage is returned once")
            var canvas = Self.drawWhole(layer)
            for step in [3, 5, 40, 1, 80, -30] {
                let before = layer.travelled256
                layer.setTravelled(distance256: before + Int64(step * 256))
                let damage = layer.takeDamage()
                XCTAssertFalse(damage.isEmpty)
                // Width 6 + casing 2 × 1.5: a reach of 4.5 px + 1 px slack on each side.
                let slack = 2 * 7 + 1
                XCTAssertLessThanOrEqual(damage.width, abs(step) + slack + 1, "step \(step): \(damage)")
                XCTAssertLessThanOrEqual(damage.height, abs(step) + slack + 1, "step \(step): \(damage)")
                Self.restore(damage, in: canvas)
                layer.draw(into: canvas.buffer, clip: damage)
                XCTAssertEqual(Self.pixels(canvas), Self.pixels(Self.drawWhole(layer)), "step \(step), view \(view)")
                canvas = Self.drawWhole(layer)
            }
        }
    }

    /// The same route a whole number of pixels further, seen from a view as far: the same pixels.
    func testTheViewMovesTheRouteByWholePixels() {
        let near = Self.route(), far = Self.route((x: -700, y: 350))
        near.setTravelled(distance256: 90 * 256 + 31)
        far.setTravelled(distance256: 90 * 256 + 31)
        near.setNextStop(1)
        far.setNextStop(1)
        XCTAssertEqual(near.frame, far.frame)
        XCTAssertEqual(Self.pixels(Self.drawWhole(near)), Self.pixels(Self.drawWhole(far)))
    }

    func testANewNextStopDamagesTheTwoMarkersOnly() {
        let layer = Self.route()
        layer.setNextStop(0)
        let canvas = Self.drawWhole(layer)
        _ = layer.takeDamage()
        layer.setNextStop(2)
        let damage = layer.takeDamage()
        XCTAssertLessThanOrEqual(damage.width, 190 - 60 + 18)
        XCTAssertLessThanOrEqual(damage.height, 30, "the two markers' rows only: \(damage)")
        Self.restore(damage, in: canvas)
        layer.draw(into: canvas.buffer, clip: damage)
        XCTAssertEqual(Self.pixels(canvas), Self.pixels(Self.drawWhole(layer)))
        layer.setNextStop(2)
        XCTAssertEqual(layer.takeDamage(), .empty, "no change, no damage")
    }

    /// In the renderer: the view pans over a map image, the dot moves and the boundary advances
    /// every frame; each frame equals the same scene drawn whole by a fresh renderer.
    func testEveryRendererFrameEqualsTheSceneDrawnWhole() throws {
        let w = 160, h = 120
        let background = LayerTests.map(width: w + 80, height: h + 50)
        let renderer = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .frame(background))
        let layer = Self.route()
        layer.setNextStop(0)
        renderer.add(layer, on: .map)
        let clock = DotClock(style: DotStyle())
        for n in 0..<30 {
            if n % 6 == 2 { renderer.scrollBackground(toX: n * 2, y: n) }
            let view = renderer.backgroundOrigin
            layer.setView(x: view.x, y: view.y)
            layer.setTravelled(distance256: Int64(n * 9 * 256 + n * 37))
            if n == 12 { layer.setNextStop(1) }
            let a = clock.appearance(at: Double(n) / 30)
            renderer.render(a, centerX: 40 + Double(n) * 2.3, centerY: 30 + Double(n) * 1.1)
            let whole = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .frame(background))
            whole.scrollBackground(toX: view.x, y: view.y)
            whole.add(layer, on: .map)
            whole.render(a, centerX: 40 + Double(n) * 2.3, centerY: 30 + Double(n) * 1.1)
            XCTAssertEqual(Self.pixels(renderer.canvas), Self.pixels(whole.canvas), "frame \(n)")
        }
    }

    /// One fixed scene, hashed (FNV-1a 64 over the XRGB8888 bytes). Integer arithmetic only, so
    /// the hash must be the same on x86-64, aarch64 and armv7 (these values were also produced by
    /// the Embedded builds for aarch64 and armv7 under QEMU): if it changes, the route's look
    /// changed — on purpose (update it everywhere) or not (a bug).
    func testGoldenHashOfAFixedScene() {
        let layer = Self.route()
        layer.setTravelled(distance256: 173 * 256 + 77)
        layer.setNextStop(2)
        let canvas = Self.drawWhole(layer)
        XCTAssertEqual(PolylinePixels.fnv1a(canvas), 6_945_436_291_637_546_459, "golden")
        let custom = RouteLayer(style: RouteStyle(color: Color(r: 230, g: 0, b: 110), travelledColor: Color(r: 120, g: 120, b: 120),
                                                  width: 9.5, casingWidth: 2, stopRadius: 5, stopRing: 1.5, nextStopRadius: 8))
        custom.setRoute([Point256(x: 10, y: 150), Point256(x: 120, y: 10), Point256(x: 230, y: 150), Point256(x: 11, y: 151)])
        custom.setStops([Point256(x: 120, y: 10), Point256(x: 11, y: 151)])
        custom.setTravelled(segment: 1, fraction256: 100)
        custom.setNextStop(0)
        XCTAssertEqual(PolylinePixels.fnv1a(Self.drawWhole(custom)), 7_071_621_061_120_399_196, "golden, a wide line")
    }

    func testAnEmptyOrFarRouteDrawsNothing() {
        let layer = RouteLayer(style: RouteStyle(color: Self.green))
        XCTAssertEqual(layer.frame, .empty)
        let canvas = Self.drawWhole(layer)
        XCTAssertEqual(Self.pixels(canvas), Self.pixels(Self.map()))
        layer.setRoute(x: [1e6, 1e6 + 300], y: [-1e6, -1e6])
        layer.setStops([Point256(x: 1e6, y: -1e6)])
        layer.setTravelled(distance256: 120 * 256)
        layer.draw(into: canvas.buffer, clip: canvas.buffer.bounds)
        XCTAssertEqual(Self.pixels(canvas), Self.pixels(Self.map()))
        layer.setView(x: 1_000_000 - 100, y: -1_000_000 - 50)
        layer.draw(into: canvas.buffer, clip: canvas.buffer.bounds)
        XCTAssertEqual(PolylinePixels.fnv1a(canvas), 12_326_340_366_375_823_292, "golden, a million pixels out")
        XCTAssertEqual(canvas.buffer.pixel(x: 100, y: 50), SolidPaint.pixel(.white), "the terminus's centre")
        XCTAssertEqual(canvas.buffer.pixel(x: 200, y: 50), SolidPaint.pixel(RouteStyle(color: Self.green).faded), "travelled")
        XCTAssertEqual(canvas.buffer.pixel(x: 230, y: 50), SolidPaint.pixel(Self.green), "ahead")
    }
}

enum PolylinePixels {
    static func of(_ b: PixelBuffer) -> [UInt32] {
        (0..<b.height).flatMap { y in Array(UnsafeBufferPointer(start: b.row(y).assumingMemoryBound(to: UInt32.self), count: b.width)) }
    }

    static func fnv1a(_ o: OwnedPixelBuffer) -> UInt64 {
        let b = o.buffer
        defer { withExtendedLifetime(o) {} }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for y in 0..<b.height {
            for i in 0..<(b.width * 4) { h = (h ^ UInt64(b.row(y).load(fromByteOffset: i, as: UInt8.self))) &* 0x0000_0100_0000_01b3 }
        }
        return h
    }
}
