import FBDev
import XCTest

/// The bitfields a driver reports decide the layout; anything PulseDot cannot write exactly is
/// rejected with a line naming what the driver said.
final class LayoutDecodingTests: XCTestCase {
    private func info(bpp: Int, _ r: (Int, Int), _ g: (Int, Int), _ b: (Int, Int), transp: (Int, Int) = (0, 0),
                      grayscale: Int = 0, nonstd: Int = 0) -> VariableScreenInfo {
        VariableScreenInfo(xres: 8, yres: 8, bitsPerPixel: bpp, grayscale: grayscale,
                           red: Bitfield(offset: r.1, length: r.0), green: Bitfield(offset: g.1, length: g.0),
                           blue: Bitfield(offset: b.1, length: b.0), transp: Bitfield(offset: transp.1, length: transp.0),
                           nonstd: nonstd)
    }

    private let truecolor = FixedScreenInfo(id: "t", memoryLength: 4096, lineLength: 32)

    private func decode(_ v: VariableScreenInfo, _ f: FixedScreenInfo? = nil) -> Result<FramebufferLayout, LayoutRejection> {
        FramebufferLayout.decode(v, f ?? truecolor)
    }

    private func rejection(_ v: VariableScreenInfo, _ f: FixedScreenInfo? = nil) -> String? {
        if case .failure(let r) = decode(v, f) { return r.layout }
        return nil
    }

    func testXRGB8888AndItsAlphaVariant() {
        XCTAssertEqual(try decode(info(bpp: 32, (8, 16), (8, 8), (8, 0))).get(), .xrgb8888)
        XCTAssertEqual(try decode(info(bpp: 32, (8, 16), (8, 8), (8, 0), transp: (8, 24))).get(), .argb8888)
        XCTAssertTrue(FramebufferLayout.xrgb8888.isNative)
        XCTAssertFalse(FramebufferLayout.argb8888.isNative, "alpha is forced opaque, not copied")
    }

    func testBGRVariantsAreHandled() {
        XCTAssertEqual(try decode(info(bpp: 32, (8, 0), (8, 8), (8, 16))).get(), .xbgr8888)
        XCTAssertEqual(try decode(info(bpp: 32, (8, 0), (8, 8), (8, 16), transp: (8, 24))).get(), .abgr8888)
        XCTAssertEqual(try decode(info(bpp: 16, (5, 0), (6, 5), (5, 11))).get(), .bgr565)
        XCTAssertEqual(FramebufferLayout.bgr565.description, "BGR565")
    }

    func testRGB565() {
        let layout = try? decode(info(bpp: 16, (5, 11), (6, 5), (5, 0))).get()
        XCTAssertEqual(layout, .rgb565)
        XCTAssertEqual(layout?.bytesPerPixel, 2)
        XCTAssertEqual(layout?.description, "RGB565")
    }

    func testOtherLayoutsAreRejectedNamingWhatTheDriverSaid() {
        XCTAssertEqual(rejection(info(bpp: 16, (5, 10), (5, 5), (5, 0))),
                       "16 bpp, red 5@10 green 5@5 blue 5@0 (15-bit colour, e.g. RGB555)")
        XCTAssertEqual(rejection(info(bpp: 16, (5, 10), (5, 5), (5, 0), transp: (1, 15))),
                       "16 bpp, red 5@10 green 5@5 blue 5@0 transp 1@15 (alpha 1@15, e.g. ARGB1555)")
        XCTAssertEqual(rejection(info(bpp: 24, (8, 16), (8, 8), (8, 0))), "24 bpp, red 8@16 green 8@8 blue 8@0 (24 bits per pixel)")
        XCTAssertEqual(rejection(info(bpp: 32, (10, 20), (10, 10), (10, 0), transp: (2, 30))),
                       "32 bpp, red 10@20 green 10@10 blue 10@0 transp 2@30 (alpha 2@30)")
        XCTAssertEqual(rejection(info(bpp: 32, (8, 24), (8, 16), (8, 8))), "32 bpp, red 8@24 green 8@16 blue 8@8 (channels not in 8-bit bytes)")
        XCTAssertEqual(rejection(info(bpp: 8, (8, 0), (8, 0), (8, 0)), FixedScreenInfo(id: "t", memoryLength: 64, visual: 3, lineLength: 8)),
                       "8 bpp, red 8@0 green 8@0 blue 8@0 (a palette (pseudocolor))")
        XCTAssertEqual(rejection(info(bpp: 8, (0, 0), (0, 0), (0, 0), grayscale: 1)), "8 bpp, red 0@0 green 0@0 blue 0@0 (greyscale)")
        XCTAssertEqual(rejection(info(bpp: 16, (5, 11), (6, 5), (5, 0)), FixedScreenInfo(id: "t", memoryLength: 64, type: 1, lineLength: 16)),
                       "16 bpp, red 5@11 green 6@5 blue 5@0 (not packed pixels: type 1)")
        XCTAssertNotNil(rejection(info(bpp: 16, (5, 11), (6, 5), (5, 0), nonstd: 1)))
        var reversed = info(bpp: 16, (5, 11), (6, 5), (5, 0))
        reversed.red.msbRight = true
        XCTAssertEqual(rejection(reversed), "16 bpp, red 5@11 (msb right) green 6@5 blue 5@0 (bits in reverse order)")
    }

    func testTheOutputRefusesAnUnsupportedLayoutInOneLine() {
        let fb = MemoryFramebuffer.make()
        fb.variable = info(bpp: 16, (5, 10), (5, 5), (5, 0))
        XCTAssertThrowsError(try Scene.make(fb)) { error in
            XCTAssertEqual("\(error)", "/dev/fb0 (memfb): pixel layout 16 bpp, red 5@10 green 5@5 blue 5@0 (15-bit colour, e.g. RGB555) is not supported; PulseDot writes XRGB8888, XBGR8888 (32 bpp) and RGB565, BGR565 (16 bpp) truecolor framebuffers (set another depth with fbset or the video= kernel option, or use output = kms)")
            XCTAssertEqual((error as? FBDevError)?.recovery, .giveUp)
        }
        XCTAssertFalse(fb.log.contains { $0.hasPrefix("map") }, "nothing is mapped for a layout that is refused")
    }
}
