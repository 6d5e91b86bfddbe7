import Compositor
import LocationDot
import Raster
import XCTest

/// `FrameRenderer.copyOut` into RGB565 takes what still shows the map from the narrowed map: every
/// frame it writes must equal narrowing the whole canvas, for a moving dot, with an overlay, as the
/// view scrolls over a larger map, after the map's pixels change, in every turn.
final class RendererNarrowedCopyOutTests: XCTestCase {
    private func map(width: Int, height: Int) -> OwnedPixelBuffer {
        let f = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
        for y in 0..<height {
            let row = f.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { row[x] = 0xFF00_0000 | UInt32((x * 5 + y) & 0xFF) << 16 | UInt32((y * 3) & 0xFF) << 8 | UInt32((x ^ y) & 0xFF) }
        }
        return f
    }

    private func bytes(_ b: PixelBuffer) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<b.height { out += UnsafeRawBufferPointer(start: b.row(y), count: b.width * b.format.bytesPerPixel) }
        return out
    }

    func testEveryFrameEqualsNarrowingTheWholeCanvas() throws {
        let w = 120, h = 90
        for rotation in Rotation.allCases {
            let background = map(width: w + 40, height: h + 30)
            let renderer = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .frame(background))
            let label = Overlay(width: 30, height: 8, x: 85, y: 78)
            label.fill(Rect(x: 0, y: 0, width: 30, height: 8), with: Color(r: 255, g: 255, b: 255, a: 160))
            renderer.add(PictureLayer(label), on: .screen)
            renderer.prepareCopyOut(format: .rgb565, rotation: rotation)
            XCTAssertEqual(renderer.narrowedBytes, (w + 40) * (h + 30) * 2)
            let panel = rotation.physicalSize(logicalWidth: w, logicalHeight: h)
            let fast = OwnedPixelBuffer(width: panel.width, height: panel.height, format: .rgb565)
            let plain = OwnedPixelBuffer(width: panel.width, height: panel.height, format: .rgb565)
            let clock = DotClock(style: DotStyle())
            var damage = Damage(bounds: renderer.bounds)
            for n in 0..<30 {
                if n == 12 { renderer.scrollBackground(toX: 17, y: 9) }
                if n == 20 {
                    // The map itself changes under the view.
                    background.buffer.fill(Rect(x: 30, y: 20, width: 25, height: 12), with: Color(r: 9, g: 200, b: 40))
                    renderer.invalidate(Rect(x: 13, y: 11, width: 25, height: 12))
                }
                let changed = renderer.render(clock.appearance(at: Double(n) * 0.21), centerX: 40 + Double(n) * 1.37,
                                              centerY: 50 - Double(n) * 0.61)
                damage.add(changed)
                renderer.copyOut(damage.union, to: fast.buffer, rotation: rotation)
                damage.endFrame()
                renderer.wholeCanvas().copyOut(region: renderer.bounds, to: plain.buffer, rotation: rotation)
                let a = bytes(fast.buffer), b = bytes(plain.buffer)
                XCTAssertTrue(a == b, "\(rotation) frame \(n): first difference at byte \((0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? -1)")
            }
        }
    }

    func testWithoutANarrowedCopyItNarrowsAsBefore() throws {
        let renderer = try FrameRenderer(width: 64, height: 48, style: DotStyle(), scale: 1, background: .frame(map(width: 64, height: 48)))
        XCTAssertEqual(renderer.narrowedBytes, 0)
        renderer.render(DotAppearance(), centerX: 30.3, centerY: 20.6)
        let a = OwnedPixelBuffer(width: 64, height: 48, format: .rgb565), b = OwnedPixelBuffer(width: 64, height: 48, format: .rgb565)
        renderer.copyOut(renderer.bounds, to: a.buffer)
        renderer.wholeCanvas().copyOut(region: renderer.bounds, to: b.buffer)
        XCTAssertEqual(bytes(a.buffer), bytes(b.buffer))
    }

    /// A background frame rewritten in place (a composed map window that moved): the narrowed
    /// map follows the new pixels.
    func testARewrittenBackgroundNarrowsTheNewMap() throws {
        let background = map(width: 64, height: 48)
        let renderer = try FrameRenderer(width: 64, height: 48, style: DotStyle(), scale: 1, background: .frame(background))
        renderer.prepareCopyOut(format: .rgb565)
        let a = OwnedPixelBuffer(width: 64, height: 48, format: .rgb565), b = OwnedPixelBuffer(width: 64, height: 48, format: .rgb565)
        renderer.render(DotAppearance(), centerX: 30.3, centerY: 20.6)
        background.buffer.fill(background.buffer.bounds, with: Color(r: 250, g: 10, b: 90))
        renderer.backgroundRewritten()
        renderer.render(DotAppearance(), centerX: 31.1, centerY: 21.4)
        renderer.copyOut(renderer.bounds, to: a.buffer)
        renderer.wholeCanvas().copyOut(region: renderer.bounds, to: b.buffer)
        XCTAssertEqual(bytes(a.buffer), bytes(b.buffer))
    }

    /// Over a narrowed map without layers a frame restores only the dot's pixels, copy-out taking
    /// the rest from the narrowed map: a panning view does not copy the map twice a frame. What
    /// reaches the panel, and the canvas once caught up, equal a renderer that restores it all.
    func testAPanningViewRestoresOnlyTheDotAndCatchesUpWhenRead() throws {
        let w = 120, h = 90
        let background = map(width: w + 60, height: h + 40)
        let lazy = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .frame(background))
        let full = try FrameRenderer(width: w, height: h, style: DotStyle(), scale: 1, background: .frame(background))
        lazy.prepareCopyOut(format: .rgb565)
        let fast = OwnedPixelBuffer(width: w, height: h, format: .rgb565)
        let plain = OwnedPixelBuffer(width: w, height: h, format: .rgb565)
        let clock = DotClock(style: DotStyle())
        var damage = Damage(bounds: lazy.bounds)
        var skipped = 0
        for n in 0..<24 {
            if n % 3 == 1 {
                lazy.scrollBackground(toX: n * 2, y: n)
                full.scrollBackground(toX: n * 2, y: n)
            }
            let appearance: DotAppearance? = n == 9 ? nil : clock.appearance(at: Double(n) * 0.23)
            let x = 30 + Double(n) * 2.1, y = 60 - Double(n) * 1.3
            let changed = lazy.render(appearance, centerX: x, centerY: y)
            XCTAssertEqual(changed, full.render(appearance, centerX: x, centerY: y), "frame \(n)")
            damage.add(changed)
            lazy.copyOut(damage.union, to: fast.buffer)
            damage.endFrame()
            full.canvas.buffer.copyOut(region: full.bounds, to: plain.buffer)
            XCTAssertEqual(bytes(fast.buffer), bytes(plain.buffer), "frame \(n) on the panel")
            if bytes(lazy.canvas.buffer) != bytes(full.canvas.buffer) { skipped += 1 }
            if n % 8 == 7 { XCTAssertEqual(bytes(lazy.wholeCanvas()), bytes(full.canvas.buffer), "frame \(n) caught up") }
        }
        // The lazy canvas really lagged: most frames left the map's pixels unrestored.
        XCTAssertGreaterThan(skipped, 12)
        // An XRGB8888 copy-out reads the canvas whole: it catches up first.
        let wide = OwnedPixelBuffer(width: w, height: h, format: .xrgb8888)
        lazy.copyOut(lazy.bounds, to: wide.buffer)
        XCTAssertEqual(bytes(wide.buffer), bytes(full.canvas.buffer))
    }

    func testAMapLargerThanTheLimitGetsNoNarrowedCopy() throws {
        let renderer = try FrameRenderer(width: 64, height: 48, style: DotStyle(), scale: 1, background: .frame(map(width: 64, height: 48)))
        renderer.prepareCopyOut(format: .rgb565, maximumBytes: 64 * 48 * 2 - 1)
        XCTAssertEqual(renderer.narrowedBytes, 0)
        renderer.prepareCopyOut(format: .rgb565, maximumBytes: 64 * 48 * 2)
        XCTAssertEqual(renderer.narrowedBytes, 64 * 48 * 2)
    }
}
