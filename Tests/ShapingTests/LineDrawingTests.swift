import Foundation
import Raster
import Shaping
import XCTest

/// Shaped lines drawn into overlays: sizes from the advances, ink where the glyphs are, right to
/// left from the right, "…" when too wide; fonts found, mapped and not read.
final class LineDrawingTests: XCTestCase {
    var catalog: FontCatalog { get throws { try XCTUnwrap(HBShapeTests.fonts) } }

    /// Columns of `o` with any ink (alpha above zero).
    func inkedColumns(_ o: Overlay) -> [Bool] {
        (0..<o.width).map { x in (0..<o.height).contains { y in o.pixel(x: x, y: y) >> 24 != 0 } }
    }

    func testALatinLineIsAsWideAsItsAdvancesWithInkUnderEachGlyph() throws {
        let text = "Kraków Główny"
        let set = try FontSet(catalog: catalog, pixelHeight: HBShapeTests.pixels)
        let line = set.shape(text, language: "pl")
        XCTAssertEqual(line.runs.count, 1)
        let reference = try HBShapeTests.reference(line, line.runs[0], font: catalog.fonts[0], language: "pl")
        let advance = reference.reduce(0) { $0 + $1["ax"]! }
        let o = try set.overlay(text, color: .white, language: "pl")
        XCTAssertEqual(o.width, (advance + 32) >> 6)
        XCTAssertEqual(o.height, line.ascender + line.descender)
        XCTAssertLessThanOrEqual(o.height, set.lineHeight)
        let ink = inkedColumns(o)
        var pen = 0
        for (glyph, g) in zip(reference, line.runs[0].glyphs) {
            let from = (pen + 32) >> 6, to = (pen + glyph["ax"]! + 32) >> 6
            if Array(text.utf8)[g.cluster] == 0x20 {
                // Neighbours may overhang a space by a pixel; its middle stays blank.
                XCTAssertFalse(ink[(from + 2)..<(to - 2)].contains(true), "ink in the space at columns \(from)..<\(to)")
            } else {
                XCTAssertTrue(ink[from..<to].contains(true), "no ink for the glyph at byte \(g.cluster), columns \(from)..<\(to)")
            }
            pen += glyph["ax"]!
        }
        // White text on nothing: premultiplied, so each pixel is its alpha in every channel.
        for y in 0..<o.height { for x in 0..<o.width {
            let p = o.pixel(x: x, y: y), a = p >> 24
            XCTAssertEqual(p, a << 24 | a << 16 | a << 8 | a)
        } }
    }

    func testAnArabicLineStartsOnTheRight() throws {
        let text = "محطة الجامعة"
        let set = try FontSet(catalog: catalog, pixelHeight: 32)
        let line = set.shape(text, language: "ar")
        let o = try set.overlay(text, color: .white, language: "ar")
        let ink = inkedColumns(o)
        // The first letter (byte 0) is the last glyph drawn, at the right end; the last letter's
        // glyph comes first, on the left.
        let glyphs = line.runs.flatMap(\.glyphs)
        XCTAssertEqual(glyphs.last?.cluster, 0)
        let firstLetter = glyphs.last!
        let start = Int((line.advance - Int64(firstLetter.xAdvance) + 32) >> 6)
        XCTAssertTrue(ink[start...].contains(true))
        XCTAssertGreaterThan(start, o.width * 3 / 4)
        XCTAssertTrue(ink[(o.width - 4)...].contains(true), "no ink at the right end")
    }

    func testALineTooWideEndsInAnEllipsisInItsReadingDirection() throws {
        let set = try FontSet(catalog: catalog, pixelHeight: 20)
        let latin = try XCTUnwrap(set.fitted("Dworzec Główny Zachodni, peron 4, stanowisko 12", maxWidth: 150, language: "pl"))
        XCTAssertLessThanOrEqual(latin.width, 150)
        XCTAssertGreaterThan(latin.width, 100)
        XCTAssertTrue(latin.text.hasSuffix(FontSet.ellipsis))
        XCTAssertFalse(latin.text.dropLast().hasSuffix(" "))
        let arabic = try XCTUnwrap(set.fitted("محطة الجامعة الأردنية الرئيسية الشمالية", maxWidth: 120, language: "ar"))
        XCTAssertLessThanOrEqual(arabic.width, 120)
        XCTAssertTrue(arabic.text.hasSuffix(FontSet.ellipsis))
        // The ellipsis ends the Arabic, so it is drawn at the left end.
        let ellipsisByte = arabic.text.utf8.count - FontSet.ellipsis.utf8.count
        XCTAssertEqual(arabic.runs.first?.glyphs.first?.cluster, ellipsisByte)
        XCTAssertNil(set.fitted("Kraków", maxWidth: 3))
        XCTAssertEqual(set.fitted("Kraków", maxWidth: 500)?.text, "Kraków")
    }

    func testFontsComeFromFontconfigMappedNotRead() throws {
        let catalog = try self.catalog
        XCTAssertEqual(catalog.fonts.map(\.family), FontCatalog.defaultFamilies)
        XCTAssertEqual(catalog.missing, [])
        let cjk = try XCTUnwrap(catalog.fonts.first { $0.family == "Noto Sans CJK JP" })
        XCTAssertTrue(catalog.fonts.last?.path.hasSuffix("DejaVuSans.ttf") ?? false, "DejaVu Sans, the package's own, last")
        XCTAssertTrue(cjk.path.hasSuffix("NotoSansCJK-Regular.ttc"), cjk.path)
        let set = try FontSet(catalog: catalog, pixelHeight: 40)
        _ = try set.overlay("新宿駅西口バスターミナル 北京西站", color: .white, language: "ja")
        // The collection is one mapping of the whole file, of which only the pages read are resident.
        // Foundation reads a /proc file only up to the size stat gives (a page); a handle reads it all.
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        let smaps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self).components(separatedBy: "\n")
        let start = try XCTUnwrap(smaps.firstIndex { $0.hasSuffix(cjk.path) }, "\(cjk.path) is not mapped")
        func kilobytes(_ key: String) -> Int? {
            smaps[(start + 1)...].first { $0.hasPrefix(key + ":") }.flatMap { Int($0.split(separator: " ")[1]) }
        }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: cjk.path)[.size] as? Int)
        XCTAssertEqual(try XCTUnwrap(kilobytes("Size")), (size + 4095) / 4096 * 4)
        let resident = try XCTUnwrap(kilobytes("Rss"))
        print("\(cjk.path): \(resident) kB of \(size / 1024) kB resident after drawing a Japanese and Chinese line")
        XCTAssertLessThan(resident, size / 1024 / 4, "\(resident) kB of a \(size / 1024) kB font resident")
    }

    func testAMissingFamilyIsLeftOutAndNamed() throws {
        let catalog = try FontCatalog(families: ["No Such Family", "Noto Sans Hebrew"])
        XCTAssertEqual(catalog.missing, ["No Such Family"])
        XCTAssertEqual(catalog.fonts.map(\.family), ["Noto Sans Hebrew"])
        XCTAssertThrowsError(try FontCatalog(families: ["No Such Family"])) { error in
            XCTAssertEqual("\(error)", "fonts: none of the families No Such Family is installed (fc-list shows what is)")
        }
    }
}
