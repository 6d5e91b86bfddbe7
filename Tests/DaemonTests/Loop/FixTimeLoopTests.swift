import Foundation
import Glibc
import TestSupport
import XCTest

/// The trip is followed by the fixes' own time: the same drive delivered as it happens, replayed
/// twenty times faster (a detour too), and buffered into bursts of thirty fixes arriving at once (gpsd after a
/// stall) says the same stops in the same order.
final class FixTimeLoopTests: XCTestCase {
    /// BusStreet's T1 driven at 10 m/s with a 20 s dwell at each stop, a fix a second, each with
    /// its UTC time; `arrival` maps the fix's index to its arrival on the loop's clock.
    func drive(_ arrival: (Int) -> Double, dir: String) throws -> [String] {
        let feed = try TransitLoopTests.writeFeed(in: dir, lastDay: "20281231")
        let h = try LoopHarness(config: TransitLoopTests.config(feed: feed, dir: dir))
        var ys: [Double] = []
        for stop in BusStreet.stops {
            while (ys.last ?? -10) < stop.y { ys.append(min((ys.last ?? -10) + 10, stop.y)) }
            ys += Array(repeating: stop.y, count: 20)
        }
        // A detour 250 m east from 100 m to 600 m, a minute of driving: the window ahead that
        // finds the vehicle again grows with the fixes' time, not with how fast they arrive.
        func east(_ y: Double) -> Double { y > 100 && y < 600 ? 250 * min(1, (y - 100) / 50, (600 - y) / 50) : 0 }
        var last = 0.0
        for (i, y) in ys.enumerated() {
            let p = BusStreet.at(x: east(y), y), t = arrival(i)
            last = max(last, t)
            h.waiting.at(t) {
                h.source.deliver(latitude: p.lat, longitude: p.lon, utc: Int64(LoopHarness.wallStart) + Int64(i), at: h.waiting.now())
            }
        }
        h.waiting.signal(SIGTERM, at: last + 1)
        XCTAssertEqual(try h.run(), 0, h.log)
        return h.lines.map { $0.text }.filter { $0.contains("transit: arrived") || $0.contains("transit: departed") || $0.contains("transit: passed")
            || $0.contains("off route") || $0.contains("back on route") }.map { String($0[$0.range(of: "transit: ")!.lowerBound...]) }
    }

    func testRealTimeTwentyTimesFasterAndBurstsSayTheSameStops() throws {
        let dir = try TestEnvironment.temporaryDirectory("fix-time").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let real = try drive({ 1 + Double($0) }, dir: dir + "/real")
        XCTAssertEqual(real.filter { $0.contains("arrived") }.count, 3, real.joined(separator: "\n"))
        XCTAssertEqual(real.filter { $0.contains("off route") || $0.contains("back on route") }.count, 2, real.joined(separator: "\n"))
        let fast = try drive({ 1 + Double($0) / 20 }, dir: dir + "/fast")
        // Thirty fixes at a time, each burst 30 s after the one before, 10 ms apart.
        let bursts = try drive({ 1 + Double($0 / 30) * 30 + Double($0 % 30) * 0.01 }, dir: dir + "/bursts")
        XCTAssertEqual(fast, real)
        XCTAssertEqual(bursts, real)
    }
}
