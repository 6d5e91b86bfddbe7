import Compositor
import LocationDot
import Raster
import XCTest

/// Vehicles gliding over the map: each frame restores, draws and copies only where markers and
/// the dot were and are — each place apart, not their union — and still equals the scene drawn
/// whole.
final class MarkerLayerTests: XCTestCase {
    static func marker(_ shade: UInt8) -> Overlay {
        let o = Overlay(width: 14, height: 10)
        o.fill(Rect(x: 0, y: 0, width: 14, height: 10), with: Color(r: shade, g: 40, b: 255 &- shade, a: 200))
        o.fill(Rect(x: 4, y: 3, width: 6, height: 4), with: Color(r: 255, g: 255, b: 255, a: 255))
        return o
    }

    /// `count` markers on a grid over a `w`×`h` map, each driving 30 px along its own heading in 2 s.
    static func motions(_ count: Int, w: Int, h: Int) -> [MarkerLayer.Motion] {
        let across = (w - 40) / 80
        return (0..<count).map { i in
            let x = 40 + (i % across) * 80, y = 40 + (i / across) * 80
            let dx = [30, 0, -30, 21][i % 4], dy = [0, 30, 21, -21][i % 4]
            let path = [Point256(x256: Int32(x * 256), y256: Int32(y * 256)),
                        Point256(x256: Int32((x + dx) * 256), y256: Int32((y + dy) * 256))]
            return MarkerLayer.Motion(picture: marker(UInt8(i * 37 & 255)), anchorX: 7, anchorY: 5, path: path, start: 0, duration: 2)
        }
    }

    func pixels(_ b: PixelBuffer) -> [UInt32] {
        (0..<b.height).flatMap { y in Array(UnsafeBufferPointer(start: b.row(y).assumingMemoryBound(to: UInt32.self), count: b.width)) }
    }

    func testFramesKeepEachMarkersDamageApartAndEqualTheSceneDrawnWhole() throws {
        let w = 480, h = 320
        let map = LayerTests.map(width: w, height: h)
        let renderer = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .frame(map))
        let markers = MarkerLayer()
        markers.setMarkers(Self.motions(12, w: w, h: h))
        renderer.add(markers, on: .map)
        let clock = DotClock(style: DotStyle())
        var flip = FlipPair(width: w, height: h)
        for n in 0..<30 {
            let t = Double(n) / 15
            markers.advance(to: t)
            let a = clock.appearance(at: t)
            let changed = renderer.render(a, centerX: 240, centerY: 160)
            flip.present(changed, from: renderer)
            if n > 0 && n < 29 {
                // Every marker moved by whole pixels: its old and new places are one part, apart
                // from the others' (and from the dot's, but where its halo reaches one).
                XCTAssertGreaterThanOrEqual(changed.count, 10, "frame \(n): the markers' places apart")
                XCTAssertLessThan(changed.area * 3, changed.bounds.area, "frame \(n): a few places, not their union")
            }
            let whole = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .frame(map))
            let again = MarkerLayer()
            again.setMarkers(Self.motions(12, w: w, h: h))
            again.advance(to: t)
            whole.add(again, on: .map)
            whole.render(a, centerX: 240, centerY: 160)
            XCTAssertEqual(pixels(renderer.canvas.buffer), pixels(whole.canvas.buffer), "frame \(n)")
            XCTAssertEqual(pixels(flip.shown), pixels(whole.canvas.buffer), "frame \(n) on screen")
        }
    }

    /// More markers than a region keeps apart: parts are joined, and frames stay right.
    func testMoreMarkersThanTheRegionKeepsApartStillDrawRight() throws {
        let w = 640, h = 400
        let renderer = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .color(Color(r: 20, g: 60, b: 90)))
        let markers = MarkerLayer()
        markers.setMarkers(Self.motions(DamageRegion.capacity + 10, w: w, h: h))
        renderer.add(markers, on: .map)
        for n in 0..<8 {
            let t = Double(n) / 4
            markers.advance(to: t)
            let changed = renderer.render(nil, centerX: 0, centerY: 0)
            XCTAssertLessThanOrEqual(changed.count, DamageRegion.capacity)
            let whole = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .color(Color(r: 20, g: 60, b: 90)))
            let again = MarkerLayer()
            again.setMarkers(Self.motions(DamageRegion.capacity + 10, w: w, h: h))
            again.advance(to: t)
            whole.add(again, on: .map)
            whole.render(nil, centerX: 0, centerY: 0)
            XCTAssertEqual(pixels(renderer.canvas.buffer), pixels(whole.canvas.buffer), "frame \(n)")
        }
    }

    /// Vehicles moving off the view take no part of the frame's damage: three on the canvas
    /// among forty beyond it damage three places, as if the others were not there.
    func testMarkersOffTheViewTakeNoPartOfTheDamage() throws {
        let w = 320, h = 200
        func motions() -> [MarkerLayer.Motion] {
            let far = Self.motions(40, w: 1200, h: 700).map { m -> MarkerLayer.Motion in
                var m = m
                m.path = ContiguousArray(m.path.map { Point256(x256: $0.x256 + 2000 * 256, y256: $0.y256) })
                return m
            }
            return far + Self.motions(3, w: w, h: h)
        }
        let background = Color(r: 20, g: 60, b: 90)
        let renderer = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .color(background))
        let markers = MarkerLayer()
        markers.setMarkers(motions())
        renderer.add(markers, on: .map)
        for n in 0..<10 {
            let t = Double(n) / 5
            markers.advance(to: t)
            let changed = renderer.render(nil, centerX: 0, centerY: 0)
            if n > 0 {
                XCTAssertEqual(changed.count, 3, "frame \(n): the three on the canvas")
                XCTAssertLessThan(changed.area, 3 * 16 * 16, "frame \(n)")
            }
            let whole = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .color(background))
            let again = MarkerLayer()
            again.setMarkers(motions())
            again.advance(to: t)
            whole.add(again, on: .map)
            whole.render(nil, centerX: 0, centerY: 0)
            XCTAssertEqual(pixels(renderer.canvas.buffer), pixels(whole.canvas.buffer), "frame \(n)")
        }
    }

    /// A marker glides at a steady pace from the path's start to its end over its duration, and
    /// stays at the end after it.
    func testAMarkerGlidesAlongItsPathOverItsDuration() {
        let layer = MarkerLayer()
        let path = [Point256(x256: 0, y256: 0), Point256(x256: 100 * 256, y256: 0), Point256(x256: 100 * 256, y256: 50 * 256)]
        layer.setMarkers([MarkerLayer.Motion(picture: Self.marker(9), anchorX: 7, anchorY: 5, path: path, start: 10, duration: 3)])
        var last = -1
        for k in 0...40 {
            layer.advance(to: 9 + Double(k) * 0.1)
            let f = layer.frame
            let along = f.x + 7 + (f.y + 5)
            XCTAssertGreaterThanOrEqual(along, last, "never backwards")
            last = along
        }
        layer.advance(to: 11.5)
        XCTAssertEqual(layer.frame, Rect(x: 75 - 7, y: -5, width: 14, height: 10), "half way along 150 px")
        layer.advance(to: 12.5)
        XCTAssertEqual(layer.frame, Rect(x: 100 - 7, y: 25 - 5, width: 14, height: 10), "125 px along, round the corner")
        layer.advance(to: 20)
        XCTAssertEqual(layer.frame, Rect(x: 100 - 7, y: 50 - 5, width: 14, height: 10))
    }
}

/// Two screens written in turn with this frame's and the previous frame's damage, as a flipping
/// output writes them.
struct FlipPair {
    let screens: [OwnedPixelBuffer]
    var damage: Damage
    var n = 0

    init(width: Int, height: Int) {
        screens = [OwnedPixelBuffer(width: width, height: height, format: .xrgb8888),
                   OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)]
        damage = Damage(bounds: Rect(x: 0, y: 0, width: width, height: height))
    }

    mutating func present(_ changed: DamageRegion, from renderer: FrameRenderer) {
        damage.add(changed)
        renderer.copyOut(damage.union, to: screens[n & 1].buffer)
        damage.endFrame()
        n += 1
    }

    var shown: PixelBuffer { screens[(n - 1) & 1].buffer }
}
