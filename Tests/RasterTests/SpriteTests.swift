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
                                        scale: Int64(scale * 65536), sin: s, cos: c)
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

    /// A 320×320 sprite turned 33.3° and scaled 1.25, anchored near 30000 px: the inverse map's
    /// products (Q16 step × Q8 offset) and the bounds' cos·vx pass 2^31 here, so a 32-bit Int
    /// would wrap them. Samples and bounds against the same maps computed per pixel in Int128.
    func testLargeSpriteFarFromTheOriginSamplesExactly() {
        let w = 320, h = 320
        let mask = AlphaMask(width: w, height: h, alpha: (0..<(w * h)).map { i in
            UInt8(truncatingIfNeeded: (i % w) * 7 + (i / w) * 13 + (i % 11) * 29)
        })
        let sprite = SpriteMask(mask)
        let (s, c) = FixedTrig.sinCos(degrees: 33.3)
        let scale: Int64 = 81920
        let destX = 30000 * 256 + 77, destY = 29000 * 256 + 190, sourceX = w * 128, sourceY = h * 128
        let place = SpritePlacement(sourceX: sourceX, sourceY: sourceY, destX: destX, destY: destY,
                                    scale: scale, sin: s, cos: c)

        // Bounds: the support's corners (±½ texel) mapped forward, one pixel wider.
        var minX = Int128.max, maxX = Int128.min, minY = Int128.max, maxY = Int128.min
        var widestCorner: Int128 = 0
        for vx in [Int128(-128 - sourceX), Int128(w * 256 + 128 - sourceX)] {
            for vy in [Int128(-128 - sourceY), Int128(h * 256 + 128 - sourceY)] {
                widestCorner = max(widestCorner, abs(Int128(c) * vx))
                let fx = (Int128(scale) * (Int128(c) * vx - Int128(s) * vy)) >> 32
                let fy = (Int128(scale) * (Int128(s) * vx + Int128(c) * vy)) >> 32
                minX = min(minX, fx); maxX = max(maxX, fx); minY = min(minY, fy); maxY = max(maxY, fy)
            }
        }
        func floor8(_ v: Int128) -> Int { Int(v >> 8) }
        func ceil8(_ v: Int128) -> Int { Int(-((-v) >> 8)) }
        let x0 = floor8(Int128(destX) + minX) - 1, y0 = floor8(Int128(destY) + minY) - 1
        let box = place.bounds(width: w, height: h)
        XCTAssertEqual(box, Rect(x: x0, y: y0, width: ceil8(Int128(destX) + maxX) + 1 - x0,
                                 height: ceil8(Int128(destY) + maxY) + 1 - y0))
        XCTAssertGreaterThan(widestCorner, Int128(Int32.max))

        // Samples: source = R(−θ)·(dest − d)/scale + s per pixel centre, less half a texel, bilinear
        // over the mask with zero outside it.
        let dudx = (Int128(c) << 16) / Int128(scale), dudy = (Int128(s) << 16) / Int128(scale)
        func texel(_ x: Int128, _ y: Int128) -> Int128 {
            x < 0 || y < 0 || x >= w || y >= h ? 0 : Int128(mask.alpha[Int(y) * w + Int(x)])
        }
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: box.width)
        defer { row.deallocate() }
        var widestStep: Int128 = 0, wrong = 0, nonZero = 0
        for y in Swift.stride(from: box.y, to: box.maxY, by: 3) {
            place.sampleRow(sprite, y: y, x0: box.x, x1: box.maxX, into: row)
            for x in box.x..<box.maxX {
                let dx = Int128(x) * 256 + 128 - Int128(destX), dy = Int128(y) * 256 + 128 - Int128(destY)
                let pu = dudx * dx + dudy * dy, pv = -dudy * dx + dudx * dy
                widestStep = max(widestStep, abs(dudx * dx), abs(pv))
                let u = Int128(sourceX) * 256 + (pu >> 8) - 32768, v = Int128(sourceY) * 256 + (pv >> 8) - 32768
                let iu = u >> 16, iv = v >> 16
                var want: Int128 = 0
                if iu >= -1 && iu < w && iv >= -1 && iv < h {
                    let fu = (u >> 8) & 255, fv = (v >> 8) & 255
                    let top = texel(iu, iv) * (256 - fu) + texel(iu + 1, iv) * fu
                    let bottom = texel(iu, iv + 1) * (256 - fu) + texel(iu + 1, iv + 1) * fu
                    want = (top * (256 - fv) + bottom * fv + 32768) >> 16
                }
                if Int128(row[x - box.x]) != want { wrong += 1 }
                if want != 0 { nonZero += 1 }
            }
        }
        XCTAssertEqual(wrong, 0)
        XCTAssertGreaterThan(nonZero, 30_000)
        XCTAssertGreaterThan(widestStep, Int128(Int32.max))
    }
}
