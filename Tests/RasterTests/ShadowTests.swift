import XCTest
import Raster

/// The drop shadow: integer Gaussian kernel and the precomputed blurred-disc masks.
final class ShadowTests: XCTestCase {
    func testKernelSumsExactlyHasVarianceSigmaSquaredAndIsCutAtThreeSigma() {
        for sigma in [0.5, 1.0, 1.7, 3.0, 4.5, 6.0, 9.0] {
            let k = Gaussian.kernel(sigma256: Int(sigma * 256))
            XCTAssertEqual(k.weights.reduce(0, +), 65536)
            XCTAssertLessThanOrEqual(Double(k.radius), (3 * sigma).rounded(.up))
            var variance = 0.0
            for (i, w) in k.weights.enumerated() {
                XCTAssertEqual(w, k.weights[k.weights.count - 1 - i], "symmetric")
                variance += Double(w) / 65536 * Double((i - k.radius) * (i - k.radius))
                if i > 0 && i <= k.radius { XCTAssertGreaterThanOrEqual(w, k.weights[i - 1], "rises to the centre") }
            }
            // The 3σ cut removes a sliver of the tails (≈ 2.6 % of the variance).
            XCTAssertEqual(variance, sigma * sigma, accuracy: sigma * sigma * 0.04 + 0.01, "σ=\(sigma)")
            // Close to the sampled Gaussian itself.
            let gauss = (-k.radius...k.radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
            let total = gauss.reduce(0, +)
            for (i, g) in gauss.enumerated() where sigma >= 1.7 {
                XCTAssertEqual(Double(k.weights[i]) / 65536, g / total, accuracy: 0.006, "σ=\(sigma) tap \(i)")
            }
        }
        XCTAssertEqual(Gaussian.kernel(sigma256: 0).weights, [65536])
    }

    /// Summed alpha of the shadow = disc area × alpha/255 (the blur keeps mass); its centroid is
    /// where it was placed, at every sub-pixel phase.
    func testShadowMaskKeepsTheDiscsMassAndSitsWherePlaced() {
        let r = 11.0, alpha = 77
        let masks = SoftShadowMasks(radius: Int(r * 256), sigma: 3 * 256, alpha: alpha)
        for (fx, fy) in [(0.0, 0.0), (0.125, 0.5), (0.5, 0.875), (0.9, 0.3)] {
            let cx = Int((100 + fx) * 256), cy = Int((50 + fy) * 256)
            let p = masks.placement(centerX: cx, centerY: cy)
            var sum = 0.0, mx = 0.0, my = 0.0
            for y in 0..<p.size { for x in 0..<p.size {
                let a = Double(p.mask[y * p.size + x])
                if a > 0 { XCTAssertTrue(p.box.contains(x: p.originX + x, y: p.originY + y)) }
                sum += a; mx += a * (Double(p.originX + x) + 0.5); my += a * (Double(p.originY + y) + 0.5)
            } }
            XCTAssertEqual(sum / Double(alpha), Double.pi * r * r, accuracy: Double.pi * r * r * 0.01)
            // Placed to the nearest 1/8 px.
            XCTAssertEqual(mx / sum, 100 + fx, accuracy: 1.0 / 16 + 0.01)
            XCTAssertEqual(my / sum, 50 + fy, accuracy: 1.0 / 16 + 0.01)
            // Cut at 3σ: nothing beyond r + 3σ (+1 px of phase and rounding).
            XCTAssertLessThanOrEqual(Double(p.box.width), 2 * (r + 9) + 2)
        }
    }

    func testShadowIsSoftAndPeaksInside() {
        let masks = SoftShadowMasks(radius: 11 * 256, sigma: 3 * 256, alpha: 255)
        let p = masks.placement(centerX: 50 * 256, centerY: 50 * 256)
        let row = (0..<p.size).map { Int(p.mask[(50 - p.originY) * p.size + $0]) }
        let centre = 50 - p.originX
        XCTAssertGreaterThan(row[centre], 250)
        // Pixel centre 11.51 px from the disc's centre: the continuous blurred disc (r 11, σ 3) is
        // 0.380 there (numerical integration), below ½ because the disc is convex.
        XCTAssertEqual(row[centre + 11], 97, accuracy: 3, "at the disc's edge")
        for x in centre..<(p.size - 1) { XCTAssertGreaterThanOrEqual(row[x], row[x + 1]) }
    }

    /// The blur's second pass sums up to 255·2^8 × 2^16 ≈ 2^32, past a 32-bit Int: every phase of a
    /// 40 px shadow equals the same blur, alpha and resampling done here in Int64 from the disc's
    /// coverage, and the disc's interior comes out at exactly the baked alpha.
    func testLargeShadowEqualsAnInt64BlurOfTheDisc() {
        let radius = 40 * 256 + 77, sigma = 5 * 256 + 100, alpha = 201
        let masks = SoftShadowMasks(radius: radius, sigma: sigma, alpha: alpha)
        let n = masks.size, margin = masks.margin
        let kernel = Gaussian.kernel(sigma256: sigma), kr = kernel.radius
        let raster = DiscRasterizer(initialWidth: n)
        let disc = Disc(centerX256: margin * 256, centerY256: margin * 256, radius256: radius)
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
        defer { line.deallocate() }
        var cover = [Int64](repeating: 0, count: n * n)
        for y in 0..<n {
            raster.coverageRow(disc, y: y, clipX0: 0, clipX1: n, into: line)
            for x in 0..<n { cover[y * n + x] = Int64(line[x]) }
        }
        func blur(_ source: [Int64], horizontal: Bool) -> (out: [Int64], largest: Int64) {
            var out = [Int64](repeating: 0, count: n * n), largest: Int64 = 0
            for y in 0..<n { for x in 0..<n {
                var acc: Int64 = 0
                for k in -kr...kr {
                    let (sx, sy) = horizontal ? (x - k, y) : (x, y - k)
                    if sx >= 0 && sx < n && sy >= 0 && sy < n { acc += Int64(kernel.weights[k + kr]) * source[sy * n + sx] }
                }
                largest = max(largest, acc)
                out[y * n + x] = (acc + 128) >> 8
            } }
            return (out, largest)
        }
        let blurred = blur(blur(cover, horizontal: true).out, horizontal: false)
        XCTAssertGreaterThan(blurred.largest, Int64(Int32.max))
        func base(_ x: Int, _ y: Int) -> Int64 {
            x < 0 || y < 0 ? 0 : (blurred.out[y * n + x] * Int64(alpha) + 127) / 255
        }
        var wrong = 0
        for py in 0..<8 { for px in 0..<8 {
            // (c + 16) >> 5 is 8·pixel + phase: this centre selects phase (px, py).
            let p = masks.placement(centerX: 1000 * 256 + px * 32, centerY: 700 * 256 + py * 32)
            XCTAssertEqual(p.originX, 1000 - margin)
            for y in 0..<n { for x in 0..<n {
                let v = base(x, y) * Int64((8 - px) * (8 - py)) + base(x - 1, y) * Int64(px * (8 - py))
                    + base(x, y - 1) * Int64((8 - px) * py) + base(x - 1, y - 1) * Int64(px * py)
                if Int64(p.mask[y * n + x]) != (v + (1 << 21)) >> 22 { wrong += 1 }
            } }
        } }
        XCTAssertEqual(wrong, 0)
        let p = masks.placement(centerX: 1000 * 256, centerY: 700 * 256)
        XCTAssertEqual(p.mask[margin * n + margin], UInt8(alpha))
    }
}
