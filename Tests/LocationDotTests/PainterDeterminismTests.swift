import Foundation
import XCTest
import LocationDot
import Raster

/// The same frame is the same bytes: twice in a row, from two painters, and against golden hashes
/// (which also pin the picture across CPUs: nothing feeding a pixel comes from libm).
///
/// Regenerating the golden hashes deliberately (after an intended change to the look): run
/// `PULSEDOT_PRINT_GOLDEN=1 swift test --filter PainterDeterminismTests` and copy the printed
/// values into `golden` below, saying in the commit why the picture changed.
final class PainterDeterminismTests: XCTestCase {
    struct Case { let name: String; let style: DotStyle; let scale: Double; let look: DotAppearance; let x: Double; let y: Double }

    static var cases: [Case] {
        var halo = DotAppearance()
        halo.haloSize = 0.37; halo.haloOpacity = 0.42; halo.dotSize = 0.93; halo.dotOpacity = 0.93
        var busy = halo
        busy.popScale = 1.17; busy.heading = 57.5; busy.accuracyRadiusPx = 80; busy.staleness = 0.3
        return [
            Case(name: "default-s2", style: DotStyle(), scale: 2, look: DotAppearance(), x: 120, y: 120),
            Case(name: "halo-s1", style: DotStyle(), scale: 1, look: halo, x: 119.37, y: 121.81),
            Case(name: "busy-s3", style: PainterBoundsTests.busyStyle(), scale: 3, look: busy, x: 120.2, y: 119.9),
        ]
    }

    static let golden: [String: UInt64] = [
        "default-s2": 0xdee44862180bd8e1,
        "halo-s1": 0x27b95e80be280303,
        "busy-s3": 0x9ba06d789f718436,
    ]

    private func render(_ c: Case, painter: DotPainter? = nil) -> OwnedPixelBuffer {
        let f = PainterFixture.frame(240, Color(r: 0xE5, g: 0xE3, b: 0xDF))
        (painter ?? DotPainter(style: c.style, scale: c.scale))
            .paint(into: f.buffer, centerX: c.x, centerY: c.y, appearance: c.look, clip: f.buffer.bounds)
        return f
    }

    func testSameFrameTwiceIsTheSameBytes() {
        for c in Self.cases {
            let painter = DotPainter(style: c.style, scale: c.scale)
            let a = render(c, painter: painter), b = render(c, painter: painter), other = render(c)
            XCTAssertEqual(Array(a.bytes), Array(b.bytes), c.name)
            XCTAssertEqual(Array(a.bytes), Array(other.bytes), c.name)
        }
    }

    func testGoldenFrames() {
        let print = ProcessInfo.processInfo.environment["PULSEDOT_PRINT_GOLDEN"] != nil
        for c in Self.cases {
            let h = PainterFixture.hash(render(c))
            if print { Swift.print("golden \"\(c.name)\": 0x\(String(h, radix: 16)),") }
            XCTAssertEqual(h, Self.golden[c.name], "\(c.name): the picture changed (see this file's header to regenerate deliberately)")
        }
    }
}
