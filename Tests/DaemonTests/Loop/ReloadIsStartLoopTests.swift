@testable import Config
import DisplayCore
import Foundation
import Glibc
import PNG
import Raster
import TestSupport
import XCTest

/// A reload is a start: a daemon started with configuration A and reloaded to B at 4 s runs, from
/// then on, as one started with B — the same frame record (the dot, the trip, the board's rows)
/// and the same pixels at the same virtual time, given the same fixes. Tried on every key of the
/// settings table, set to another value by a reload and taken back by the next, and on the features whose lost reload
/// hooks once kept a kiosk on its old stop and a `trip = realtime` off.
enum ReloadCheck {
    /// A whole halo cycle (3 s + 1 s) after the start: a dot that enters again after the reload
    /// (a new source) pulses in step with one that entered at the start.
    static let reloadAt = 4.0
    static let end = 6.05

    /// What one run left at its end: the last frame's record and pixels, and its log.
    struct Outcome {
        var stamp: String
        var pixels: [UInt8]
        var log: String
        var harness: LoopHarness
    }

    /// Runs `first` (reloaded to `then` at `reloadAt` when given) with a fix every half second.
    static func run(_ first: String, then: String? = nil) throws -> Outcome {
        let h = try LoopHarness(config: first)
        let place = BusStreet.at(700)
        for t in stride(from: 0.25, to: Self.end, by: 0.5) {
            h.waiting.at(t) { h.source.deliver(latitude: place.lat, longitude: place.lon, at: h.waiting.now()) }
        }
        if let then {
            h.waiting.at(Self.reloadAt) { h.configText = then }
            h.waiting.signal(SIGHUP, at: Self.reloadAt)
        }
        var pixels: [UInt8] = [], stamp = ""
        // Read between two frames, while the view that drew the last one is alive.
        h.waiting.at(Self.end - 0.02) {
            guard let d = h.display else { return }
            let canvas = d.canvas
            for y in 0..<canvas.height {
                pixels += UnsafeRawBufferPointer(start: canvas.row(y), count: canvas.width * canvas.format.bytesPerPixel)
            }
            stamp = d.stamps.last.map { Self.describe($0) } ?? "no frame"
            if let folder = ProcessInfo.processInfo.environment["PULSEDOT_RELOAD_FRAMES"] {
                try? PNGWrite.frame(canvas, to: folder + "/" + (then == nil ? "started" : "reloaded") + ".png")
            }
        }
        h.waiting.signal(SIGTERM, at: Self.end)
        XCTAssertEqual(try h.run(), 0, h.log)
        return Outcome(stamp: stamp, pixels: pixels, log: h.log, harness: h)
    }

    /// A frame's record as frames.jsonl would carry it, the clocks left out.
    static func describe(_ s: FrameStamp) -> String {
        var text = "\(s.state) \(s.latitude ?? .nan),\(s.longitude ?? .nan) at \(s.x ?? .nan),\(s.y ?? .nan) r \(s.accuracyRadiusPx ?? .nan) h \(s.heading ?? .nan)"
        if let t = s.transit {
            text += "; trip \(t.trip) next \(t.nextStopID ?? "-") along \(t.distanceAlong ?? .nan) at stop \(t.atStop) off \(t.offRoute)"
        }
        if let k = s.kiosk {
            text += "; kiosk \(k.live) " + k.rows.map { "\($0.tripID)@\($0.stopID) \($0.time)" }.joined(separator: ", ")
        }
        return text
    }

    /// Reloading `a` to `b` ends as starting `b`: the record and the pixels.
    @discardableResult
    static func assertReloadIsStart(_ a: String, _ b: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws -> (Outcome, Outcome) {
        let reloaded = try run(a, then: b)
        let started = try run(b)
        XCTAssertEqual(reloaded.harness.logged("configuration reloaded").count, 1, "\(what): the reload was refused:\n\(reloaded.log)", file: file, line: line)
        XCTAssertEqual(reloaded.stamp, started.stamp, "\(what): the frame record differs", file: file, line: line)
        XCTAssertFalse(started.pixels.isEmpty, what, file: file, line: line)
        if reloaded.pixels != started.pixels {
            let differing = zip(reloaded.pixels, started.pixels).filter { $0 != $1 }.count
            XCTFail("\(what): \(differing) bytes of the last frame differ", file: file, line: line)
        }
        return (reloaded, started)
    }

}

final class ReloadIsStartLoopTests: XCTestCase {

    /// Values tried for a key, the first that parses and differs from the default is taken.
    static let candidates = ["2", "0.5", "30", "7", "none", "auto", "true", "false", "red", "#ff8800", "top", "bottom",
                             "debug", "warning", "rgb565", "90", "640x480", "de", "22:00-06:00", "1", "0", "always", "off",
                             "ring", "edge", "tms", "flip", "software", "beside", "trusted", "22:00-06:00 50", "22:00-06:00 50%", "0:10,1000:100",
                             "3,3", "51.776,19.47", "/dev/dri/card1", "kms"]

    /// Keys whose values need something this test makes (a file, a feed, a key beside them): the
    /// lines of configuration that set them, DIR standing for the test's folder.
    static let special: [String: String] = [
        "source.replay": "[source]\nreplay = DIR/drive.nmea\n",
        "map.image": "[map]\nimage = DIR/map.png\nbounds = 19.46,51.77,19.48,51.79\n",
        "map.bounds": "[map]\nimage = DIR/map.png\nbounds = 19.46,51.77,19.48,51.79\n",
        "image": "[dot]\nimage = DIR/dot.png\n",
        "headingImage": "[dot]\nheadingImage = DIR/dot.png\n",
        "display.dim": "[display]\nbrightness = 80\ndim = 22:00-06:00 50%\n",
        "map.tiles": "[map]\ntiles = DIR/tiles\n",
        "map.tileScheme": "[map]\ntiles = DIR/tiles\ntileScheme = tms\n",
        "transit.gtfs": "[transit]\ngtfs = DIR/feed\ncache = DIR/cache\n",
        "transit.trip": "[transit]\ngtfs = DIR/feed\ncache = DIR/cache\ntrip = T1\n",
        "realtime.vehiclePositions": "[realtime]\nvehiclePositions = http://127.0.0.1:9/vp.pb\n",
        "realtime.tripUpdates": "[realtime]\ntripUpdates = http://127.0.0.1:9/tu.pb\n",
        "realtime.alerts": "[realtime]\nalerts = http://127.0.0.1:9/alerts.pb\n",
        "realtime.caFile": "[realtime]\nvehiclePositions = https://127.0.0.1:9/vp.pb\ncaFile = DIR/ca.pem\n",
        "realtime.proxy": "[realtime]\nvehiclePositions = http://127.0.0.1:9/vp.pb\nproxy = http://127.0.0.1:9\n",
        "kiosk.stop": "[source]\nposition = 51.776,19.47\n[transit]\ngtfs = DIR/feed\ncache = DIR/cache\n[kiosk]\nstop = B\n",
        "kiosk.layout": "[source]\nposition = 51.776,19.47\n[transit]\ngtfs = DIR/feed\ncache = DIR/cache\n[kiosk]\nstop = B\nlayout = beside\n",
    ]

    /// Keys no value of which can be tried here, each with the reason. A key added to the table
    /// is tried, or listed here, or this test fails.
    static let untried: [String: String] = [:]

    /// `base` with `section`'s `name` set to `value`: the line replaced where base sets it.
    static func setting(_ base: String, _ section: String, _ name: String, _ value: String) -> String {
        var lines = base.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var current = ""
        for (i, line) in lines.enumerated() {
            if line.hasPrefix("[") { current = String(line.dropFirst().dropLast()) }
            if current == section, line.hasPrefix(name + " = ") {
                lines[i] = name + " = " + value
                return lines.joined(separator: "\n")
            }
        }
        return base + "[\(section)]\n\(name) = \(value)\n"
    }

    /// The test's folder with what the special values name: a replay log, a map image, an empty
    /// tile folder, BusStreet's feed, a CA certificate.
    static func prepare(_ dir: String) throws {
        try "$GPGGA,080000,5146.6,N,01928.2,E,1,08,0.9,200.0,M,0.0,M,,*47\n".write(toFile: dir + "/drive.nmea", atomically: true, encoding: .utf8)
        try PNGWrite.rgb(width: 40, height: 30, rgb: [UInt8](repeating: 120, count: 40 * 30 * 3), to: dir + "/map.png")
        var dot: [UInt8] = []
        for i in 0..<(16 * 16) { dot += [200, 40, 40, i % 16 < 8 ? 255 : 0] }
        try PNGWrite.rgba(RGBAImage(width: 16, height: 16, rgba: dot), to: dir + "/dot.png")
        try FileManager.default.createDirectory(atPath: dir + "/tiles/16/36312", withIntermediateDirectories: true)
        try PNGWrite.rgb(width: 256, height: 256, rgb: [UInt8](repeating: 200, count: 256 * 256 * 3), to: dir + "/tiles/16/36312/21975.png")
        try BusStreet.writeFeed(to: URL(fileURLWithPath: dir + "/feed"), firstDay: "20260101", lastDay: "20281231")
        let made = try runProgram("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=reload test",
                                                       "-keyout", dir + "/ca.key", "-out", dir + "/ca.pem", "-days", "2"])
        guard made.status == 0 else { throw TestFailure("openssl: \(made.stderr)") }
    }

    func testEveryKeyReloadedEndsAsStarted() throws {
        let dir = try TestEnvironment.temporaryDirectory("reload-start").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.prepare(dir)
        let base = RunLoopTests.base
        var tried: [String] = [], untried: [String] = []
        for key in SettingsTable.keys {
            var a = base
            // Tiles are decoded on their own thread: frames that wait for them (as PNG frames do)
            // make the comparison one of what is drawn, not of when a tile arrived.
            if key.qualifiedName.hasPrefix("map.tile") { a = Self.setting(base, "display", "output", "png:\(dir)/png") }
            let before = key.show(try Configuration.parse(a, file: "test.conf").settings)
            var chosen: String?
            if let special = Self.special[key.qualifiedName] {
                chosen = a + special.replacingOccurrences(of: "DIR", with: dir)
            } else {
                for value in Self.candidates where value != before {
                    let text = Self.setting(a, key.section, key.name, value)
                    guard let parsed = try? Configuration.parse(text, file: "test.conf"), key.show(parsed.settings) != before else { continue }
                    chosen = text
                    break
                }
            }
            guard let b = chosen else {
                untried.append(key.qualifiedName)
                continue
            }
            try ReloadCheck.assertReloadIsStart(a, b, "\(key.qualifiedName) set by a reload")
            try ReloadCheck.assertReloadIsStart(b, a, "\(key.qualifiedName) taken back by a reload")
            tried.append(key.qualifiedName)
        }
        XCTAssertEqual(Set(untried), Set(Self.untried.keys), "keys no candidate value fits: \(untried)")
        print("reload is start: \(tried.count) of \(SettingsTable.keys.count) keys tried")
    }
}

final class ReloadFeaturesLoopTests: XCTestCase {
    /// BusStreet's stops with a bus every five minutes from 09:00 to 10:55 local (the harness's
    /// wall clock starts at 09:00 in Warsaw), each trip calling at A, B five minutes later, then C.
    static func writeBusyFeed(in dir: String) throws -> String {
        let feed = dir + "/busy"
        try BusStreet.writeFeed(to: URL(fileURLWithPath: feed), firstDay: "20260101", lastDay: "20281231")
        var trips = "route_id,service_id,trip_id,trip_headsign,shape_id\nR7,ALL,T1,Dworzec,L\n"
        var times = try String(contentsOfFile: feed + "/stop_times.txt", encoding: .utf8)
        for k in 0..<24 {
            let start = 9 * 60 + 5 * k
            trips += "R7,ALL,K\(k),Dworzec,L\n"
            for (i, stop) in ["A", "B", "C"].enumerated() {
                let m = start + 5 * i
                times += String(format: "K%d,%02d:%02d:00,%02d:%02d:00,%@,%d\n", k, m / 60, m % 60, m / 60, m % 60, stop, (i + 1) * 10)
            }
        }
        try trips.write(toFile: feed + "/trips.txt", atomically: true, encoding: .utf8)
        try times.write(toFile: feed + "/stop_times.txt", atomically: true, encoding: .utf8)
        return feed
    }

    /// A kiosk at `stop` of the busy feed, standing where the stop is.
    func kiosk(_ feed: String, _ dir: String, stop: String, departures: Int) -> String {
        let place = BusStreet.at(BusStreet.stops.first { $0.id == stop }!.y)
        return RunLoopTests.base.replacingOccurrences(of: "[source]\n", with: "[source]\nposition = \(place.lat),\(place.lon)\n")
            + "[transit]\ngtfs = \(feed)\ncache = \(dir)/cache\n[kiosk]\nstop = \(stop)\ndepartures = \(departures)\n"
    }

    /// The kiosk moved from stop A (4 rows) to stop B (2 rows) by a reload shows stop B's two
    /// next departures, as one started there does; the index is not imported again.
    func testAKioskMovedByAReloadShowsTheNewStop() throws {
        let dir = try TestEnvironment.temporaryDirectory("reload-kiosk").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let feed = try Self.writeBusyFeed(in: dir)
        let a = kiosk(feed, dir, stop: "A", departures: 4), b = kiosk(feed, dir, stop: "B", departures: 2)
        let (reloaded, started) = try ReloadCheck.assertReloadIsStart(a, b, "[kiosk] stop A → B, departures 4 → 2")
        let before = try XCTUnwrap(reloaded.harness.display?.stamps.first { $0.kiosk?.rows.isEmpty == false }?.kiosk, reloaded.log)
        XCTAssertEqual(before.rows.map { $0.stopID }, ["A", "A", "A", "A"], reloaded.log)
        let after = try XCTUnwrap(reloaded.harness.display?.stamps.last?.kiosk, reloaded.log)
        XCTAssertEqual(after.rows.map { $0.stopID }, ["B", "B"], reloaded.log)
        XCTAssertEqual(after.rows.map { $0.tripID }, started.harness.display?.stamps.last?.kiosk?.rows.map { $0.tripID })
        XCTAssertEqual(reloaded.harness.logged("transit: loading ").count, 1, "the index is kept: \(reloaded.log)")
        XCTAssertEqual(reloaded.harness.logged("kiosk: stop B: 2 departures").count, 1, reloaded.log)
        XCTAssertEqual(reloaded.harness.logged("configuration reloaded: source scripted, output none; changed: [source] [kiosk]").count, 1, reloaded.log)
    }

    /// A reload that changes nothing the kiosk reads leaves its board alone (no new model).
    func testAReloadOfAnotherSectionKeepsTheBoard() throws {
        let dir = try TestEnvironment.temporaryDirectory("reload-kiosk-kept").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let feed = try Self.writeBusyFeed(in: dir)
        let a = kiosk(feed, dir, stop: "A", departures: 3)
        let (reloaded, _) = try ReloadCheck.assertReloadIsStart(a, a + "[dot]\nscale = 2\n", "[dot] scale beside a kiosk")
        XCTAssertEqual(reloaded.harness.logged("kiosk: stop A: 3 departures").count, 1, reloaded.log)
        XCTAssertEqual(reloaded.harness.logged("changed: [dot]").count, 1, reloaded.log)
    }

    /// `trip = realtime` turned on by a reload starts the fetcher, as a start with it does.
    func testTripRealtimeTurnedOnByAReloadStartsFetching() throws {
        let dir = try TestEnvironment.temporaryDirectory("reload-realtime").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let feed = dir + "/feed"
        try BusStreet.writeFeed(to: URL(fileURLWithPath: feed), firstDay: "20260101", lastDay: "20281231")
        // Nothing listens on the discard port: each fetch fails at once, said once.
        let common = RunLoopTests.base + "[realtime]\nvehiclePositions = http://127.0.0.1:9/vp.pb\n"
        let a = common + "[transit]\ngtfs = \(feed)\ncache = \(dir)/cache\n"
        let b = common + "[transit]\ngtfs = \(feed)\ncache = \(dir)/cache\ntrip = realtime\nvehicleId = V1\n"
        let (reloaded, started) = try ReloadCheck.assertReloadIsStart(a, b, "[transit] trip none → realtime")
        let looking = "transit: trip realtime: vehicle V1 looked for in vehiclePositions"
        XCTAssertEqual(started.harness.logged(looking).count, 1, started.log)
        XCTAssertEqual(reloaded.harness.logged(looking), [ReloadCheck.reloadAt], reloaded.log)
    }
}
