import Daemon
import Foundation
import Glibc
import TestSupport
import XCTest

/// `[transit] tripFile` on the loop: a real file in a real folder, watched through inotify, written
/// by the test at virtual moments as an onboard computer would (in place and by rename). The trip
/// it names is loaded in place of `trip`; a missing file and a line that names no trip are each
/// said once, with the trip followed before kept.
final class TripFileLoopTests: XCTestCase {
    func testTheTripFollowsTheFileAndAProblemKeepsTheTripBefore() throws {
        let dir = try TestEnvironment.temporaryDirectory("trip-file").path
        let feed = try TransitLoopTests.writeFeed(in: dir, lastDay: "20271231")
        let file = dir + "/trip"
        let config = TransitLoopTests.config(feed: feed, dir: dir, trip: "none") + "tripFile = \(file)\nbanner = none\n"
        let h = try LoopHarness(config: config)
        func write(_ text: String, at t: Double, byRename: Bool = false) {
            h.waiting.at(t) {
                if byRename {
                    try? text.write(toFile: file + ".new", atomically: false, encoding: .utf8)
                    rename(file + ".new", file)
                } else {
                    try? text.write(toFile: file, atomically: false, encoding: .utf8)
                }
            }
        }
        write("# written by the IBIS computer\n\nT1\n", at: 1)
        write("block\n", at: 2)
        write("T9\n", at: 3, byRename: true)
        write("T1\n", at: 4, byRename: true)
        h.waiting.signal(SIGTERM, at: 5)
        XCTAssertEqual(try h.run(), 0)

        XCTAssertEqual(h.logged("transit: tripFile \(file): cannot be read").count + h.logged("transit: tripFile \(file): No such file").count, 1,
                       "the missing file, once: \(h.log)")
        XCTAssertEqual(h.logged("transit: tripFile \(file) names trip T1"), [1, 4], h.log)
        XCTAssertEqual(h.logged("transit: trip T1 (route 7 – Dworzec) to Dworzec, 3 stops").count, 2, h.log)
        let bad = h.lines.filter { $0.text.contains("transit: tripFile \(file):1: ") }
        XCTAssertEqual(bad.count, 1, "the bad line, once, with its line number: \(h.log)")
        XCTAssertTrue(bad.first?.text.contains("trip T1 is still followed") ?? false, h.log)
        XCTAssertEqual(h.logged("transit: tripFile \(file) names trip T9").count, 1, h.log)
        // T9 is not in the feed: the load says so, once, and no trip is followed (the file named
        // another trip than T1, so T1's next stop would be wrong).
        XCTAssertEqual(h.logged("no trip 'T9' in the feed's trips.txt").count, 1, h.log)
    }
}
