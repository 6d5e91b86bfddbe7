import Foundation
import TestSupport
import Transit
import XCTest

/// The TZif reader against the C library's own reading of the same files: every transition
/// zdump lists (the offset a second before and at it), local times turned into instants as GNU
/// date does, and a slim file (no transitions at all, only the footer's rule) built by zic.
final class TimeZoneRulesTests: XCTestCase {
    /// zdump -v lines: `Zone  Sun Mar 31 00:59:59 2024 UT = ... gmtoff=3600` → (UTC instant, offset).
    static func zdump(_ zone: String, from: Int, to: Int) throws -> [(instant: Int64, offset: Int)] {
        let out = try runProgram("/usr/bin/zdump", ["-v", "-c", "\(from),\(to)", zone]).stdout
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.timeZone = TimeZone(identifier: "UTC")
        parser.dateFormat = "EEE MMM d HH:mm:ss yyyy"
        var result: [(Int64, Int)] = []
        for line in out.split(separator: "\n") where line.contains(" UT = ") {
            let head = line.components(separatedBy: " UT = ")[0]
            let text = head.dropFirst(zone.count).trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            let date = try XCTUnwrap(parser.date(from: text), "zdump's date '\(text)'")
            let offset = try XCTUnwrap(line.components(separatedBy: "gmtoff=").last.flatMap { Int($0) })
            result.append((Int64(date.timeIntervalSince1970), offset))
        }
        return result
    }

    func check(_ rules: TimeZoneRules, _ zone: String, from: Int, to: Int, expectedTransitions: Int) throws {
        let expected = try Self.zdump(zone, from: from, to: to)
        XCTAssertEqual(expected.count, expectedTransitions * 2, "zdump's output for \(zone) \(from)-\(to)")
        for (instant, offset) in expected {
            XCTAssertEqual(rules.offset(at: instant), offset, "\(zone) at \(instant)")
        }
    }

    func testBerlinAroundDaylightSavingAgreesWithZdump() throws {
        let berlin = try TimeZoneRules.load("Europe/Berlin")
        // Within the file's transitions, and past 2037 where only its footer rule knows.
        try check(berlin, "Europe/Berlin", from: 2024, to: 2027, expectedTransitions: 6)
        try check(berlin, "Europe/Berlin", from: 2040, to: 2042, expectedTransitions: 4)
        try check(berlin, "Europe/Berlin", from: 1945, to: 1950, expectedTransitions: 14)
    }

    func testFortalezaAgreesWithZdump() throws {
        let fortaleza = try TimeZoneRules.load("America/Fortaleza")
        // Daylight saving 1999-2002 (twice in 2000), none since.
        try check(fortaleza, "America/Fortaleza", from: 1999, to: 2003, expectedTransitions: 6)
        XCTAssertEqual(try Self.zdump("America/Fortaleza", from: 2003, to: 2030).count, 0)
        XCTAssertEqual(fortaleza.offset(at: 1_560_500_000), -10800)
        XCTAssertEqual(fortaleza.offset(at: 2_500_000_000), -10800)
    }

    /// Local noon and the service day's origin ("noon minus 12 h") as GNU date computes them, on
    /// the days the clocks change (origin an hour off midnight) and a plain day.
    func testServiceDayOriginsAgreeWithDate() throws {
        for (zone, days) in [("Europe/Berlin", [20_250_330, 20_251_026, 20_250_615]), ("America/Fortaleza", [20_190_701, 20_001_008])] {
            let rules = try TimeZoneRules.load(zone)
            for day in days {
                let text = "\(day / 10000)-\(day / 100 % 100)-\(day % 100) 12:00:00"
                let noon = try runProgram("/usr/bin/date", ["-d", text, "+%s"], environment: ["TZ": zone]).stdout
                let expected = try XCTUnwrap(Int64(noon.trimmingCharacters(in: .whitespacesAndNewlines))) - 43200
                XCTAssertEqual(rules.serviceDayOrigin(day), expected, "\(zone) \(day)")
                XCTAssertEqual(rules.date(at: expected + 43200), day)
            }
        }
        // On the spring day in Berlin the origin is 23:00 the evening before: 01:00 is 3600 s in.
        let berlin = try TimeZoneRules.load("Europe/Berlin")
        let midnight = try runProgram("/usr/bin/date", ["-d", "2025-03-30 00:00:00", "+%s"], environment: ["TZ": "Europe/Berlin"]).stdout
        XCTAssertEqual(try XCTUnwrap(Int64(midnight.trimmingCharacters(in: .whitespacesAndNewlines))) - berlin.serviceDayOrigin(20_250_330), 3600)
    }

    /// A zone file with no transitions, only a footer (zic -b slim with a rule from 1970 on):
    /// every offset comes from the POSIX rule, and agrees with zdump reading the same file.
    func testASlimFileIsReadByItsFooter() throws {
        let directory = try TestEnvironment.temporaryDirectory("tzif")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("zones")
        try Data("""
            Rule Test 1970 max - Mar lastSun 1:00u 1:00 S
            Rule Test 1970 max - Oct lastSun 1:00u 0 -
            Zone Test/South 1:00 Test CE%sT
            Zone Test/Fixed -3:00 - -03

            """.utf8).write(to: source)
        let compiled = try runProgram("/usr/sbin/zic", ["-b", "slim", "-d", directory.path, source.path])
        XCTAssertEqual(compiled.status, 0, compiled.stderr)
        let south = try TimeZoneRules.load("Test/South", directory: directory.path)
        let path = directory.appendingPathComponent("Test/South").path
        try check(south, path, from: 2030, to: 2033, expectedTransitions: 6)
        let fixed = try TimeZoneRules.load("Test/Fixed", directory: directory.path)
        XCTAssertEqual(fixed.offset(at: 0), -10800)
        XCTAssertEqual(fixed.offset(at: 4_000_000_000), -10800)
    }

    func testBadZonesAreSaidInOneLine() throws {
        XCTAssertThrowsError(try TimeZoneRules.load("../etc/passwd")) { error in
            XCTAssertEqual("\(error)", "time zone '../etc/passwd' (agency_timezone): not a zone name like Europe/Berlin")
        }
        XCTAssertThrowsError(try TimeZoneRules.load("Mars/Olympus")) { error in
            XCTAssertEqual("\(error)", "time zone 'Mars/Olympus' (agency_timezone): open /usr/share/zoneinfo/Mars/Olympus: No such file or directory (errno 2)")
        }
        XCTAssertThrowsError(try TimeZoneRules.parse(Array("TZif2".utf8), name: "X", path: "/x")) { error in
            XCTAssertEqual("\(error)", "time zone 'X' (agency_timezone): /x: not a TZif file (no 'TZif' header)")
        }
    }
}
