import Foundation
import Raster
import Shaping
import TestSupport
import XCTest

/// Shaping per run against HarfBuzz's own `hb-shape` (libharfbuzz-bin) with every option pinned,
/// on the Noto fonts fontconfig finds (fonts-noto-core, fonts-noto-cjk): the same glyphs,
/// clusters, advances and offsets, for stop names in each script the banner must show.
final class HBShapeTests: XCTestCase {
    static let pixels = 24
    /// Opened once for the class: fontconfig's scan and the mappings are what every test shares.
    nonisolated(unsafe) static let fonts: FontCatalog? = try? FontCatalog()
    var catalog: FontCatalog { get throws { try XCTUnwrap(Self.fonts, "the Noto fonts (deploy/install-deps --test)") } }

    /// hb-shape's JSON for `run`, with the rest of the line as context as the shaper had it.
    static func reference(_ line: ShapedLine, _ run: ShapedRun, font: CatalogFont, language: String) throws -> [[String: Int]] {
        let bytes = Array(line.text.utf8)
        func text(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }
        let args = ["--font-size=\(pixels * 64)", "--no-glyph-names", "--utf8-clusters", "--language=\(language)",
                    "--direction=\(run.isRightToLeft ? "rtl" : "ltr")", "--face-index=\(font.faceIndex)", "-O", "json",
                    "--text-before=" + text(0..<run.utf8Start), "--text-after=" + text(run.utf8End..<bytes.count),
                    "--text=" + text(run.utf8Start..<run.utf8End), font.path]
        let result = try runProgram("/usr/bin/hb-shape", args)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        return try XCTUnwrap(json).map { glyph in glyph.compactMapValues { $0 as? Int } }
    }

    /// Shapes `text` and checks every run against hb-shape; returns the line for further checks.
    @discardableResult
    func check(_ text: String, language: String, fonts expected: Set<String>) throws -> ShapedLine {
        let catalog = try self.catalog
        let set = try FontSet(catalog: catalog, pixelHeight: Self.pixels)
        let line = set.shape(text, language: language)
        XCTAssertFalse(line.runs.isEmpty)
        XCTAssertEqual(Set(line.runs.map { catalog.fonts[$0.font].family }), expected, text)
        for run in line.runs {
            let font = catalog.fonts[run.font]
            let reference = try Self.reference(line, run, font: font, language: language)
            XCTAssertEqual(run.glyphs.count, reference.count, "\(text): glyph count of run at byte \(run.utf8Start)")
            for (mine, theirs) in zip(run.glyphs, reference) {
                XCTAssertEqual(Int(mine.glyph), theirs["g"], text)
                XCTAssertEqual(mine.cluster, theirs["cl"].map { $0 + run.utf8Start }, text)
                XCTAssertEqual(Int(mine.xAdvance), theirs["ax"], text)
                XCTAssertEqual(Int(mine.yAdvance), theirs["ay"], text)
                XCTAssertEqual(Int(mine.xOffset), theirs["dx"], text)
                XCTAssertEqual(Int(mine.yOffset), theirs["dy"], text)
            }
        }
        return line
    }

    /// How many glyphs differ from the font's plain character-to-glyph mapping: zero for a shaper
    /// that only looked characters up.
    func shapedGlyphs(_ line: ShapedLine, fonts set: FontSet) -> Int {
        let bytes = Array(line.text.utf8)
        var differing = 0
        for run in line.runs {
            if run.glyphs.count != String(decoding: bytes[run.utf8Start..<run.utf8End], as: UTF8.self).unicodeScalars.count {
                differing += 1
            }
            for g in run.glyphs {
                let scalar = String(decoding: bytes[g.cluster...], as: UTF8.self).unicodeScalars.first!.value
                if g.glyph != set.nominalGlyph(scalar, font: run.font) { differing += 1 }
            }
        }
        return differing
    }

    func testArabicJoinsItsLetters() throws {
        let line = try check("محطة الجامعة الأردنية", language: "ar", fonts: ["Noto Sans Arabic"])
        XCTAssertTrue(line.paragraphIsRightToLeft)
        XCTAssertTrue(line.runs.allSatisfy { $0.isRightToLeft })
        // Right to left: the first glyph on the left shows the last letter.
        XCTAssertGreaterThan(line.runs[0].glyphs[0].cluster, line.runs[0].glyphs.last!.cluster)
        XCTAssertGreaterThan(shapedGlyphs(line, fonts: try FontSet(catalog: catalog, pixelHeight: Self.pixels)), 5)
    }

    func testHebrew() throws {
        let line = try check("תחנה מרכזית ירושלים", language: "he", fonts: ["Noto Sans Hebrew"])
        XCTAssertTrue(line.paragraphIsRightToLeft)
    }

    func testDevanagariReordersAndConjoins() throws {
        let line = try check("नई दिल्ली रेलवे स्टेशन", language: "hi", fonts: ["Noto Sans Devanagari"])
        XCTAssertGreaterThan(shapedGlyphs(line, fonts: try FontSet(catalog: catalog, pixelHeight: Self.pixels)), 3)
    }

    func testThai() throws {
        try check("สถานีกลางกรุงเทพอภิวัฒน์", language: "th", fonts: ["Noto Sans Thai"])
    }

    func testJapaneseInTheCJKCollection() throws {
        let line = try check("新宿駅西口バスターミナル", language: "ja", fonts: ["Noto Sans CJK JP"])
        XCTAssertTrue(try catalog.fonts[line.runs[0].font].path.hasSuffix(".ttc"))
    }

    func testChinese() throws {
        try check("北京西站南广场", language: "zh-cn", fonts: ["Noto Sans CJK JP"])
    }

    func testPolishAndGermanDiacritics() throws {
        try check("Kraków Główny – Łódź Źródła, Żółć", language: "pl", fonts: ["Noto Sans"])
        try check("Münchner Freiheit, Straßenbahn", language: "de", fonts: ["Noto Sans"])
    }

    func testAMixedLineIsCutIntoRunsOfEachScriptAndFont() throws {
        // Noto Sans has no arrows: of the default list only the CJK font has "→".
        let line = try check("Linie 7 → شارع الملك فهد 15 ירושלים", language: "ar",
                             fonts: ["Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans CJK JP"])
        XCTAssertFalse(line.paragraphIsRightToLeft)
        XCTAssertGreaterThanOrEqual(line.runs.count, 4)
    }
}
