import Foundation
import Glibc
import Metrics
import PNG
import TestSupport
import XCTest

/// A screen comes up whatever file is missing: the map and the feed left out, said once at <3>,
/// in the STATUS line and the metrics (`pulsedot_degraded`), and taken up when the file appears
/// (inotify on its folder), with no restart.
final class DegradedLoopTests: XCTestCase {
    func testAMissingMapAndFeedDoNotDarkenTheScreenAndAreTakenUpWhenTheyAppear() throws {
        let dir = try TestEnvironment.temporaryDirectory("degraded").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let prom = dir + "/pulsedot.prom"
        let config = RunLoopTests.base + "[map]\nimage = \(dir)/map.png\nbounds = 19.46,51.76,19.48,51.79\n"
            + "[metrics]\ntextfile = \(prom)\nevery = 1\n"
            + "[transit]\ngtfs = \(dir)/feed\ncache = \(dir)/cache\ntrip = T1\n"
        let h = try LoopHarness(config: config, watchdogUsec: "10000000")
        let place = BusStreet.at(100)
        for t in stride(from: 0.25, to: 6, by: 0.5) {
            h.waiting.at(t) { h.source.deliver(latitude: place.lat, longitude: place.lon, at: h.waiting.now()) }
        }
        var before: MetricsSamples?, after: MetricsSamples?
        h.waiting.at(1.8) { before = try? MetricsSamples(parsing: String(contentsOfFile: prom, encoding: .utf8)) }
        // The map, written as a tool writes a file (a temporary name, then renamed in).
        h.waiting.at(2.0) {
            try? PNGWrite.rgb(width: 40, height: 60, rgb: [UInt8](repeating: 90, count: 40 * 60 * 3), to: dir + "/map.tmp")
            rename(dir + "/map.tmp", dir + "/map.png")
        }
        h.waiting.at(3.0) { try? BusStreet.writeFeed(to: URL(fileURLWithPath: dir + "/feed"), firstDay: "20260101", lastDay: "20281231") }
        h.waiting.at(5.8) { after = try? MetricsSamples(parsing: String(contentsOfFile: prom, encoding: .utf8)) }
        h.waiting.signal(SIGTERM, at: 6)
        XCTAssertEqual(try h.run(), 0, h.log)

        // Drawn all along: ten frames a second on the one display.
        XCTAssertEqual(h.displays.count, 1, h.log)
        XCTAssertEqual(h.display?.presents, 60, h.log)
        let said = h.lines.filter { $0.text.hasPrefix("<3>map: ") }
        XCTAssertEqual(said.count, 1, h.log)
        XCTAssertTrue(said.first?.text.contains("map.image = \(dir)/map.png: no such file") ?? false, h.log)
        XCTAssertEqual(h.logged("transit: ").filter { $0 < 2.9 }.isEmpty, false)
        XCTAssertEqual(h.lines.filter { $0.text.hasPrefix("<3>transit: ") }.count, 1, h.log)
        // Taken up when they appeared: the map within the turn the folder said so, the feed too.
        let mapBack = try XCTUnwrap(h.logged("map: \(dir)/map.png taken up").first, h.log)
        XCTAssertEqual(mapBack, 2.0, accuracy: 0.15)
        let feedBack = try XCTUnwrap(h.logged("transit: \(dir)/feed taken up").first, h.log)
        XCTAssertEqual(feedBack, 3.0, accuracy: 0.15)
        XCTAssertEqual(h.logged("transit: trip T1 (route 7 – Dworzec) to Dworzec, 3 stops").count, 1, h.log)
        XCTAssertTrue(h.logged("configuration reloaded").isEmpty, "no reload was needed")

        // STATUS= and the metrics say it while it lasts, and stop saying it after.
        let statuses = h.notifications.filter { $0.text.contains("STATUS=") }
        XCTAssertTrue(statuses.contains { $0.t < 2 && $0.text.contains("degraded: map, transit") }, "\(h.notifications)")
        XCTAssertFalse(statuses.last?.text.contains("degraded") ?? true, "\(h.notifications)")
        XCTAssertEqual(before?.value("pulsedot_degraded", ["part": "map"]), 1)
        XCTAssertEqual(before?.value("pulsedot_degraded", ["part": "transit"]), 1)
        XCTAssertEqual(after?.value("pulsedot_degraded", ["part": "map"]), 0)
        XCTAssertEqual(after?.value("pulsedot_degraded", ["part": "transit"]), 0)
    }
}
