import Systemd
import XCTest

/// Every journal line is one line whatever the text holds: a value from a configuration file, a
/// file name or a server's reply cannot start a second entry, forge a priority, or hide text on a
/// terminal.
final class JournalLineTests: XCTestCase {
    func testControlCharactersCannotForgeOrHideALine() {
        var lines: [String] = []
        let journal = Journal(level: .debug) { lines.append($0) }
        journal.error("transit: tripFile T1\r\n<5>all is well\u{0}\u{1B}[2J")
        XCTAssertEqual(lines, ["<3>transit: tripFile T1\\x0d <5>all is well\\x00\\x1b[2J\n"])
        journal.info("plain text stays as it is: Łódź, 東京")
        XCTAssertEqual(lines.last, "<6>plain text stays as it is: Łódź, 東京\n")
    }
}
