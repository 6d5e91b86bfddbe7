import Foundation
import TestSupport
import XCTest

/// `pulsedot realtime fetch URL`: the built binary fetching from feed_server.py, printing what
/// `realtime info` prints, or the one-line error with exit 1.
final class RealtimeFetchCommandTests: XCTestCase {
    func testFetchPrintsTheSummaryOrOneLine() throws {
        let server = try FeedServer()
        let bin = try TestEnvironment.pulsedotBinary()
        let ok = try runProgram(bin, ["realtime", "fetch", server.url("/gzip.pb"), "--ca-file", server.caFile])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(ok.stdout.hasPrefix("version: 2.0, FULL_DATASET\n"), ok.stdout)
        XCTAssertTrue(ok.stdout.contains("entities: 40 (trip updates 0, vehicles 40, alerts 0"), ok.stdout)
        XCTAssertTrue(ok.stderr.contains("\(server.url("/gzip.pb")): HTTP 200, \(server.feed.count) bytes ("), ok.stderr)

        let cases: [([String], String)] = [
            ([server.url("/status/500")], "\(server.url("/status/500")): HTTP 500 Internal Server Error"),
            ([server.url("/vehicles.pb"), "--max-bytes", "100"], "\(server.url("/vehicles.pb")): body of \(server.feed.count) bytes (Content-Length) larger than the limit of 100 bytes"),
            ([server.url("/vehicles.pb", port: "expired")], "\(server.url("/vehicles.pb", port: "expired")): certificate refused: certificate has expired"),
            ([server.url("/garbage-feed")], "\(server.url("/garbage-feed")): GTFS-realtime: malformed varint at byte 0"),
            ([server.url("/slow"), "--timeout", "1"], "\(server.url("/slow")): no progress for 0.5 s (waiting for the response)"),
        ]
        for (arguments, line) in cases {
            let run = try runProgram(bin, ["realtime", "fetch"] + arguments + ["--ca-file", server.caFile])
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertTrue(run.stdout.isEmpty)
            let lines = run.stderr.split(separator: "\n").filter { !$0.contains(": HTTP 200,") }
            XCTAssertEqual(lines, ["pulsedot: realtime fetch: " + line], arguments.joined(separator: " "))
        }
        let help = try runProgram(bin, ["realtime", "fetch", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--ca-file FILE") && help.stdout.contains("--max-bytes N"), help.stdout)
        let bad = try runProgram(bin, ["realtime", "fetch", "ftp://x/"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "pulsedot: realtime fetch: ftp://x/: URL must start with https:// or http://\n")
    }

    func testTheKeyFromTheCredentialIsSentAndNeverPrinted() throws {
        let server = try FeedServer()
        let bin = try TestEnvironment.pulsedotBinary()
        let dir = try TestEnvironment.temporaryDirectory("cred")
        defer { try? FileManager.default.removeItem(at: dir) }
        let secret = "k-\(UInt32.random(in: 1...UInt32.max))"
        try secret.write(to: dir.appendingPathComponent("feed"), atomically: true, encoding: .utf8)
        let env = ["CREDENTIALS_DIRECTORY": dir.path]
        for path in ["/vehicles.pb", "/status/404"] {
            let run = try runProgram(bin, ["realtime", "fetch", server.url(path), "--ca-file", server.caFile,
                                           "--api-key-credential", "feed", "--api-key-header", "X-Api-Key"], environment: env)
            XCTAssertFalse(run.stdout.contains(secret) || run.stderr.contains(secret))
        }
        XCTAssertEqual(try server.stats()["last key"] as? String, secret)
        let missing = try runProgram(bin, ["realtime", "fetch", server.url("/vehicles.pb"), "--api-key-credential", "nope"], environment: env)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("pulsedot: realtime fetch: (API key): credential nope: open \(dir.path)/nope: No such file"), missing.stderr)
    }
}
