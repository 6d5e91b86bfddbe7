import Daemon
import Foundation
import Glibc
import TestSupport
import XCTest

/// `[transit] nextStopCommand` on the loop: run by /bin/sh at each change of the next stop, the stop
/// in its environment, once per stop and once past the last; the loop never waits for it; a
/// failing command is said once.
final class NextStopCommandLoopTests: XCTestCase {
    private func drive(_ h: LoopHarness) -> Double {
        var t = 1.0
        func fix(_ y: Double) {
            let p = TransitLoopTests.at(y)
            h.waiting.at(t) { h.source.deliver(latitude: p.lat, longitude: p.lon, at: h.waiting.now()) }
            t += 0.5
        }
        for _ in 0..<3 { fix(0) }
        for y in stride(from: 20.0, through: 1400, by: 20) { fix(y) }
        for _ in 0..<4 { fix(1400) }
        return t
    }

    /// The file's lines once `count` are there (the commands run on their own), sorted.
    private func lines(_ path: String, count: Int) -> [String] {
        for _ in 0..<100 {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").map(String.init)
            if lines.count >= count { return lines.sorted() }
            usleep(50_000)
        }
        return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init).sorted()
    }

    func testTheCommandRunsAtEachNextStopWithTheStopInItsEnvironment() throws {
        let dir = try TestEnvironment.temporaryDirectory("next-stop-command").path
        let feed = try TransitLoopTests.writeFeed(in: dir, lastDay: "20271231")
        let out = dir + "/announced.txt"
        let command = #"printf '%s|%s|%s|%s|%s\n' "$PULSEDOT_NEXT_STOP_SEQUENCE" "$PULSEDOT_NEXT_STOP_ID" "$PULSEDOT_NEXT_STOP_NAME" "$PULSEDOT_TRIP_ID" "$PULSEDOT_ROUTE" >> "#
            + out
        let h = try LoopHarness(config: TransitLoopTests.config(feed: feed, dir: dir) + "nextStopCommand = \(command)\nbanner = none\n")
        let end = drive(h)
        h.waiting.signal(SIGTERM, at: end)
        XCTAssertEqual(try h.run(), 0)
        // Sorted: the commands run side by side, so their lines may come in any order.
        XCTAssertEqual(lines(out, count: 4), [
            "10|A|Plac Wolności|T1|7",
            "20|B|Piotrkowska, róg|T1|7",
            "30|C|Dworzec|T1|7",
            "|||T1|7",
        ].sorted(), "each next stop once, and once past the last")
        XCTAssertTrue(h.logged("nextStopCommand").isEmpty, h.log)
    }

    func testAFailingCommandIsSaidOnce() throws {
        let dir = try TestEnvironment.temporaryDirectory("next-stop-command-fails").path
        let feed = try TransitLoopTests.writeFeed(in: dir, lastDay: "20271231")
        let h = try LoopHarness(config: TransitLoopTests.config(feed: feed, dir: dir) + "nextStopCommand = exit 3\nbanner = none\n")
        var t = 1.0
        for y in [0.0, 0, 0] + Array(stride(from: 20.0, through: 1400, by: 20)) + [1400, 1400] {
            let p = TransitLoopTests.at(y)
            h.waiting.at(t) { h.source.deliver(latitude: p.lat, longitude: p.lon, at: h.waiting.now()) }
            // Real time for the shell to exit before the loop's next turns look.
            h.waiting.at(t + 0.25) { usleep(30_000) }
            t += 0.5
        }
        h.waiting.signal(SIGTERM, at: t)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.logged("transit: nextStopCommand: 'exit 3' exited with status 3").count, 1, h.log)
    }
}
