@testable import Config
import Foundation
import TestSupport
import XCTest

/// The texts generated from the settings table — check-config's listing, the default configuration
/// file and the key reference — and the committed copies that must equal them.
final class ConfigDocumentTests: XCTestCase {
    private func read(_ relative: String) throws -> String {
        try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The text between `<!-- keys:begin -->` and `<!-- keys:end -->`, or nil without markers.
    private func keyTable(in text: String) -> String? {
        guard let begin = text.range(of: "<!-- keys:begin -->\n"), let end = text.range(of: "<!-- keys:end -->"),
              begin.upperBound <= end.lowerBound else { return nil }
        return String(text[begin.upperBound..<end.lowerBound])
    }

    func testKeyReferenceEqualsTheTable() throws {
        let generated = SettingsTable.markdownDocument()
        var checked: [String] = []
        for doc in ["README.md", "docs/configuration.md"] {
            guard let text = try? read(doc), let table = keyTable(in: text) else { continue }
            XCTAssertEqual(table, generated, "\(doc) is out of date: paste `pulsedot check-config --keys-markdown` between its keys markers")
            checked.append(doc)
        }
        XCTAssertFalse(checked.isEmpty, "no document holds the key table between <!-- keys:begin --> and <!-- keys:end -->")
    }

    func testKeyReferenceCoversEveryKey() {
        let md = SettingsTable.markdownDocument()
        for section in SettingsTable.sections { XCTAssertTrue(md.contains("### `[\(section)]`\n"), section) }
        for key in SettingsTable.keys {
            XCTAssertTrue(md.contains("| `\(key.name)` | `\(key.defaultText)` |"), key.qualifiedName)
        }
        XCTAssertTrue(md.contains("| `output` | `auto` | auto, kms, fbdev, png:DIR, none |"))
        for line in md.split(separator: "\n") where line.hasPrefix("|") {
            // Five unescaped bars: four cells.
            let bars = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
            XCTAssertEqual(bars, 5, String(line))
        }
    }

    func testDeployedDefaultFileIsGeneratedAndParsesToTheDefaults() throws {
        let shipped = try read("deploy/pulsedot.conf")
        XCTAssertEqual(shipped, SettingsTable.defaultConfigurationFile(),
                       "regenerate: pulsedot check-config --default-file > deploy/pulsedot.conf")
        let c = try Configuration.parse(shipped, file: "/etc/pulsedot/pulsedot.conf")
        XCTAssertTrue(c.settings.origins.isEmpty, "every key is commented out")
        for key in SettingsTable.keys {
            XCTAssertEqual(c.settings.value(of: key), key.defaultText, key.qualifiedName)
            XCTAssertTrue(shipped.contains("\n# \(key.name) = \(key.defaultText)\n"), key.qualifiedName)
        }
        // Uncommented, it is still valid and still the defaults.
        let uncommented = shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            SettingsTable.keys.contains { line.hasPrefix("# \($0.name) = ") } ? String(line.dropFirst(2)) : String(line)
        }.joined(separator: "\n")
        let u = try Configuration.parse(uncommented, file: "/etc/pulsedot/pulsedot.conf")
        XCTAssertEqual(u.settings.origins.count, SettingsTable.keys.count)
        for key in SettingsTable.keys { XCTAssertEqual(u.settings.value(of: key), key.defaultText, key.qualifiedName) }
        for line in shipped.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 100, String(line)) }
    }

    func testEffectiveTextListsEveryKeyMarksChangesAndReadsBack() throws {
        let c = try Configuration.parse("[dot]\nscale = 2\nannotationColor = #007AFF\n[source]\nposition = 45.5,-73.6\n[log]\nlevel = debug\n",
                                        file: "/etc/pulsedot/site.conf", overrides: ["display.rotation=90"])
        let text = c.effectiveText()
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "# Effective configuration (/etc/pulsedot/site.conf with 1 --set override): valid.")
        XCTAssertEqual(lines[1], "# 4 keys differ from the defaults; keys at their default are commented out.")
        XCTAssertEqual(lines.filter { $0.hasPrefix("[") }, SettingsTable.sections.map { "[\($0)]" })
        // Each section's lines hold each of its keys once, with its value.
        for section in SettingsTable.sections {
            let start = lines.firstIndex(of: "[\(section)]")!
            let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("[") } ?? lines.endIndex
            let body = lines[(start + 1)..<end]
            XCTAssertEqual(body.count, SettingsTable.keys(in: section).count, section)
            for key in SettingsTable.keys(in: section) {
                let line = "\(key.name) = \(c.settings.value(of: key))"
                XCTAssertEqual(body.filter { $0 == line || $0 == "# " + line }.count, 1, key.qualifiedName)
            }
        }
        XCTAssertTrue(lines.contains("scale = 2"))
        XCTAssertTrue(lines.contains("# annotationColor = #007AFF"), "set to its default: shown as a default")
        XCTAssertTrue(lines.contains("position = 45.5,-73.6"))
        XCTAssertTrue(lines.contains("# gpsd = 127.0.0.1:2947"))
        XCTAssertTrue(lines.contains("rotation = 90"))
        XCTAssertTrue(lines.contains("level = debug"))
        // Keys follow their section's header.
        let rotation = lines.firstIndex(of: "rotation = 90")!, display = lines.firstIndex(of: "[display]")!, map = lines.firstIndex(of: "[map]")!
        XCTAssertTrue(display < rotation && rotation < map)

        let again = try Configuration.parse(text, file: "/etc/pulsedot/copy.conf")
        for key in SettingsTable.keys { XCTAssertEqual(again.settings.value(of: key), c.settings.value(of: key), key.qualifiedName) }
    }

    func testEffectiveTextOfTheDefaults() {
        let c = Configuration(settings: Settings(), file: nil, overrides: 0, notes: [])
        let text = c.effectiveText()
        XCTAssertTrue(text.hasPrefix("# Effective configuration (no file, defaults): valid.\n# 0 keys differ from the defaults"))
        XCTAssertEqual(text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("[") }.count, 0)
    }

    func testWrapComment() {
        XCTAssertEqual(SettingsTable.wrapComment("one two three", width: 9), "# one two\n# three\n")
        XCTAssertEqual(SettingsTable.wrapComment("a", width: 9), "# a\n")
    }
}
