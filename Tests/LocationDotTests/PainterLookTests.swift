import XCTest
import LocationDot
import Raster

/// Colours and variants: stale blend, ring-only, image instead of the dot, heading image turned,
/// accuracy disc, outerDotAlpha fading ring and shadow as one group.
final class PainterLookTests: XCTestCase {
    private func paint(_ style: DotStyle, _ look: DotAppearance, scale: Double = 2, size: Int = 100,
                       background: Color = Color(r: 0xE5, g: 0xE3, b: 0xDF)) -> OwnedPixelBuffer {
        let f = PainterFixture.frame(size, background)
        DotPainter(style: style, scale: scale).paint(into: f.buffer, centerX: Double(size) / 2, centerY: Double(size) / 2,
                                                     appearance: look, clip: f.buffer.bounds)
        return f
    }

    func testStalenessMovesDotAndHaloColourLinearlyToStaleColor() {
        var look = DotAppearance()
        look.haloSize = 1; look.haloOpacity = 1
        for (s, want) in [(0.0, (0, 122, 255)), (1.0, (0x8E, 0x8E, 0x93)), (0.5, (71, 132, 201))] {
            look.staleness = s
            let f = paint(DotStyle(), look, size: 300)
            let c = f.buffer.channels(x: 150, y: 150)
            XCTAssertEqual(c.r, want.0, accuracy: 1, "staleness \(s)"); XCTAssertEqual(c.g, want.1, accuracy: 1); XCTAssertEqual(c.b, want.2, accuracy: 1)
            let h = f.buffer.channels(x: 150 + 80, y: 150)  // inside the full-size halo (116.6 px radius), opaque here
            XCTAssertEqual(h.r, want.0, accuracy: 1); XCTAssertEqual(h.b, want.2, accuracy: 1)
        }
    }

    func testRingOnlyDrawsTheGreyRingWithoutDotOrHalo() {
        var look = DotAppearance()
        look.ringOnly = true; look.haloSize = 1; look.haloOpacity = 1
        let f = paint(DotStyle(), look, size: 300)
        XCTAssertEqual(f.buffer.pixel(x: 150, y: 150), 0xFF8E_8E93, "grey where the dot would be")
        XCTAssertEqual(f.buffer.pixel(x: 150 + 19, y: 150), 0xFF8E_8E93)
        XCTAssertEqual(f.buffer.pixel(x: 150 + 80, y: 150), 0xFFE5_E3DF, "no halo")
    }

    func testImageReplacesTheDotTintedWithAnnotationColour() {
        var style = DotStyle()
        style.image = AlphaMask(width: 4, height: 4, alpha: [UInt8](repeating: 255, count: 16))
        style.imageScale = 2  // 4 px @2x = 2 pt = 4 px at scale 2
        let f = paint(style, DotAppearance())
        XCTAssertEqual(f.buffer.pixel(x: 50, y: 50), 0xFF00_7AFF)
        XCTAssertEqual(f.buffer.pixel(x: 48, y: 48), 0xFF00_7AFF)
        XCTAssertEqual(f.buffer.pixel(x: 53, y: 50), 0xFFFF_FFFF, "ring, not the 16 pt dot, beyond the 4 px image")
        XCTAssertEqual(f.buffer.pixel(x: 46, y: 50), 0xFFFF_FFFF)
    }

    func testHeadingImageIsTurnedClockwiseBeneathEverything() {
        var style = DotStyle()
        // A bar pointing up from the centre: 2 px wide, 40 px tall, top half opaque.
        style.headingImage = AlphaMask(width: 2, height: 80, alpha: (0..<160).map { $0 < 80 ? 255 : 0 })
        style.annotationColor = Color(r: 200, g: 0, b: 0)
        var look = DotAppearance()
        look.heading = 0
        let up = paint(style, look, scale: 1, size: 100)
        XCTAssertEqual(up.buffer.channels(x: 49, y: 20).r, 200, "heading 0 points up")
        XCTAssertEqual(up.buffer.channels(x: 80, y: 49).r, 0xE5)
        look.heading = 90
        let east = paint(style, look, scale: 1, size: 100)
        XCTAssertEqual(east.buffer.channels(x: 80, y: 49).r, 200, "heading 90 points right (east)")
        XCTAssertEqual(east.buffer.channels(x: 49, y: 20).r, 0xE5)
        XCTAssertEqual(east.buffer.pixel(x: 50, y: 50), 0xFFC8_0000, "the dot stays on top")
    }

    func testAccuracyDiscIsDrawnBeneathWithItsAlpha() {
        var look = DotAppearance()
        look.accuracyRadiusPx = 45
        let f = paint(DotStyle(), look, background: .white)
        let c = f.buffer.channels(x: 50 + 40, y: 50)
        // #007AFF at 0.15 over white.
        XCTAssertEqual(c.r, Int((255 * 0.85).rounded()), accuracy: 1)
        XCTAssertEqual(c.g, Int((122 * 0.15 + 255 * 0.85).rounded()), accuracy: 1)
        XCTAssertEqual(f.buffer.channels(x: 50 + 47, y: 50).r, 255, "outside the radius")
    }

    /// outerDotAlpha fades ring and shadow as one group: the shadow does not darken the faded
    /// ring's interior, and the ring is exactly white × alpha over the background there.
    func testOuterDotAlphaFadesRingAndShadowAsOneGroup() {
        var style = DotStyle()
        style.outerDotAlpha = 0.5
        style.shadowOpacity = 1
        let f = paint(style, DotStyle.defaultLook, background: .black)
        // Ring interior (between 16 and 22 px radius at scale 2), well inside the shadow.
        XCTAssertEqual(f.buffer.channels(x: 50, y: 50 + 19).r, 128, accuracy: 1)
        XCTAssertEqual(f.buffer.channels(x: 50 - 19, y: 50).r, 128, accuracy: 1)
    }
}

extension DotStyle {
    static var defaultLook: DotAppearance { DotAppearance() }
}
