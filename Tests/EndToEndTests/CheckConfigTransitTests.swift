import Foundation
import TestSupport
import XCTest

/// `pulsedot check-config` with `[transit]` set: after the configuration, the feed and the trip as
/// the daemon takes them, in the words `pulsedot transit info` uses, as comments.
final class CheckConfigTransitTests: XCTestCase {
    private func pulsedot(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), args, timeout: 120)
    }

    func testTheFortalezaFeedAndTrip() throws {
        let dir = try TestEnvironment.temporaryDirectory("check-config-transit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let trip = "D804-T01V01B01-I"
        let conf = dir.appendingPathComponent("bus.conf").path
        try "[transit]\ngtfs = \(TransitImportTests.feed)\ntrip = \(trip)\ncache = idx\n".write(toFile: conf, atomically: true, encoding: .utf8)

        let first = try pulsedot(["check-config", conf])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stderr, "")
        let report = first.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("# transit: ") }
            .map { String($0.dropFirst("# transit: ".count)) }
        let index = try XCTUnwrap(report.first)
        XCTAssertTrue(index.hasPrefix("index: \(dir.path)/idx/"), index)
        XCTAssertTrue(index.hasSuffix(".sqlite (built now)"), index)
        let path = String(index.dropFirst("index: ".count).prefix { $0 != " " })

        // The same lines as `transit info` gives for the index and the trip, after its header.
        let info = try pulsedot(["transit", "info", path, "--trip", trip])
        XCTAssertEqual(info.status, 0, info.stderr)
        let infoLines = info.stdout.split(separator: "\n").map(String.init).drop { !$0.hasPrefix("feed sha256: ") }.dropFirst()
        XCTAssertEqual(Array(report.dropFirst()), Array(infoLines))
        XCTAssertTrue(report.contains { $0.hasPrefix("agency: ") && $0.hasSuffix(" (America/Fortaleza)") }, first.stdout)
        XCTAssertTrue(report.contains { $0.hasPrefix("service 2019-06-14 to 2019-09-14: ") }, first.stdout)
        XCTAssertTrue(report.contains("trip: \(trip) (route 804-Aldeota – Aldeota)"), first.stdout)
        // Run on any day: inside the 2019 service period a weekday runs, after it none does.
        XCTAssertTrue(report.contains { $0.hasPrefix("runs today: ") && $0.hasSuffix(" in America/Fortaleza)") }, first.stdout)

        // The index is reused by the feed's hash, as the daemon reuses it.
        let again = try pulsedot(["check-config", conf])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("# transit: index: \(path) (already built for this feed)\n"), again.stdout)

        // A trip the feed does not hold: a warning, the configuration itself still valid.
        let missing = try pulsedot(["check-config", conf, "--set", "transit.trip=D804-NOPE"])
        XCTAssertEqual(missing.status, 0, missing.stderr)
        XCTAssertEqual(missing.stderr, "pulsedot: warning: transit: \(path): no trip 'D804-NOPE' in the feed's trips.txt; the daemon would run without it\n")
        XCTAssertTrue(missing.stdout.hasSuffix("# transit: cannot be taken: \(path): no trip 'D804-NOPE' in the feed's trips.txt\n"), missing.stdout)
    }
}
