import XCTest
import Raster

/// Tinted alpha-mask sprites with bilinear scaling and rotation; libm-free sine and cosine.
final class SpriteTests: XCTestCase {
    private let arrow = AlphaMask(width: 5, height: 7, alpha: (0..<35).map { i in
        let x = i % 5, y = i / 5
        return UInt8(y < 3 && abs(x - 2) <= y ? 255 : (x == 2 ? 200 : 0))
    })

    func testFixedSineAndCosineMatchWithin2ToTheMinus15() {
        var deg = -720.0
        while deg <= 720 {
            let (s, c) = FixedTrig.sinCos(degrees: deg)
            XCTAssertEqual(Double(s) / 65536, sin(deg * .pi / 180), accuracy: 2.0 / 65536, "sin \(deg)")
            XCTAssertEqual(Double(c) / 65536, cos(deg * .pi / 180), accuracy: 2.0 / 65536, "cos \(deg)")
            deg += 7.25
        }
        XCTAssertTrue(FixedTrig.sinCos(degrees: 90) == (65536, 0))
        XCTAssertTrue(FixedTrig.sinCos(degrees: 180) == (0, -65536))
        XCTAssertTrue(FixedTrig.sinCos(degrees: .nan) == (0, 65536))
    }

    func testUnscaledAlignedSpriteIsAnExactCopyOfTheMask() {
        let f = TestFrames.solid(width: 20, height: 20, .black)
        let sprite = SpriteMask(arrow)
        // Sprite centre (2.5, 3.5) on frame point (10.5, 10.5): texels land on pixels 8…12 × 7…13.
        let place = SpritePlacement(sourceX: 640, sourceY: 896, destX: 2688, destY: 2688, scale: 65536)
        let box = SpritePainter().draw(sprite, place, SolidPaint(.white), into: f.buffer, clip: f.buffer.bounds)
        for y in 0..<20 { for x in 0..<20 {
            let inMask = x >= 8 && x < 13 && y >= 7 && y < 14
            let want = inMask ? Int(arrow.alpha[(y - 7) * 5 + (x - 8)]) : 0
            XCTAssertEqual(f.buffer.channels(x: x, y: y).r, want, "(\(x),\(y))")
            if want > 0 { XCTAssertTrue(box.contains(x: x, y: y)) }
        } }
    }

    func testQuarterTurnsMovePixelsLikeTheRotationMapping() {
        let sprite = SpriteMask(arrow)
        for turn in [90, 180, 270] {
            let f = TestFrames.solid(width: 20, height: 20, .black)
            let (s, c) = FixedTrig.sinCos(degrees: Double(turn))
            let place = SpritePlacement(sourceX: 640, sourceY: 896, destX: 2688, destY: 2688, scale: 65536, sin: s, cos: c)
            let box = SpritePainter().draw(sprite, place, SolidPaint(.white), into: f.buffer, clip: f.buffer.bounds)
            // Texel centre (tx+½, ty+½) relative to the sprite centre, turned clockwise, lands on
            // frame point (10.5, 10.5) + R·v. Clockwise with y down: (vx, vy) → (−vy, vx) for 90°.
            for ty in 0..<7 { for tx in 0..<5 {
                let vx = Double(tx) + 0.5 - 2.5, vy = Double(ty) + 0.5 - 3.5
                let (rx, ry): (Double, Double) = turn == 90 ? (-vy, vx) : turn == 180 ? (-vx, -vy) : (vy, -vx)
                let px = 10 + Int(rx), py = 10 + Int(ry)
                XCTAssertEqual(f.buffer.channels(x: px, y: py).r, Int(arrow.alpha[ty * 5 + tx]), "turn \(turn) texel (\(tx),\(ty))")
                XCTAssertTrue(box.contains(x: px, y: py))
            } }
        }
    }

    func testScaledSpriteKeepsItsMassAndNothingLeavesTheBox() {
        let solid = AlphaMask(width: 8, height: 8, alpha: [UInt8](repeating: 255, count: 64))
        let sprite = SpriteMask(solid)
        for (scale, deg) in [(2.0, 0.0), (0.5, 0.0), (1.25, 33.0), (3.0, 200.0)] {
            let f = TestFrames.solid(width: 64, height: 64, .black)
            let (s, c) = FixedTrig.sinCos(degrees: deg)
            let place = SpritePlacement(sourceX: 4 * 256, sourceY: 4 * 256, destX: 32 * 256 + 77, destY: 31 * 256 + 190,
                                        scale: Int(scale * 65536), sin: s, cos: c)
            let box = SpritePainter().draw(sprite, place, SolidPaint(.white), into: f.buffer, clip: f.buffer.bounds)
            var sum = 0.0
            for y in 0..<64 { for x in 0..<64 {
                let v = f.buffer.channels(x: x, y: y).r
                if v > 0 { XCTAssertTrue(box.contains(x: x, y: y), "scale \(scale) \(deg)° (\(x),\(y)) outside \(box)") }
                sum += Double(v) / 255
            } }
            XCTAssertEqual(sum, 64 * scale * scale, accuracy: 64 * scale * scale * 0.08 + 1, "scale \(scale) \(deg)°")
        }
    }
}
