@testable import Daemon
import XCTest

/// Settings after `--set`-style assignments, applied in order as the command line applies them.
func settings(_ assignments: String...) throws -> Settings {
    var s = Settings()
    try s.set(all: assignments)
    return s
}

/// Asserts that `assignment` is refused with exactly `expected`, on one line.
func assertSetError(_ assignment: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
    var s = Settings()
    XCTAssertThrowsError(try s.set(assignment), file: file, line: line) { error in
        XCTAssertEqual("\(error)", expected, file: file, line: line)
        XCTAssertFalse("\(error)".contains("\n"), file: file, line: line)
    }
}
