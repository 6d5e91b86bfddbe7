import Foundation
import TestSupport
import XCTest

/// `pulsedot transit info INDEX --trip TRIP_ID`: the trip the `trip` setting would take, as a
/// technician checks it, against the Fortaleza feed's own rows; a trip that is not there in one line.
final class TransitTripInfoTests: XCTestCase {
    private func pulsedot(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), args, timeout: 120)
    }

    func testATripOfTheFortalezaFeed() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-trip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("fortaleza.sqlite").path
        XCTAssertEqual(try pulsedot(["transit", "import", TransitImportTests.feed, "--out", out]).status, 0)
        let trip = "D804-T01V01B01-I"
        // The trip's rows of stop_times.txt in stop_sequence order, and its stops' names.
        let csv = try runProgram("/usr/bin/unzip", ["-p", TransitImportTests.feed, "stop_times.txt"]).stdout
        let rows = csv.split(whereSeparator: \.isNewline).filter { $0.hasPrefix(trip + ",") }
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            .sorted { Int($0[4])! < Int($1[4])! }
        let stopsCSV = try runProgram("/usr/bin/unzip", ["-p", TransitImportTests.feed, "stops.txt"]).stdout
        func name(_ id: String) throws -> String {
            let line = try XCTUnwrap(stopsCSV.split(whereSeparator: \.isNewline).first { $0.hasPrefix(id + ",") })
            // stop_id,stop_code,stop_name,…: quoted when it holds a comma.
            if line.contains("\"") { return String(line.split(separator: "\"")[1]) }
            return String(line.split(separator: ",", omittingEmptySubsequences: false)[2])
        }
        let first = try XCTUnwrap(rows.first), last = try XCTUnwrap(rows.last)
        let run = try pulsedot(["transit", "info", out, "--trip", trip])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let tail = Array(lines.suffix(5))
        XCTAssertEqual(tail[0], "trip: \(trip) (route 804-Aldeota – Aldeota)")
        XCTAssertEqual(tail[1], "destination: \(try name(last[3]))")
        XCTAssertEqual(tail[2], "stops: \(rows.count), first \(first[3]) \(try name(first[3])) \(first[2]), last \(last[3]) \(try name(last[3])) \(last[1])")
        XCTAssertTrue(tail[3].hasPrefix("line: shape804-I, "), tail[3])
        // The feed's service ended in 2019: no day of today's runs it.
        XCTAssertTrue(tail[4].hasPrefix("runs today: no (service day "), tail[4])
        XCTAssertTrue(tail[4].hasSuffix(" in America/Fortaleza)"), tail[4])

        let missing = try pulsedot(["transit", "info", out, "--trip", "D804-NOPE"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "pulsedot: transit info: \(out): no trip 'D804-NOPE' in the feed's trips.txt\n")
    }
}
