import Compositor
import DisplayCore
import LocationDot
import Raster
import Scene
import XCTest

/// The dot split off the map for a display plane: the canvas keeps only the map, the plane the
/// dot's picture at its place, and the two together are the software frame.
final class PlaneDotTests: XCTestCase {
    /// A plane in memory: one buffer, what was last shown, no writeback.
    final class MemoryPlane: SpritePlane {
        let spriteWidth: Int, spriteHeight: Int
        let picture: OwnedPixelBuffer
        init(side: Int = 300) {
            spriteWidth = side
            spriteHeight = side
            picture = OwnedPixelBuffer(width: side, height: side, format: .xrgb8888)
        }
        var shown: Rect?
        var hides = 0
        var takesSprites = true
        var showsWholeSprite = false
        var spriteBuffer: PixelBuffer { picture.buffer }
        func showSprite(x: Int, y: Int, width: Int, height: Int) { shown = Rect(x: x, y: y, width: width, height: height) }
        func hideSprite() { shown = nil; hides += 1 }
        func composedScreen() -> PixelBuffer? { nil }
    }

    private static let background = Color(r: 0xE5, g: 0xE3, b: 0xDF)
    private static func pixel(_ p: PixelBuffer, _ x: Int, _ y: Int) -> UInt32 { p.row(y).load(fromByteOffset: x * 4, as: UInt32.self) & 0xFF_FFFF }

    private func worstDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = Self.pixel(a, x, y), q = Self.pixel(b, x, y)
                for shift: UInt32 in [0, 8, 16] { worst = max(worst, abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF))) }
            }
        }
        return worst
    }

    func testTheCanvasHoldsTheMapAndThePlaneTheDot() throws {
        let style = DotStyle()
        let renderer = try FrameRenderer(width: 320, height: 240, style: style, scale: 1, background: .color(Self.background))
        let software = try FrameRenderer(width: 320, height: 240, style: style, scale: 1, background: .color(Self.background))
        let plane = MemoryPlane()
        let dot = PlaneDot(plane: plane, style: style, scale: 1)
        let clock = DotClock(style: style)
        _ = dot.render(renderer, clock.appearance(at: 0.3), centerX: 100.25, centerY: 80.5)
        let plain = Self.pixel(renderer.canvas.buffer, 0, 0)
        XCTAssertEqual(plain, 0xE5E3DF)
        XCTAssertNotNil(plane.shown)
        let damage = dot.render(renderer, clock.appearance(at: 1.3), centerX: 101.5, centerY: 82.75)
        XCTAssertTrue(damage.isEmpty, "the map did not change: nothing to copy out, got \(damage)")
        for y in 0..<240 { for x in 0..<320 where Self.pixel(renderer.canvas.buffer, x, y) != plain { return XCTFail("the dot in the canvas at (\(x), \(y))") } }
        software.render(clock.appearance(at: 1.3), centerX: 101.5, centerY: 82.75)
        let screen = dot.screen(canvas: renderer.canvas.buffer)
        XCTAssertEqual(screen.source, "composed in software")
        XCTAssertLessThanOrEqual(worstDifference(screen.picture.buffer, software.canvas.buffer), 2)
    }

    func testAPlaneShowingItsWholeBufferGetsTheDotTransparentAround() throws {
        var style = DotStyle()
        style.delayBetweenPulseCycles = .infinity
        let renderer = try FrameRenderer(width: 320, height: 240, style: style, scale: 1, background: .color(Self.background))
        let software = try FrameRenderer(width: 320, height: 240, style: style, scale: 1, background: .color(Self.background))
        let plane = MemoryPlane(side: 64)
        plane.showsWholeSprite = true
        let dot = PlaneDot(plane: plane, style: style, scale: 1)
        let look = DotClock(style: style).appearance(at: 1.3)
        _ = dot.render(renderer, look, centerX: 300.5, centerY: 100.25)
        let shown = try XCTUnwrap(plane.shown)
        XCTAssertEqual([shown.width, shown.height], [64, 64], "the whole cursor-sized buffer")
        XCTAssertGreaterThan(shown.maxX, 320, "partly off the right edge")
        XCTAssertEqual(plane.picture.buffer.row(63).load(fromByteOffset: 63 * 4, as: UInt32.self), 0, "transparent beyond the dot")
        software.render(look, centerX: 300.5, centerY: 100.25)
        let screen = dot.screen(canvas: renderer.canvas.buffer)
        XCTAssertLessThanOrEqual(withExtendedLifetime(screen.picture) { worstDifference(screen.picture.buffer, software.canvas.buffer) }, 2)
    }

    func testAPlaneThatStoppedTakingSpritesGetsTheDotBackIntoTheCanvas() throws {
        let style = DotStyle()
        let renderer = try FrameRenderer(width: 320, height: 240, style: style, scale: 1, background: .color(Self.background))
        let software = try FrameRenderer(width: 320, height: 240, style: style, scale: 1, background: .color(Self.background))
        let plane = MemoryPlane()
        let dot = PlaneDot(plane: plane, style: style, scale: 1)
        let look = DotClock(style: style).appearance(at: 1.3)
        _ = dot.render(renderer, look, centerX: 100, centerY: 100)
        XCTAssertNotNil(plane.shown)
        plane.takesSprites = false
        let damage = dot.render(renderer, look, centerX: 100, centerY: 100)
        XCTAssertFalse(damage.isEmpty)
        software.render(look, centerX: 100, centerY: 100)
        XCTAssertEqual(worstDifference(renderer.canvas.buffer, software.canvas.buffer), 0, "the software frame exactly")
    }

    func testAWideAccuracyDiscStaysOnTheMapUnderTheRestOnThePlane() throws {
        let style = DotStyle()
        let renderer = try FrameRenderer(width: 320, height: 240, style: style, scale: 1, background: .color(Self.background))
        let software = try FrameRenderer(width: 320, height: 240, style: style, scale: 1, background: .color(Self.background))
        let plane = MemoryPlane()
        let dot = PlaneDot(plane: plane, style: style, scale: 1)
        var wide = DotClock(style: style).appearance(at: 1.3)
        wide.accuracyRadiusPx = 200
        _ = dot.render(renderer, wide, centerX: 160.5, centerY: 120.25)
        let shown = try XCTUnwrap(plane.shown, "the ring, dot and halo on the plane")
        XCTAssertLessThan(shown.width, 300)
        XCTAssertNotEqual(Self.pixel(renderer.canvas.buffer, 10, 120), 0xE5E3DF, "the disc in the map")
        software.render(wide, centerX: 160.5, centerY: 120.25)
        let screen = dot.screen(canvas: renderer.canvas.buffer)
        XCTAssertEqual(screen.source, "composed in software")
        XCTAssertLessThanOrEqual(worstDifference(screen.picture.buffer, software.canvas.buffer), 2)
        // The disc shrinks onto the plane again: the map under it restored.
        wide.accuracyRadiusPx = 0
        _ = dot.render(renderer, wide, centerX: 160.5, centerY: 120.25)
        for y in 0..<240 { for x in 0..<320 where Self.pixel(renderer.canvas.buffer, x, y) != 0xE5E3DF { return XCTFail("a ghost at (\(x), \(y))") } }
    }

    func testADotTooLargeForThePlaneIsPaintedIntoTheMapAndLeavesNoGhost() throws {
        let style = DotStyle()
        let renderer = try FrameRenderer(width: 320, height: 240, style: style, scale: 1, background: .color(Self.background))
        let plane = MemoryPlane(side: 100)
        let dot = PlaneDot(plane: plane, style: style, scale: 1)
        var wide = DotClock(style: style).appearance(at: 1.3)
        wide.haloSize = 1
        wide.haloOpacity = 1
        let damage = dot.render(renderer, wide, centerX: 160, centerY: 120)
        XCTAssertNil(plane.shown, "a halo wider than the plane")
        XCTAssertEqual(plane.hides, 1)
        XCTAssertFalse(damage.isEmpty)
        XCTAssertNotEqual(Self.pixel(renderer.canvas.buffer, 160, 120), Self.pixel(renderer.canvas.buffer, 0, 0), "the dot in the map")
        wide.haloSize = 0.3
        let back = dot.render(renderer, wide, centerX: 160, centerY: 120)
        XCTAssertNotNil(plane.shown, "back on the plane")
        XCTAssertFalse(back.isEmpty, "the map restored where the dot was")
        let plain = Self.pixel(renderer.canvas.buffer, 0, 0)
        for y in 0..<240 { for x in 0..<320 where Self.pixel(renderer.canvas.buffer, x, y) != plain { return XCTFail("a ghost at (\(x), \(y))") } }
    }
}
