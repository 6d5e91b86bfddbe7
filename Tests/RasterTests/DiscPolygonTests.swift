import XCTest
@testable import Raster

/// The polygon a disc is rasterized as: the lower half of its left chain takes its quotients from
/// the upper half's mirror image, and they must be the very numbers dividing gives.
final class DiscPolygonTests: XCTestCase {
    func testMirroredQuotientsEqualDividing() {
        let r = DiscRasterizer()
        var radii = Array(1...3000)
        radii += stride(from: 3001, to: 200_000, by: 97)
        var mirrored = 0
        for radius in radii {
            // A new radius each time, at a centre off the pixel grid (the polygon does not depend on it).
            r.prepare(Disc(centerX256: 1000 * 256 + 37, centerY256: 900 * 256 + 201, radius256: radius))
            for e in 0..<r.edges {
                let dx = r.chainX[e + 1] - r.chainX[e], dy = r.chainY[e + 1] - r.chainY[e]
                let slope = dy > 0 ? DiscRasterizer.quotientQ16(dx, dy) : 0
                let inverse = dx != 0 ? DiscRasterizer.quotientQ16(dy, dx) : 0
                XCTAssertEqual(r.slope[e], slope, "radius \(radius) edge \(e)")
                XCTAssertEqual(r.inverseSlope[e], inverse, "radius \(radius) edge \(e)")
                let m = r.edges - 1 - e
                if m < e && r.chainY[m + 1] - r.chainY[m] == dy && r.chainX[m + 1] - r.chainX[m] == -dx { mirrored += 1 }
            }
        }
        // Nearly every lower edge is a mirror image (the test would pass trivially otherwise).
        XCTAssertGreaterThan(mirrored, radii.count * 8)
    }
}
