import Daemon
import Foundation
import Glibc
import TestSupport
import XCTest

/// `trip = auto` in the loop, on `BlockLoopTests`' street: T1 runs it north (09:00–09:10, shape
/// N), T2 south (09:20–09:30, shape S); the harness's clock starts at 09:00 in Warsaw. Driven
/// north then south with no trip configured, the vehicle is told to run T1, is followed from
/// there, lets T1 go at its terminus and is told to run T2 on the way back — each choice said
/// once with its reason, no stop said before its trip was known.
final class AutoTripLoopTests: XCTestCase {
    func testTheTripIsToldFromTheFixesAndAgainAfterTheTerminus() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-auto").path
        let feed = try BlockLoopTests.writeFeed(in: dir)
        // A watchdog, so the harness reads what the daemon tells systemd (STATUS= with the next stop).
        let h = try LoopHarness(config: TransitLoopTests.config(feed: feed, dir: dir, trip: "auto") + "banner = none\n", watchdogUsec: "30000000")
        var statusBeforeT1 = 0
        let t = BlockLoopTests.driveThereAndBack(h)
        var lookingBeforeT1 = 0
        h.waiting.at(4) {
            statusBeforeT1 = h.notifications.filter { $0.text.contains("next stop") }.count
            lookingBeforeT1 = h.notifications.filter { $0.text.contains("STATUS=") && $0.text.contains("· trip auto: looking for the trip") }.count
        }
        h.waiting.signal(SIGTERM, at: t + 0.5)
        XCTAssertEqual(try h.run(), 0)

        let auto = h.lines.map { $0.text }.filter { $0.contains("transit: trip auto") || $0.contains("transit: arrived") }
            .map { String($0[$0.range(of: "transit: ")!.lowerBound...]) }
        XCTAssertEqual(auto.count, 9, h.log)
        guard auto.count == 9 else { return }
        XCTAssertEqual(auto[0], "transit: trip auto: the trip is told from the fixes: the shape they follow, then the run due there nearest to the clock")
        XCTAssertTrue(auto[1].hasPrefix("transit: trip auto: T1 (route 7 – Dworzec) to Dworzec, 3 stops; shape N: "), auto[1])
        XCTAssertTrue(auto[1].contains("on service day 2027-01-15"), auto[1])
        XCTAssertEqual(Array(auto[2...3]), ["transit: arrived at Piotrkowska, róg (stop 2 of 3)", "transit: arrived at Dworzec (stop 3 of 3)"])
        XCTAssertEqual(auto[4], "transit: trip auto: trip T1 reached its terminus; looking for the trip from the fixes again")
        XCTAssertTrue(auto[5].hasPrefix("transit: trip auto: T2 (route 7 – Dworzec) to Plac Wolności, 3 stops; shape S: "), auto[5])
        XCTAssertEqual(Array(auto[6...7]), ["transit: arrived at Piotrkowska, róg (stop 2 of 3)", "transit: arrived at Plac Wolności (stop 3 of 3)"])
        XCTAssertEqual(auto[8], "transit: trip auto: trip T2 reached its terminus; looking for the trip from the fixes again")
        // Before the choice no next stop is shown: the banner and the status stay neutral.
        XCTAssertEqual(statusBeforeT1, 0, h.log)
        XCTAssertGreaterThan(lookingBeforeT1, 0, "STATUS says the trip is being looked for: \(h.notifications.map { $0.text })")
        XCTAssertGreaterThan(h.notifications.filter { $0.text.contains("next stop") }.count, 0, h.log)
        XCTAssertEqual(h.logged("no trip set").count, 0, h.log)
    }

    /// Two minutes off the chosen trip's line: the choice is let go, and nothing is chosen while
    /// the fixes follow no shape.
    func testTwoMinutesOffTheLineLetTheTripGo() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-auto-off").path
        let feed = try BlockLoopTests.writeFeed(in: dir)
        let h = try LoopHarness(config: TransitLoopTests.config(feed: feed, dir: dir, trip: "auto") + "banner = none\n")
        var t = 1.0
        func fix(_ y: Double, east: Double = 0) {
            let p = TransitLoopTests.at(y)
            h.waiting.at(t) { h.source.deliver(latitude: p.lat, longitude: p.lon + east, at: h.waiting.now()) }
            t += 1
        }
        for y in stride(from: 0.0, through: 500, by: 20) { fix(y) }
        // About 400 m east of the street, for 150 s.
        for _ in 0..<150 { fix(500, east: 0.006) }
        h.waiting.signal(SIGTERM, at: t + 0.5)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.logged("transit: trip auto: T1 ").count, 1, h.log)
        XCTAssertEqual(h.logged("transit: off route").count, 1, h.log)
        let released = h.logged("transit: trip auto: 2 min off the line of trip T1; looking for the trip from the fixes again")
        XCTAssertEqual(released.count, 1, h.log)
        let off = try XCTUnwrap(h.logged("transit: off route").first)
        XCTAssertEqual(released.first ?? 0, off + 120, accuracy: 2, h.log)
        XCTAssertEqual(h.logged("transit: trip auto: T").count, 1, "nothing chosen off every shape: \(h.log)")
    }
}
