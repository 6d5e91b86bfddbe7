import Foundation
import TestSupport
import XCTest

/// `pulsedot transit import` and `transit info` as a depot technician runs them: the real
/// Fortaleza feed into an index, the summary, progress on stderr, a broken feed in one line.
final class TransitImportTests: XCTestCase {
    static let feed = "/work/shared/testdata/gtfs/fortaleza.zip"

    private func pulsedot(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), args, timeout: 120)
    }

    func testImportThenInfoOfTheFortalezaFeed() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("fortaleza.sqlite").path
        let started = Date()
        let run = try pulsedot(["transit", "import", Self.feed, "--out", out])
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(run.status, 0, run.stderr)
        let progress = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(progress.first, "pulsedot: transit import: hashing \(Self.feed)")
        XCTAssertTrue(progress.contains("pulsedot: transit import: stop_times.txt: 44646 rows"), run.stderr)
        XCTAssertTrue(progress.allSatisfy { $0.hasPrefix("pulsedot: transit import: ") }, run.stderr)
        let sum = try runProgram("/usr/bin/sha256sum", [Self.feed]).stdout.prefix(64)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("index: \(out) ("), run.stdout)
        let tail = [
            "feed sha256: \(sum)",
            "agency: ETUFOR (America/Fortaleza)",
            "routes: 14",
            "trips: 2292",
            "stops: 209",
            "stop_times: 44646 (6637 without times)",
            "shapes: 14 (1798 points)",
            "frequencies: 0",
        ]
        XCTAssertEqual(Array(lines.dropFirst().prefix(tail.count)), tail, run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("service 2019-06-14 to 2019-09-14: ended ") && $0.hasSuffix(" days ago") }, run.stdout)
        XCTAssertEqual(lines.last, "rows skipped: 0")
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int ?? 0
        print("transit import fortaleza.zip: \(String(format: "%.2f", seconds)) s, index \(size) bytes")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["fortaleza.sqlite"])

        let info = try pulsedot(["transit", "info", out])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertEqual(info.stderr, "")
        let infoLines = info.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(infoLines[0].hasPrefix("index: \(out) ("), info.stdout)
        XCTAssertEqual(Array(infoLines.dropFirst()), Array(lines.dropFirst()))
    }

    /// Without --out the index goes into the cache directory under the feed's hash, and a second
    /// import finds it there.
    func testTheCacheIsKeyedByTheFeedsHash() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache").path
        let sum = String(try runProgram("/usr/bin/sha256sum", [Self.feed]).stdout.prefix(64))
        let first = try pulsedot(["transit", "import", Self.feed, "--cache", cache])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.hasPrefix("index: \(cache)/\(sum).sqlite ("), first.stdout)
        let second = try pulsedot(["transit", "import", Self.feed, "--cache=\(cache)"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.hasPrefix("index: \(cache)/\(sum).sqlite (already built for this feed)\n"), second.stdout)
        XCTAssertFalse(second.stderr.contains("stop_times.txt"), second.stderr)
    }

    /// A broken feed: one line naming file, line and column, exit 1, nothing written.
    func testABrokenFeedIsOneLine() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit")
        defer { try? FileManager.default.removeItem(at: dir) }
        try ZipFolder.unzip(Self.feed, into: dir.path)
        let stops = dir.appendingPathComponent("stops.txt")
        let text = try String(contentsOf: stops, encoding: .utf8)
        XCTAssertEqual(text.utf8.last, 10)
        // A stop whose name opens a quote that nothing closes, on the line after the last.
        let line = text.utf8.filter { $0 == 10 }.count + 1
        try (text + "9999,,\"BROKEN,,-3.7,-38.5,,,0,,,\r\n").write(to: stops, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out.sqlite").path
        let run = try pulsedot(["transit", "import", dir.path, "--out", out])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "")
        let last = run.stderr.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertEqual(last, "pulsedot: transit import: \(dir.path)/stops.txt:\(line):3: quoted field never closed: the file ends inside it (an unmatched quote)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent(".out.sqlite.tmp").path))

        let notIndex = try pulsedot(["transit", "info", stops.path])
        XCTAssertEqual(notIndex.status, 1)
        XCTAssertTrue(notIndex.stderr.hasPrefix("pulsedot: transit info: \(stops.path): "), notIndex.stderr)
        XCTAssertEqual(notIndex.stderr.split(separator: "\n").count, 1, notIndex.stderr)
    }

    /// `transit`, `transit import`, `transit info` and `transit banner` each answer --help; a wrong
    /// word is refused.
    func testEverySubcommandAnswersHelp() throws {
        for (args, first) in [(["transit", "--help"], "usage: pulsedot transit [import|info|banner]"),
                              (["transit", "import", "-h"], "usage: pulsedot transit import [FEED] [--out FILE] [--cache DIR]"),
                              (["transit", "info", "--help"], "usage: pulsedot transit info [INDEX] [--trip TRIP_ID[@HH:MM:SS]]"),
                              (["transit", "banner", "--help"], "usage: pulsedot transit banner [INDEX] --trip TRIP_ID[@HH:MM:SS] --next-stop N --out FILE.png")] {
            let run = try pulsedot(args)
            XCTAssertEqual(run.status, 0, "\(args): \(run.stderr)")
            XCTAssertEqual(run.stderr, "")
            XCTAssertEqual(run.stdout.split(separator: "\n").first.map(String.init), first, "\(args)")
        }
        let bad = try pulsedot(["transit", "export"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("pulsedot: transit: unknown subcommand 'export': import, info or banner\nusage: pulsedot transit"), bad.stderr)
        let none = try pulsedot(["transit", "import"])
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.hasPrefix("pulsedot: transit import: expected one FEED (a GTFS zip or folder)\n"), none.stderr)
        let option = try pulsedot(["transit", "import", "--bogus", "x"])
        XCTAssertEqual(option.status, 2)
        XCTAssertEqual(option.stderr, "pulsedot: transit import: unknown option --bogus (this command takes: --cache, --out)\n")
    }
}

/// Unpacks a zip with Info-ZIP's unzip, the reference the feed is checked against.
enum ZipFolder {
    static func unzip(_ zip: String, into directory: String) throws {
        let run = try runProgram("/usr/bin/unzip", ["-q", "-o", zip, "-d", directory])
        guard run.status == 0 else { throw TestFailure("unzip \(zip): \(run.stderr)") }
    }
}
