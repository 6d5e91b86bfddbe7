import Compositor
import LocationDot
import Raster
import XCTest

/// Where the window of a scrolled map picture lies for each view, when the map is drawn anew, and
/// that the window shows exactly what the renderer's canvas shows over the same map.
final class MapScrollTests: XCTestCase {
    private func scroll(map: (Int, Int) = (1000, 800), picture: (Int, Int) = (400, 300), margin: Int = 50) -> MapScroll? {
        MapScroll(viewWidth: 300, viewHeight: 200, mapWidth: map.0, mapHeight: map.1,
                  pictureWidth: picture.0, pictureHeight: picture.1, margin: margin)
    }

    func testTheFirstViewIsDrawnCentredAndMovesStayInThePictureUntilAnEdge() throws {
        var s = try XCTUnwrap(scroll())
        XCTAssertEqual([s.usedWidth, s.usedHeight], [400, 300])
        XCTAssertEqual(s.step(offsetX: 300, offsetY: 200), .redraw(originX: 250, originY: 150, windowX: 50, windowY: 50))
        XCTAssertEqual(s.step(offsetX: 301, offsetY: 199), .move(x: 51, y: 49))
        XCTAssertEqual(s.step(offsetX: 350, offsetY: 250), .move(x: 100, y: 100), "the far corner of the picture")
        XCTAssertEqual(s.step(offsetX: 250, offsetY: 150), .move(x: 0, y: 0), "the near corner")
        XCTAssertEqual(s.step(offsetX: 351, offsetY: 250), .redraw(originX: 301, originY: 200, windowX: 50, windowY: 50),
                       "one pixel past the edge: a new picture centred on the view")
        s.forget()
        XCTAssertEqual(s.step(offsetX: 351, offsetY: 250), .redraw(originX: 301, originY: 200, windowX: 50, windowY: 50),
                       "forgotten: drawn again though the view is inside")
    }

    func testViewsAreClampedToTheMapAsTheRendererClampsThem() throws {
        var s = try XCTUnwrap(scroll())
        XCTAssertEqual(s.step(offsetX: -40, offsetY: -9), .redraw(originX: 0, originY: 0, windowX: 0, windowY: 0))
        XCTAssertEqual(s.step(offsetX: 5000, offsetY: 5000), .redraw(originX: 600, originY: 500, windowX: 100, windowY: 100),
                       "the picture ends at the map's far edge")
        XCTAssertEqual(s.step(offsetX: 690, offsetY: 590), .move(x: 90, y: 90))
    }

    func testThePictureUsesNoMoreThanTheMapAndNilWhereNothingCanScroll() throws {
        let narrow = try XCTUnwrap(scroll(map: (300, 800)))
        XCTAssertEqual([narrow.usedWidth, narrow.usedHeight], [300, 300], "as wide as the map: scrolls up and down only")
        var n = narrow
        XCTAssertEqual(n.step(offsetX: 10, offsetY: 400), .redraw(originX: 0, originY: 350, windowX: 0, windowY: 50))
        XCTAssertNil(scroll(map: (300, 200)), "a map the size of the view never moves")
        XCTAssertNil(scroll(picture: (300, 200)), "a picture the size of the view cannot scroll")
        XCTAssertNil(scroll(map: (299, 800)), "a map smaller than the view is composed into a window instead")
    }

    func testTheWindowShowsTheRenderersCanvasBitForBitInBothFormats() throws {
        let map = OwnedPixelBuffer(width: 700, height: 500, format: .xrgb8888)
        for y in 0..<500 {
            for x in 0..<700 {
                map.buffer.row(y).storeBytes(of: UInt32((x * 37 + y * 11) & 0xFF) << 16 | UInt32((x ^ y) & 0xFF) << 8 | UInt32((y * 3) & 0xFF),
                                             toByteOffset: x * 4, as: UInt32.self)
            }
        }
        let renderer = try FrameRenderer(width: 300, height: 200, style: DotStyle(), scale: 1, background: .frame(map))
        for format in [PixelFormat.xrgb8888, .rgb565] {
            var s = try XCTUnwrap(MapScroll(viewWidth: 300, viewHeight: 200, mapWidth: 700, mapHeight: 500,
                                            pictureWidth: 420, pictureHeight: 320, margin: 60))
            let picture = OwnedPixelBuffer(width: 420, height: 320, format: format)
            let canvas = OwnedPixelBuffer(width: 300, height: 200, format: format)
            var origin = (x: 0, y: 0), redraws = 0
            for (x, y) in [(100, 100), (130, 70), (161, 161), (222, 40), (400, 300), (-5, 10)] {
                let w: (x: Int, y: Int)
                switch s.step(offsetX: x, offsetY: y) {
                case .move(let wx, let wy): w = (wx, wy)
                case .redraw(let ox, let oy, let wx, let wy):
                    s.draw(map.buffer, originX: ox, originY: oy, into: picture.buffer)
                    origin = (ox, oy)
                    redraws += 1
                    w = (wx, wy)
                }
                XCTAssertTrue(w.x >= 0 && w.y >= 0 && w.x + 300 <= 420 && w.y + 200 <= 320, "\(format) (\(x), \(y)): window \(w)")
                renderer.scrollBackground(toX: x, y: y)
                renderer.render(nil, centerX: 0, centerY: 0)
                renderer.copyOut(renderer.bounds, to: canvas.buffer)
                XCTAssertEqual(origin.x + w.x, renderer.backgroundOrigin.x)
                XCTAssertEqual(origin.y + w.y, renderer.backgroundOrigin.y)
                let bpp = format.bytesPerPixel
                for row in 0..<200 {
                    let a = UnsafeRawBufferPointer(start: picture.buffer.row(w.y + row) + w.x * bpp, count: 300 * bpp)
                    let b = UnsafeRawBufferPointer(start: canvas.buffer.row(row), count: 300 * bpp)
                    if !a.elementsEqual(b) { return XCTFail("\(format) view (\(x), \(y)): row \(row) differs") }
                }
            }
            XCTAssertEqual(redraws, 5, "\(format): every view but (130, 70) is beyond the picture before it")
        }
    }

    func testAMapWithoutEdgesCentresEveryPictureOnTheViewWhereverItIs() throws {
        var s = try XCTUnwrap(MapScroll(viewWidth: 300, viewHeight: 200, pictureWidth: 400, pictureHeight: 300, margin: 50))
        XCTAssertFalse(s.clamps)
        XCTAssertEqual([s.usedWidth, s.usedHeight], [400, 300])
        XCTAssertEqual(s.step(offsetX: -40, offsetY: -9), .redraw(originX: -90, originY: -59, windowX: 50, windowY: 50),
                       "past the map's top-left: not clamped")
        XCTAssertEqual(s.step(offsetX: -90, offsetY: -59), .move(x: 0, y: 0))
        XCTAssertEqual(s.step(offsetX: 10, offsetY: 41), .move(x: 100, y: 100))
        XCTAssertEqual(s.step(offsetX: 11, offsetY: 41), .redraw(originX: -39, originY: -9, windowX: 50, windowY: 50))
        XCTAssertEqual(s.step(offsetX: 1_000_000, offsetY: 2_000_000),
                       .redraw(originX: 999_950, originY: 1_999_950, windowX: 50, windowY: 50), "nowhere near any edge")
        s.forget()
        XCTAssertEqual(s.step(offsetX: 1_000_010, offsetY: 2_000_000),
                       .redraw(originX: 999_960, originY: 1_999_950, windowX: 50, windowY: 50))
        let tall = try XCTUnwrap(MapScroll(viewWidth: 300, viewHeight: 200, pictureWidth: 300, pictureHeight: 260, margin: 50))
        XCTAssertEqual([tall.usedWidth, tall.usedHeight], [300, 260], "no more than the picture")
        XCTAssertNil(MapScroll(viewWidth: 300, viewHeight: 200, pictureWidth: 300, pictureHeight: 200, margin: 50),
                     "a picture the size of the view cannot scroll")
        XCTAssertNil(MapScroll(viewWidth: 300, viewHeight: 200, pictureWidth: 299, pictureHeight: 400, margin: 50))
    }
}
