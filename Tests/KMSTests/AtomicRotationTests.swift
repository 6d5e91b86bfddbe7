import DisplayCore
import Glibc
import KMS
import Raster
import Syscall
import XCTest

/// The planes output on a turned panel: the canvas, the map and the sprite are turned in
/// software, the sprite placed where its canvas place lands on the panel, and what the controller
/// composes is the canvas-orientation composition turned, pixel for pixel.
final class AtomicRotationTests: XCTestCase {
    private static func canvasPixel(_ x: Int, _ y: Int) -> UInt32 { UInt32(x * 5 & 0xFF) << 16 | UInt32(y * 3 & 0xFF) << 8 | 0x40 }
    private static func spritePixel(_ x: Int, _ y: Int) -> UInt32 {
        // Premultiplied: the colour never above the alpha.
        let a = UInt32(40 + (x * 7 + y * 13) % 200)
        return a << 24 | min(a, UInt32(x * 9 & 0xFF)) << 16 | min(a, UInt32(y * 11 & 0xFF)) << 8 | min(a, 17)
    }

    /// The composition in canvas orientation: the canvas with the sprite blended over it.
    private static func model(_ x: Int, _ y: Int, sprite: Rect) -> UInt32 {
        let d = canvasPixel(x, y)
        guard sprite.contains(x: x, y: y) else { return d }
        let s = spritePixel(x - sprite.x, y - sprite.y), keep = 255 - (s >> 24)
        var out: UInt32 = 0
        for shift: UInt32 in [0, 8, 16] { out |= min(255, ((s >> shift) & 0xFF) + (((d >> shift) & 0xFF) * keep + 127) / 255) << shift }
        return out
    }

    func testEveryTurnComposesTheTurnedCanvasAndSprite() throws {
        for rotation in [Rotation.r90, .r180, .r270] {
            let card = FakeAtomicCard.withOverlay()
            card.addWriteback()
            var lines: [String] = []
            let legacy = try KMSOutput(card: card, resources: card.inner.resourcesValue, configuration: KMSConfiguration(rotation: rotation),
                                       clock: { card.inner.now })
            guard case .success(let output) = AtomicKMSOutput.choose(from: legacy, log: { lines.append($0) }, clock: { card.inner.now }) else {
                return XCTFail("\(rotation): the planes output was not chosen on a turned panel")
            }
            let logical = rotation.logicalSize(physicalWidth: 64, physicalHeight: 48)
            XCTAssertEqual([output.canvasWidth, output.canvasHeight], [logical.width, logical.height])
            let canvas = output.canvas
            for y in 0..<canvas.height { for x in 0..<canvas.width {
                canvas.row(y).storeBytes(of: Self.canvasPixel(x, y), toByteOffset: x * 4, as: UInt32.self)
            } }
            // A sprite partly off the canvas's left edge, in canvas coordinates.
            let place = Rect(x: -3, y: 5, width: 12, height: 9)
            let b = output.spriteBuffer
            XCTAssertEqual([b.width, b.height], [output.spriteWidth, output.spriteHeight])
            for y in 0..<place.height { for x in 0..<place.width {
                b.row(y).storeBytes(of: Self.spritePixel(x, y), toByteOffset: x * 4, as: UInt32.self)
            } }
            output.showSprite(x: place.x, y: place.y, width: place.width, height: place.height)
            try output.start()
            var wrong = 0
            for py in 0..<48 { for px in 0..<64 {
                // The canvas pixel that lands on panel pixel (px, py).
                let l = rotation.inverse.map(rect: Rect(x: px, y: py, width: 1, height: 1), logicalWidth: 64, logicalHeight: 48)
                if card.screen(px, py) != Self.model(l.x, l.y, sprite: place) { wrong += 1 }
            } }
            XCTAssertEqual(wrong, 0, "\(rotation): panel pixels off the turned composition")
            let captured = try XCTUnwrap(output.composedScreen(), "\(rotation): no capture")
            XCTAssertEqual([captured.width, captured.height], [logical.width, logical.height], "the capture in canvas orientation")
            var capturedWrong = 0
            for y in 0..<logical.height { for x in 0..<logical.width
                where captured.row(y).load(fromByteOffset: x * 4, as: UInt32.self) & 0xFF_FFFF != Self.model(x, y, sprite: place) { capturedWrong += 1 } }
            XCTAssertEqual(capturedWrong, 0, "\(rotation): the capture turned back")
            XCTAssertNil(output.mapScrollPlane(margin: 8))
            XCTAssertTrue(lines.last?.hasSuffix("map pictures are not turned: on a panel turned \(rotation.degrees)° the map moves in the canvas") ?? false, "\(lines)")
            output.close()
        }
    }
}
