@testable import Config
import Foundation
import TestSupport
import XCTest

/// The texts generated from the settings table — check-config's listing and the key reference —
/// and the committed copies that must equal them; the shipped conffile, which must never change.
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

    /// The conffile dpkg owns. Any change to its bytes makes dpkg ask, on every board whose copy
    /// was edited, what to do with it — and an upgrade without a terminal stops there. So it says
    /// where settings go and where the reference is, and never changes: edit a drop-in instead.
    static let shippedFile = """
        # /etc/pulsedot/pulsedot.conf: PulseDot's main configuration file. It sets nothing: PulseDot runs
        # with its defaults until you add drop-ins.
        #
        # Put your settings in drop-ins, not here: files ending in .conf in /etc/pulsedot/pulsedot.conf.d/,
        # read after this file in the order of their names, a later value winning (10-site.conf, then
        # 50-vehicle.conf). The package never changes them, so an upgrade never asks about your settings.
        #
        # Every section and key, its default and what it allows: man pulsedot.conf
        # Ready-made set-ups: /usr/share/pulsedot/examples/
        # Check the result and where each value comes from: pulsedot check-config
        # Apply it: systemctl reload pulsedot

        """

    func testShippedConffileKeepsItsBytesAndMeansTheDefaults() throws {
        let shipped = try read("deploy/package/pulsedot.conf")
        XCTAssertEqual(shipped, Self.shippedFile,
                       "deploy/package/pulsedot.conf changed: dpkg would ask about it on every board that edited it; put the change in the manual page or a drop-in")
        XCTAssertEqual(Array(shipped.utf8).count, 677)
        let c = try Configuration.parse(shipped, file: "/etc/pulsedot/pulsedot.conf")
        XCTAssertTrue(c.settings.origins.isEmpty, "the shipped file sets nothing")
        for key in SettingsTable.keys { XCTAssertEqual(c.settings.value(of: key), key.defaultText, key.qualifiedName) }
        // What it points at exists: the drop-in directory the loader reads and the manual page.
        XCTAssertTrue(shipped.contains(Configuration.dropInDirectory(of: Configuration.defaultPath) + "/"))
        XCTAssertTrue(SettingsTable.manPage(version: "0").hasPrefix(".TH PULSEDOT.CONF 5 "))
        for line in shipped.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 100, String(line)) }
    }

    func testEffectiveTextListsEveryKeyMarksChangesAndReadsBack() throws {
        let c = try Configuration.parse("[dot]\nscale = 2\nannotationColor = #007AFF\n[source]\nposition = 45.5,-73.6\n[log]\nlevel = debug\n",
                                        file: "/etc/pulsedot/site.conf", overrides: ["display.rotation=90"])
        let text = c.effectiveText()
        let all = text.split(separator: "\n").map(String.init)
        // Where each given value comes from, on the line before it.
        func origin(of line: String) -> String? {
            all.firstIndex(of: line).flatMap { $0 > 0 && all[$0 - 1].hasPrefix("# from ") ? all[$0 - 1] : nil }
        }
        XCTAssertEqual(origin(of: "scale = 2"), "# from /etc/pulsedot/site.conf:2")
        XCTAssertEqual(origin(of: "# annotationColor = #007AFF"), "# from /etc/pulsedot/site.conf:3")
        XCTAssertEqual(origin(of: "position = 45.5,-73.6"), "# from /etc/pulsedot/site.conf:5")
        XCTAssertEqual(origin(of: "level = debug"), "# from /etc/pulsedot/site.conf:7")
        XCTAssertEqual(origin(of: "rotation = 90"), "# from --set")
        XCTAssertNil(origin(of: "# colorDotInset = 3"), "a default comes from nowhere")
        XCTAssertEqual(all.filter { $0.hasPrefix("# from ") }.count, 5)
        let lines = all.filter { !$0.hasPrefix("# from ") }
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

}
