import Compositor
import LocationDot
import Raster
import XCTest

/// The dot's premultiplied picture, blended over the map the way a display plane blends it, gives
/// what the renderer paints onto the map itself: within 2/255 per channel, at sub-pixel places.
final class DotSpriteTests: XCTestCase {
    private static let width = 160, height = 120

    /// A map with every channel moving, so a wrong alpha shows on some pixel.
    private static func map() -> OwnedPixelBuffer {
        let m = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt32(x * 255 / width), g = UInt32(y * 255 / height), b = UInt32((x * 7 + y * 13) & 0xFF)
                m.buffer.row(y).storeBytes(of: r << 16 | g << 8 | b, toByteOffset: x * 4, as: UInt32.self)
            }
        }
        return m
    }

    private static func pixel(_ p: PixelBuffer, _ x: Int, _ y: Int) -> UInt32 { p.row(y).load(fromByteOffset: x * 4, as: UInt32.self) }

    /// Premultiplied "over", as the kernel's planes compose: colour + map × (1 − alpha).
    private static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let a = s >> 24
        var out: UInt32 = 0
        for shift in [0, 8, 16] as [UInt32] {
            let c = (s >> shift) & 0xFF, m = (d >> shift) & 0xFF
            out |= min(255, c + (m * (255 - a) + 127) / 255) << shift
        }
        return out
    }

    func testTheSpriteOverTheMapIsTheRenderedFrame() throws {
        var style = DotStyle()
        style.accuracyAlpha = 0.2
        let scale = 1.0
        let map = Self.map()
        let clock = DotClock(style: style)
        let sprite = DotSprite(style: style, scale: scale, width: 160, height: 120)
        let target = OwnedPixelBuffer(width: 160, height: 120, format: .xrgb8888)
        var worst: UInt32 = 0, compared = 0
        for (t, cx, cy) in [(0.15, 80.3, 60.7), (1.2, 41.55, 70.125), (2.6, 100.0, 50.5), (4.1, 5.25, 110.9)] {
            let renderer = try FrameRenderer(width: Self.width, height: Self.height, style: style, scale: scale, background: .frame(map))
            var appearance = clock.appearance(at: t)
            if t == 2.6 { appearance.accuracyRadiusPx = 30 }
            renderer.render(appearance, centerX: cx, centerY: cy)
            let place = try XCTUnwrap(sprite.placement(appearance, centerX: cx, centerY: cy), "t \(t)")
            sprite.paint(appearance, centerX: cx, centerY: cy, at: place, into: target.buffer)
            for y in 0..<Self.height {
                for x in 0..<Self.width {
                    var composed = Self.pixel(map.buffer, x, y)
                    let sx = x - place.x, sy = y - place.y
                    if sx >= 0, sy >= 0, sx < place.width, sy < place.height {
                        let s = Self.pixel(target.buffer, sx, sy)
                        for shift in [0, 8, 16] as [UInt32] {
                            XCTAssertLessThanOrEqual((s >> shift) & 0xFF, s >> 24, "premultiplied: no channel above alpha")
                        }
                        composed = Self.over(s, composed)
                        compared += 1
                    }
                    let painted = Self.pixel(renderer.canvas.buffer, x, y)
                    for shift in [0, 8, 16] as [UInt32] {
                        let a = Int((composed >> shift) & 0xFF), b = Int((painted >> shift) & 0xFF)
                        worst = max(worst, UInt32(abs(a - b)))
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 4 * 400, "the sprites covered the dot")
        XCTAssertLessThanOrEqual(worst, 2, "largest difference per channel")
    }

    func testADotLargerThanTheSpriteIsNotPlaced() {
        let style = DotStyle()
        let side = DotSprite.side(style: style, scale: 2)
        let sprite = DotSprite(style: style, scale: 2, width: side, height: side)
        var appearance = DotClock(style: style).appearance(at: 1.2)
        appearance.haloSize = 1
        appearance.haloOpacity = 1
        appearance.popScale = 1.2
        XCTAssertNotNil(sprite.placement(appearance, centerX: 10, centerY: 10), "the largest halo fits the side for its style")
        appearance.accuracyRadiusPx = Double(side)
        XCTAssertNil(sprite.placement(appearance, centerX: 10, centerY: 10))
    }
}
