import Daemon
import Foundation
import Glibc
import TestSupport
import XCTest

/// A feed replaced at the same path (a file renamed over one of its own, as a depot's sync does)
/// is loaded again at the next SIGHUP, with the configuration unchanged; a SIGHUP with the feed
/// untouched keeps the trip as it is.
final class FeedReplacedLoopTests: XCTestCase {
    func testASIGHUPLoadsTheFeedReplacedAtTheSamePath() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-replaced").path
        let feed = try TransitLoopTests.writeFeed(in: dir, lastDay: "20271231")
        let h = try LoopHarness(config: TransitLoopTests.config(feed: feed, dir: dir) + "banner = none\n")
        var t = 1.0
        func fix(_ y: Double) {
            let p = TransitLoopTests.at(y)
            h.waiting.at(t) { h.source.deliver(latitude: p.lat, longitude: p.lon, at: h.waiting.now()) }
            t += 0.5
        }
        for _ in 0..<4 { fix(0) }
        h.waiting.signal(SIGHUP, at: 2.1)
        h.waiting.at(2.6) {
            let stops = try! String(contentsOfFile: feed + "/stops.txt", encoding: .utf8)
            try! stops.replacingOccurrences(of: "Piotrkowska, róg", with: "Piotrkowska 104")
                .write(toFile: feed + "/.stops.txt.new", atomically: false, encoding: .utf8)
            _ = rename(feed + "/.stops.txt.new", feed + "/stops.txt")
        }
        h.waiting.signal(SIGHUP, at: 2.8)
        for y in stride(from: 20.0, through: 700, by: 20) { fix(y) }
        for _ in 0..<4 { fix(700) }
        h.waiting.signal(SIGTERM, at: t + 0.5)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.logged("configuration reloaded"), [2.1, 2.8], h.log)
        XCTAssertEqual(h.logged("transit: loading ").count, 2, "loaded at start and after the feed changed, not at the first SIGHUP: \(h.log)")
        XCTAssertEqual(h.logged("transit: loading ").last, 2.8, h.log)
        XCTAssertEqual(h.logged("transit: arrived at Piotrkowska 104 (stop 2 of 3)").count, 1, h.log)
        XCTAssertEqual(h.logged("Piotrkowska, róg").count, 0, h.log)
    }
}
