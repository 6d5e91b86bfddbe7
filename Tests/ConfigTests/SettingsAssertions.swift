@testable import Config
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

/// Sets every key of fresh settings to the value `s` shows for it (what check-config prints) and
/// asserts each key then shows the same; returns the copy for the caller's own comparisons.
@discardableResult
func assertShownValuesReadBack(_ s: Settings, file: StaticString = #filePath, line: UInt = #line) throws -> Settings {
    var copy = Settings()
    for key in SettingsTable.keys {
        try copy.set(section: key.section, name: key.name, value: s.value(of: key))
    }
    for key in SettingsTable.keys {
        XCTAssertEqual(copy.value(of: key), s.value(of: key), key.qualifiedName, file: file, line: line)
    }
    return copy
}

/// Tests that parse configuration text as if it were read from `file`.
protocol ConfigFileTesting {
    /// The configuration file's path, as the errors name it.
    var file: String { get }
}

extension ConfigFileTesting {
    /// Asserts that `text` (with `overrides`) is refused with exactly `expected`, on one line.
    func assertError(_ text: String, overrides: [String] = [], _ expected: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Configuration.parse(text, file: self.file, overrides: overrides), file: file, line: line) { error in
            XCTAssertEqual("\(error)", expected, file: file, line: line)
            XCTAssertFalse("\(error)".contains("\n"), "one line", file: file, line: line)
        }
    }
}
