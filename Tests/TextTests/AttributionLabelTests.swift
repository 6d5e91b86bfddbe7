import XCTest
import Raster
import Text

/// The attribution label rendered with the real DejaVu Sans (fonts-dejavu-core, which
/// deploy/install-deps installs): size, placement, glyphs actually drawn, truncation, font errors.
final class AttributionLabelTests: XCTestCase {
    private let osm = "© OpenStreetMap contributors"
    private var boxPixel: UInt32 { Overlay.premultiplied(AttributionLabel.boxColor) }

    private func label(_ text: String, width: Int = 1280, height: Int = 720, scale: Double = 1) throws -> Overlay {
        try AttributionLabel.make(text: text, canvasWidth: width, canvasHeight: height, scale: scale)
    }

    /// Pixels of the label that are not the bare box: where glyphs were drawn.
    private func inked(_ o: Overlay) -> [(x: Int, y: Int, pixel: UInt32)] {
        var result: [(x: Int, y: Int, pixel: UInt32)] = []
        for y in 0..<o.height { for x in 0..<o.width where o.pixel(x: x, y: y) != boxPixel {
            result.append((x, y, o.pixel(x: x, y: y)))
        } }
        return result
    }

    func testALabelIsABoxWithGlyphsDrawnOnIt() throws {
        let o = try label(osm)
        XCTAssertGreaterThan(o.width, 100)
        XCTAssertGreaterThan(o.height, 10)
        XCTAssertEqual(boxPixel, 0xBFBF_BFBF)
        // The corners are padding: the box colour at 75 %.
        for (x, y) in [(0, 0), (o.width - 1, 0), (0, o.height - 1), (o.width - 1, o.height - 1)] {
            XCTAssertEqual(o.pixel(x: x, y: y), boxPixel, "corner (\(x),\(y))")
        }
        let ink = inked(o)
        XCTAssertGreaterThan(ink.count, o.width * o.height / 10, "too few glyph pixels: \(ink.count)")
        // The glyphs' solid cores are the text colour itself, fully opaque.
        XCTAssertTrue(ink.contains { $0.pixel == 0xFF33_3333 })
        // Every inked pixel is the text colour over the box: darker than the box, grey, no more opaque than opaque.
        for p in ink {
            let a = p.pixel >> 24, r = (p.pixel >> 16) & 0xFF, g = (p.pixel >> 8) & 0xFF, b = p.pixel & 0xFF
            XCTAssertTrue(r == g && g == b && a >= 191 && r < 191, "pixel \(String(p.pixel, radix: 16)) at (\(p.x),\(p.y))")
        }
        // Ink stays inside the padding: nothing on the box's outer columns and rows.
        XCTAssertFalse(ink.contains { $0.x == 0 || $0.x == o.width - 1 || $0.y == 0 || $0.y == o.height - 1 })
    }

    func testTheBoxGrowsWithTheText() throws {
        let short = try label("OSM"), long = try label(osm)
        XCTAssertGreaterThan(long.width, short.width + 80)
        XCTAssertEqual(long.height, short.height)
        XCTAssertGreaterThan(inked(long).count, inked(short).count * 3)
    }

    func testTheLabelSitsInTheBottomRightCornerOfTheCanvas() throws {
        let o = try label(osm, width: 800, height: 480)
        XCTAssertEqual(o.frame.maxX, 800)
        XCTAssertEqual(o.frame.maxY, 480)
        XCTAssertEqual(o.frame.intersection(Rect(x: 0, y: 0, width: 800, height: 480)), o.frame)

        let canvas = OwnedPixelBuffer(width: 800, height: 480, format: .xrgb8888)
        canvas.buffer.fill(canvas.buffer.bounds, with: Color(r: 0, g: 0, b: 0))
        XCTAssertEqual(o.draw(into: canvas.buffer, clip: canvas.buffer.bounds), o.frame)
        // White at 75 % over black, in the corner; the map is untouched left of and above the box.
        XCTAssertEqual(canvas.buffer.pixel(x: 799, y: 479), 0xFFBF_BFBF)
        XCTAssertEqual(canvas.buffer.pixel(x: o.x - 1, y: 479), 0xFF00_0000)
        XCTAssertEqual(canvas.buffer.pixel(x: 799, y: o.y - 1), 0xFF00_0000)
        XCTAssertEqual(canvas.buffer.pixel(x: o.x, y: o.y), 0xFFBF_BFBF)
    }

    func testTextScalesWithPixelsPerPoint() throws {
        let one = try label(osm, scale: 1), two = try label(osm, width: 1920, height: 1080, scale: 2)
        XCTAssertEqual(Double(two.height) / Double(one.height), 2, accuracy: 0.15)
        XCTAssertEqual(Double(two.width) / Double(one.width), 2, accuracy: 0.15)
        // 11 pt at scale 1 is an 11 px em: the line is that and a little more.
        let font = try FontFace(path: AttributionLabel.defaultFontPath, pixelHeight: 11)
        XCTAssertEqual(one.height, font.lineHeight + 2)
        XCTAssertTrue((11...16).contains(font.lineHeight), "line height \(font.lineHeight)")
    }

    func testTextWiderThanTheCanvasIsCutWithAnEllipsis() throws {
        let long = "© OpenMapTiles © OpenStreetMap contributors, imagery from a very long list of providers"
        let full = try label(long)
        let o = try label(long, width: 200, height: 100)
        XCTAssertLessThan(full.width, 1280)
        XCTAssertLessThanOrEqual(o.width, 200)
        XCTAssertGreaterThan(o.width, 150, "the cut text should fill most of the canvas")
        XCTAssertEqual(o.frame.maxX, 200)

        let font = try FontFace(path: AttributionLabel.defaultFontPath, pixelHeight: 11)
        let shown = try XCTUnwrap(try AttributionLabel.fitted(long, font: font, maxWidth: 192))
        XCTAssertTrue(shown.hasSuffix("…"))
        let start = String(shown.dropLast())
        XCTAssertTrue(long.hasPrefix(start))
        XCTAssertFalse(start.hasSuffix(" "))
        XCTAssertLessThanOrEqual(try font.width(of: shown), 192)
        // One more word character would not have fitted (a space alone would have been dropped again).
        var next = start.count + 1
        while long.prefix(next).last == " " { next += 1 }
        let longer = String(long.prefix(next)) + "…"
        XCTAssertGreaterThan(try font.width(of: longer), 192)
        XCTAssertEqual(o.width, try font.width(of: shown) + 8)
        // The ellipsis was drawn: ink right up to the right-hand padding.
        XCTAssertTrue(inked(o).contains { $0.x >= o.width - 4 - 3 })

        // Text that fits is left whole; a canvas too narrow for even "…" gets no label.
        XCTAssertEqual(try AttributionLabel.fitted("OSM", font: font, maxWidth: 192), "OSM")
        XCTAssertNil(try AttributionLabel.fitted(long, font: font, maxWidth: 3))
        XCTAssertEqual(try label(long, width: 10, height: 100).frame.area, 0)
        XCTAssertEqual(try label("", width: 800, height: 480).frame.area, 0)
    }

    func testKerningAndDrawingFollowTheMeasuredWidth() throws {
        let font = try FontFace(path: AttributionLabel.defaultFontPath, pixelHeight: 22)
        XCTAssertLessThan(try font.width(of: "AV"), try font.width(of: "A") + font.width(of: "V"))
        let o = Overlay(width: 200, height: 40)
        XCTAssertEqual(try font.draw("AVA", into: o, x: 5, baseline: 30, color: .black), try font.width(of: "AVA"))
        XCTAssertEqual(try font.width(of: ""), 0)
    }

    func testAMissingFontFileIsNamedInOneLine() throws {
        let path = "/nonexistent/fonts/NoSuchFont.ttf"
        XCTAssertThrowsError(try AttributionLabel.make(text: osm, fontPath: path, canvasWidth: 800, canvasHeight: 480)) { error in
            let message = String(describing: error)
            XCTAssertEqual(message, "font /nonexistent/fonts/NoSuchFont.ttf: cannot open it: FreeType: cannot open resource (no such file, or not readable)")
        }
        // A file that is no font: FreeType's own words for it.
        XCTAssertThrowsError(try FontFace(path: #filePath, pixelHeight: 11)) { error in
            let message = String(describing: error)
            XCTAssertTrue(message.hasPrefix("font \(#filePath): cannot open it: FreeType: "), message)
            XCTAssertTrue(message.contains("unknown file format"), message)
            XCTAssertFalse(message.contains("\n"))
        }
    }
}
