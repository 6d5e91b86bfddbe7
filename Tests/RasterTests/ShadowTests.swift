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
}
