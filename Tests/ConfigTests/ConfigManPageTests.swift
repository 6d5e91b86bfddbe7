@testable import Config
import XCTest

/// pulsedot.conf(5) from the settings table, and the roff escaping both pages are written with.
final class ConfigManPageTests: XCTestCase {
    func testRoffEscaping() {
        XCTAssertEqual(Roff.text("--set a-b"), "\\-\\-set a\\-b", "dashes stay dashes")
        XCTAssertEqual(Roff.text("C:\\dir"), "C:\\edir")
        XCTAssertEqual(Roff.text("use `scale` here"), "use \\fBscale\\fR here")
        XCTAssertEqual(Roff.text("try `--set scale=2` now"), "try \\fB\\-\\-set\\ scale=2\\fR now", "code is not broken across lines")
        XCTAssertEqual(Roff.text("an `open span"), "an \\fBopen\\ span\\fR", "a code span never leaks bold into what follows")
        XCTAssertEqual(Roff.text("0 ≤ value < 11 × σ"), "0 \\[u2264] value < 11 \\[u00D7] \\[u03C3]")
        XCTAssertEqual(Roff.text("é"), "\\[u00E9]")
        XCTAssertEqual(Roff.text(".conf files"), "\\&.conf files", "a leading dot is no request")
        XCTAssertEqual(Roff.text("'quoted'"), "\\&'quoted'")
        XCTAssertEqual(Roff.text("two\nlines"), "two lines")
        XCTAssertEqual(Roff.paragraphs("one\ntwo\n\nthree\n"), ".PP\none two\n.PP\nthree\n")
    }

    func testEverySectionAndKeyWithDefaultAllowedAndMeaning() {
        let page = SettingsTable.manPage(version: "9.8.7")
        XCTAssertTrue(page.hasPrefix(".TH PULSEDOT.CONF 5 \"\" \"pulsedot 9.8.7\" \"File Formats\"\n"), page)
        for section in SettingsTable.sections {
            // The section's part of the page: from its heading to the next one.
            guard let start = page.range(of: "\n.SS [\(section)]\n" + Roff.text(SettingsTable.summary(of: section)) + "\n") else {
                XCTFail("no [\(section)]")
                continue
            }
            let rest = page[start.upperBound...]
            let part = rest[..<(rest.range(of: "\n.S")?.lowerBound ?? rest.endIndex)]
            var previous = part.startIndex
            for key in SettingsTable.keys(in: section) {
                let entry = ".TP\n\\fB\(Roff.text(key.name))\\fR = \\fI\(Roff.text(key.defaultText))\\fR\n"
                guard let at = part.range(of: entry) else {
                    XCTFail("\(key.qualifiedName) is not in [\(section)] of the page")
                    continue
                }
                XCTAssertGreaterThanOrEqual(at.lowerBound, previous, "\(key.qualifiedName): keys in the table's order")
                previous = at.upperBound
                let body = part[at.upperBound...].prefix { $0 != "\n" }
                XCTAssertTrue(body.hasSuffix(". Allowed: " + Roff.text(key.allowed) + "."), "\(key.qualifiedName): \(body)")
                XCTAssertTrue(body.lowercased().hasPrefix(Roff.text(key.meaning).lowercased().prefix(20)), "\(key.qualifiedName): \(body)")
            }
            XCTAssertEqual(part.components(separatedBy: "\n.TP\n").count - 1 + (part.hasPrefix(".TP\n") ? 1 : 0),
                           SettingsTable.keys(in: section).count, "[\(section)] lists its keys and no others")
        }
        // No line but a request starts with a dot or a quote, and nothing beyond ASCII is left raw.
        for line in page.split(separator: "\n") {
            if line.hasPrefix("'") { XCTFail("a line starting with a quote: \(line)") }
            if line.hasPrefix("."), !line.hasPrefix(".TH "), !line.hasPrefix(".SH "), !line.hasPrefix(".SS "),
               !["PP", "TP", "nf", "fi", "RS", "RE", "ad l", "nh"].contains(String(line.dropFirst())), !line.hasPrefix(".BR ") {
                XCTFail("an unexpected request: \(line)")
            }
        }
        XCTAssertTrue(page.unicodeScalars.allSatisfy { $0.isASCII })
    }
}
