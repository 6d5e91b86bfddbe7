import Foundation
import TestSupport
import XCTest

/// `pulsedot man 8|5`: the manual pages as the binary writes them from its command and settings
/// tables, the committed copies in docs/man/ equal to them, groff's strictest warnings silent,
/// and every command, option and key of the program described.
final class ManPageTests: XCTestCase {
    private static let pages = [("8", "docs/man/pulsedot.8"), ("5", "docs/man/pulsedot.conf.5")]

    private func pulsedot(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), args, timeout: 30)
    }

    private func page(_ section: String) throws -> String {
        let run = try pulsedot(["man", section])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        return run.stdout
    }

    /// The first word of each line under "commands:" in `pulsedot --help`.
    private func listedCommands() throws -> [String] {
        let lines = try pulsedot(["--help"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "commands:") else { throw TestFailure("no commands: in pulsedot --help") }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// How the page spells a literal: roff's minus for every dash.
    private func roff(_ text: String) -> String { text.replacingOccurrences(of: "-", with: "\\-") }

    func testCommittedPagesAreTheBinarys() throws {
        for (section, path) in Self.pages {
            let committed = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent(path), encoding: .utf8)
            XCTAssertEqual(try page(section), committed, "\(path) is out of date: pulsedot man \(section) > \(path)")
        }
        XCTAssertEqual(try pulsedot(["man"]).stdout, try page("8"), "section 8 is the default")
        let bad = try pulsedot(["man", "7"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("pulsedot: man: expected the section, 8 or 5\n"), bad.stderr)
    }

    /// `groff -ww -z -man`: every warning on, no output; a page it warns about is a broken page.
    /// Rendered for a terminal, the page has its sections and no roff left in the text.
    func testPagesAreCleanUnderGroff() throws {
        let dir = try TestEnvironment.temporaryDirectory("man")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (section, path) in Self.pages {
            let file = dir.appendingPathComponent((path as NSString).lastPathComponent)
            try page(section).write(to: file, atomically: true, encoding: .utf8)
            let check = try runProgram("/usr/bin/groff", ["-ww", "-z", "-man", file.path])
            XCTAssertEqual(check.status, 0, "\(path): \(check.stderr)")
            XCTAssertEqual(check.stderr, "", path)
            let text = try runProgram("/usr/bin/groff", ["-ww", "-man", "-Tutf8", "-P-cbou", file.path])
            XCTAssertEqual(text.status, 0, text.stderr)
            XCTAssertEqual(text.stderr, "", path)
            for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "FILES", "SEE ALSO"] {
                XCTAssertTrue(text.stdout.contains("\n\(heading)\n"), "\(path): no \(heading)")
            }
            XCTAssertFalse(text.stdout.contains("\\f") || text.stdout.contains("\\["), "\(path): roff escapes left in the text")
        }
    }

    func testSection8DescribesEveryCommandAndOption() throws {
        let page = try page("8")
        XCTAssertTrue(page.hasPrefix(".TH PULSEDOT 8 \"\" \"pulsedot "), page)
        let commands = try listedCommands()
        XCTAssertTrue(commands.contains("man") && commands.contains("completion"), "\(commands)")
        for name in commands {
            XCTAssertTrue(page.contains("\n.SS \(roff(name))\n"), "\(name) has no subsection")
            let usage = try pulsedot([name, "--help"]).stdout
            let options = usage.split(separator: "\n").filter { $0.hasPrefix("  --") }.map { String($0.dropFirst(4).prefix { $0 != " " }) }
            for option in options {
                XCTAssertTrue(page.contains("\n.TP\n\\fB\(roff("--" + option))\\fR"), "\(name) --\(option) is not in pulsedot(8)")
            }
        }
    }

    func testSection5DescribesEveryKeyWithItsDefault() throws {
        let page = try page("5")
        XCTAssertTrue(page.hasPrefix(".TH PULSEDOT.CONF 5 \"\" \"pulsedot "), page)
        // The keys as the binary's own table lists them: "### `[section]`" then "| `key` | `default` | …".
        let table = try pulsedot(["check-config", "--keys-markdown"]).stdout
        var sections: [String] = [], keys = 0
        for line in table.split(separator: "\n") {
            if line.hasPrefix("### `[") {
                let section = String(line.dropFirst(6).prefix { $0 != "]" })
                sections.append(section)
                XCTAssertTrue(page.contains("\n.SS [\(section)]\n"), section)
            } else if line.hasPrefix("| `"), !line.hasPrefix("| `key`") {
                let cells = line.split(separator: "`")
                let (name, value) = (String(cells[1]), String(cells[3]))
                XCTAssertTrue(page.contains("\n.TP\n\\fB\(roff(name))\\fR = \\fI\(roff(value))\\fR\n"), "\(name) = \(value) is not in pulsedot.conf(5)")
                keys += 1
            }
        }
        XCTAssertEqual(sections, ["dot", "source", "display", "map", "log", "metrics", "transit", "realtime", "kiosk"])
        XCTAssertGreaterThan(keys, 50)
        XCTAssertTrue(page.contains("/etc/pulsedot/pulsedot.conf.d/*.conf"))
    }
}
