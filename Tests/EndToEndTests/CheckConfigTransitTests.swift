import Foundation
import TestSupport
import XCTest

/// `pulsedot check-config` with `[transit]` set: after the configuration, the feed and the trip as
/// the daemon takes them, in the words `pulsedot transit info` uses, as comments. check-config
/// never imports the feed (the unit's ExecReload runs it; an import is the daemon's to run): it
/// finds the daemon's index by the feed's hash, or says it is not built yet.
final class CheckConfigTransitTests: XCTestCase {
    private func pulsedot(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), args, timeout: 120)
    }

    private func transitLines(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("# transit: ") }
            .map { String($0.dropFirst("# transit: ".count)) }
    }

    func testTheFortalezaFeedAndTrip() throws {
        let dir = try TestEnvironment.temporaryDirectory("check-config-transit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let trip = "D804-T01V01B01-I"
        let conf = dir.appendingPathComponent("bus.conf").path
        let cache = dir.appendingPathComponent("idx").path
        try "[transit]\ngtfs = \(TransitImportTests.feed)\ntrip = \(trip)\ncache = idx\n".write(toFile: conf, atomically: true, encoding: .utf8)

        // Before the daemon built the index: said, and nothing written.
        let first = try pulsedot(["check-config", conf])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stderr, "")
        let pending = transitLines(first.stdout)
        XCTAssertEqual(pending.count, 2, first.stdout)
        let index = try XCTUnwrap(pending.first)
        XCTAssertTrue(index.hasPrefix("index: \(cache)/"), index)
        XCTAssertTrue(index.hasSuffix(".sqlite (not built yet: the daemon builds it from the feed as it starts or reloads; `pulsedot transit import \(TransitImportTests.feed) --cache \(cache)` builds it now)"), index)
        XCTAssertEqual(pending.last, "trip: \(trip) (looked up once the index is built)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache), "check-config imports nothing")
        let path = String(index.dropFirst("index: ".count).prefix { $0 != " " })

        // Built as the hint says (the daemon builds the same file, named by the feed's hash).
        let built = try pulsedot(["transit", "import", TransitImportTests.feed, "--cache", cache])
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), built.stderr)

        // The same lines as `transit info` gives for the index and the trip, after its header.
        let again = try pulsedot(["check-config", conf])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "")
        let report = transitLines(again.stdout)
        XCTAssertEqual(report.first, "index: \(path) (already built for this feed)")
        let info = try pulsedot(["transit", "info", path, "--trip", trip])
        XCTAssertEqual(info.status, 0, info.stderr)
        let infoLines = info.stdout.split(separator: "\n").map(String.init).drop { !$0.hasPrefix("feed sha256: ") }.dropFirst()
        XCTAssertEqual(Array(report.dropFirst()), Array(infoLines))
        XCTAssertTrue(report.contains { $0.hasPrefix("agency: ") && $0.hasSuffix(" (America/Fortaleza)") }, again.stdout)
        XCTAssertTrue(report.contains { $0.hasPrefix("service 2019-06-14 to 2019-09-14: ") }, again.stdout)
        XCTAssertTrue(report.contains("trip: \(trip) (route 804-Aldeota – Aldeota)"), again.stdout)
        // Run on any day: inside the 2019 service period a weekday runs, after it none does.
        XCTAssertTrue(report.contains { $0.hasPrefix("runs today: ") && $0.hasSuffix(" in America/Fortaleza)") }, again.stdout)

        // trip = auto: nothing to look up before the vehicle drives.
        let auto = try pulsedot(["check-config", conf, "--set", "transit.trip=auto"])
        XCTAssertEqual(auto.status, 0, auto.stderr)
        XCTAssertEqual(transitLines(auto.stdout).last,
                       "trip: auto (told from the fixes as the vehicle drives: the shape they follow, then the run the clock says)", auto.stdout)

        // A trip the feed does not hold: a warning, the configuration itself still valid.
        let missing = try pulsedot(["check-config", conf, "--set", "transit.trip=D804-NOPE"])
        XCTAssertEqual(missing.status, 0, missing.stderr)
        XCTAssertEqual(missing.stderr, "pulsedot: warning: transit: \(path): no trip 'D804-NOPE' in the feed's trips.txt; the daemon would run without it\n")
        XCTAssertTrue(missing.stdout.hasSuffix("# transit: cannot be taken: \(path): no trip 'D804-NOPE' in the feed's trips.txt\n"), missing.stdout)
    }
}
