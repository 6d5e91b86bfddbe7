import XCTest
import Raster

/// Fixed-point helpers whose intermediate values pass 32 bits: a build with a 32-bit Int must get
/// every one of these bit for bit as the 64-bit build does.
final class FixedPointTests: XCTestCase {
    /// (angle in 1/4096 degree, sin, cos) in Q30 over all eight octants and their borders, as the
    /// series computed with a 128-bit product gave them; each is within 1 of round(2^30 · sin).
    static let known: [(units: Int, sin: Int, cos: Int)] = [
        (0, 0, 1073741824),
        (1, 4575, 1073741824),
        (4095, 18734803, 1073578369),
        (4096, 18739378, 1073578289),
        (61440, 277904833, 1037154959),
        (122880, 536870911, 929887697),
        (180224, 745883745, 772385230),
        (184319, 759246890, 759253361),
        (184320, 759250124, 759250126),
        (184321, 759253361, 759246890),
        (188416, 772385230, 745883745),
        (245760, 929887697, 536870911),
        (364544, 1073578289, 18739378),
        (368640, 1073741824, 0),
        (372736, 1073578289, -18739378),
        (491520, 929887697, -536870911),
        (552960, 759250126, -759250124),
        (614400, 536870911, -929887697),
        (733184, 18739378, -1073578289),
        (737280, 0, -1073741824),
        (741376, -18739378, -1073578289),
        (860160, -536870911, -929887697),
        (921600, -759250124, -759250126),
        (983040, -929887697, -536870911),
        (1101824, -1073578289, -18739378),
        (1105920, -1073741824, 0),
        (1110016, -1073578289, 18739378),
        (1228800, -929887697, 536870911),
        (1290240, -759250126, 759250124),
        (1351680, -536870911, 929887697),
        (1470464, -18739378, 1073578289),
        (1474559, -4575, 1073741824),
    ]

    func testSinCosQ30MatchesKnownValuesInEveryOctant() {
        for k in Self.known {
            let (s, c) = FixedTrig.sinCosQ30(units: k.units)
            XCTAssertEqual(s, k.sin, "sin at \(k.units)")
            XCTAssertEqual(c, k.cos, "cos at \(k.units)")
            let a = Double(k.units) / 4096 * .pi / 180
            XCTAssertEqual(Double(s), sin(a) * 1_073_741_824, accuracy: 1.5, "sin at \(k.units)")
            XCTAssertEqual(Double(c), cos(a) * 1_073_741_824, accuracy: 1.5, "cos at \(k.units)")
        }
    }

    /// Every angle at once: π·2^60 times the angle needs 80 bits and x² about 2^59, so a product
    /// done in a 32-bit Int (or a 64-bit one that overflowed) changes some of them. The hash is
    /// the 128-bit formulation's.
    func testSinCosQ30OfEveryAngleIsUnchanged() {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for a in 0..<(360 * FixedTrig.unitsPerDegree) {
            let (s, c) = FixedTrig.sinCosQ30(units: a)
            h = (h ^ UInt64(bitPattern: Int64(s))) &* 0x100_0000_01b3
            h = (h ^ UInt64(bitPattern: Int64(c))) &* 0x100_0000_01b3
        }
        XCTAssertEqual(String(h, radix: 16), "478f88ca6a15766d")
    }

    /// Squares of Q8 values (|v| ≤ Fixed.limit < 2^23) reach 2^46, and floorSqrt is good to 2^48:
    /// both against an integer square root by bisection, at perfect squares, one either side, and
    /// the rounding midpoints k² + k (rounds down) and k² + k + 1 (rounds up).
    func testSquareRootsNear2To46And2To48AreExact() {
        XCTAssertLessThan(Int64(Fixed.limit) * Int64(Fixed.limit), 1 << 46)
        func isqrt(_ n: Int64) -> Int64 {
            var lo: Int64 = 0, hi: Int64 = 1 << 25
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if mid * mid <= n { lo = mid } else { hi = mid - 1 }
            }
            return lo
        }
        func iround(_ n: Int64) -> Int64 { let r = isqrt(n); return n - r * r > r ? r + 1 : r }
        var roots: [Int64] = [1 << 22, (1 << 23) - 1, 1 << 23, (1 << 23) + 1, Int64(Fixed.limit), 11_863_283,
                              (1 << 24) - 2, (1 << 24) - 1]
        // And a spread of others from 2^20 up (a fixed LCG, so the test is the same every run).
        var state: UInt64 = 0x2545_f491_4f6c_dd1d
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            roots.append(Int64((1 << 20) + (state >> 33) % ((1 << 24) - (1 << 20))))
        }
        for k in roots {
            for n in [k * k - 1, k * k, k * k + 1, k * k + k, k * k + k + 1, k * k + 2 * k] where n < 1 << 48 {
                XCTAssertEqual(Int64(Fixed.floorSqrt(n)), isqrt(n), "floorSqrt(\(n))")
                if n < 1 << 46 { XCTAssertEqual(Int64(Fixed.roundSqrt(n)), iround(n), "roundSqrt(\(n))") }
            }
        }
        XCTAssertEqual(Fixed.floorSqrt((1 << 48) - 1), (1 << 24) - 1)
        XCTAssertEqual(Fixed.roundSqrt((1 << 46) - 1), 1 << 23)
    }
}
