import FBDev
import Raster
import XCTest

/// Copy-out into every layout and rotation: each framebuffer pixel is the shadow pixel turned and
/// converted, and nothing outside the copied rectangle is written.
final class LayoutCopyTests: XCTestCase {
    static let layouts: [FramebufferLayout] = [.xrgb8888, .argb8888, .xbgr8888, .abgr8888, .rgb565, .bgr565]

    func testEveryLayoutAndRotationWholeFrame() throws {
        for layout in Self.layouts {
            for rotation in Rotation.allCases {
                let fb = MemoryFramebuffer.make(width: 24, height: 16, layout: layout, padding: 12)
                let output = try Scene.make(fb, FBDevConfiguration(rotation: rotation))
                Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(3))
                try output.start()
                Scene.assertPanelShowsCanvas(fb, output, "\(layout) at \(rotation.degrees)")
                XCTAssertTrue(fb.paddingUntouched, "\(layout) at \(rotation.degrees): row padding written")
            }
        }
    }

    func testAPartialRegionWritesOnlyItsTurnedRectangle() throws {
        for layout in Self.layouts {
            for rotation in Rotation.allCases {
                let shadow = OwnedPixelBuffer(width: 20, height: 12, format: .xrgb8888)
                Scene.fill(shadow.buffer, shadow.buffer.bounds, Scene.pattern(5))
                let size = rotation.physicalSize(logicalWidth: 20, logicalHeight: 12)
                let bpp = layout.bytesPerPixel
                let stride = size.width * bpp + 8
                let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * size.height, alignment: 16)
                defer { memory.deallocate() }
                memory.initializeMemory(as: UInt8.self, repeating: 0xA5, count: stride * size.height)
                let target = PixelBuffer(base: memory, width: size.width, height: size.height, stride: stride, format: layout.container)
                let region = Rect(x: 3, y: 2, width: 7, height: 5)
                let written = layout.copy(region: region, from: shadow.buffer, to: target, rotation: rotation)
                XCTAssertEqual(written, rotation.map(rect: region, logicalWidth: 20, logicalHeight: 12))
                var wrong = 0
                for y in 0..<12 {
                    for x in 0..<20 {
                        let (px, py) = Scene.physical(rotation, x: x, y: y, panelWidth: size.width, panelHeight: size.height)
                        let p = memory + py * stride + px * bpp
                        let got = bpp == 4 ? p.load(as: UInt32.self) : UInt32(p.load(as: UInt16.self))
                        let inside = region.contains(x: x, y: y)
                        let want = inside ? Scene.expected(layout, Scene.logical(shadow.buffer, x, y)) : (bpp == 4 ? 0xA5A5_A5A5 : 0xA5A5)
                        if got != want { wrong += 1 }
                    }
                }
                XCTAssertEqual(wrong, 0, "\(layout) at \(rotation.degrees)")
            }
        }
    }

    func testBGR565NarrowsEachChannelByLookRules() {
        // One pixel per channel extreme and mid values: the swap must not mix the 5- and 6-bit fields.
        let shadow = OwnedPixelBuffer(width: 4, height: 1, format: .xrgb8888)
        let values: [UInt32] = [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0x0080_4020]
        for (i, v) in values.enumerated() { shadow.buffer.row(0).storeBytes(of: v, toByteOffset: i * 4, as: UInt32.self) }
        var out = [UInt16](repeating: 0, count: 4)
        out.withUnsafeMutableBytes { raw in
            let target = PixelBuffer(base: raw.baseAddress!, width: 4, height: 1, stride: 8, format: .rgb565)
            FramebufferLayout.bgr565.copy(region: shadow.buffer.bounds, from: shadow.buffer, to: target, rotation: .r0)
        }
        XCTAssertEqual(out, [0x001F, 0x07E0, 0xF800, 0x2210])
    }
}
