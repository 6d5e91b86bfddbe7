@testable import Compositor
@testable import Daemon
import DisplayCore
import Foundation
@testable import Geo
import LocationDot
@testable import Metrics
@testable import Outputs
import PNG
import Raster
@testable import Scene
@testable import Systemd
import TestSupport
import XCTest

/// The run loop's small parts: the log, the frame-time ring, frames.jsonl, the map window.
final class RunPartsTests: XCTestCase {
    // MARK: Log

    func testLogLinesCarryTheSyslogPriorityAndHonourTheLevel() {
        var lines: [String] = []
        let log = Journal(level: .notice) { lines.append($0) }
        log.error("e")
        log.warning("w")
        log.notice("n")
        log.info("i")
        log.debug("d")
        XCTAssertEqual(lines, ["<3>e\n", "<4>w\n", "<5>n\n"])
        log.level = .debug
        log.info("two\nlines")
        log.debug("d")
        XCTAssertEqual(lines.suffix(2), ["<6>two lines\n", "<7>d\n"])
    }

    func testARetryLoopSaysEachProblemOnce() {
        var lines: [String] = []
        let log = Journal { lines.append($0) }
        for _ in 0..<5 { log.warning("waiting for display: none connected", topic: "display") }
        log.warning("other topic", topic: "gpsd")
        log.warning("waiting for display: none connected", topic: "display")
        log.warning("waiting for display: card busy", topic: "display")
        log.warning("waiting for display: none connected", topic: "display")
        // Untopical lines are events: each one is written.
        log.info("event")
        log.info("event")
        XCTAssertEqual(lines, ["<4>waiting for display: none connected\n", "<4>other topic\n",
                               "<4>waiting for display: card busy\n", "<4>waiting for display: none connected\n",
                               "<6>event\n", "<6>event\n"])
        log.clear(topic: "display")
        log.warning("waiting for display: none connected", topic: "display")
        XCTAssertEqual(lines.count, 7, "after clear(topic:) the same problem is news again")
    }

    // MARK: Frame times

    func testPercentilesOfTheLatestSamples() throws {
        let times = FrameTimes(capacity: 100)
        XCTAssertNil(times.percentiles(50, 99))
        for v in (1...100).reversed() { times.add(nanoseconds: Int64(v) * 1000) }
        let (p50, p99) = try XCTUnwrap(times.percentiles(50, 99))
        XCTAssertEqual(p50, 50_000)
        XCTAssertEqual(p99, 99_000)
        XCTAssertEqual(times.framesInPeriod, 100)
        // The ring keeps the latest 100: older samples fall out.
        for _ in 0..<100 { times.add(nanoseconds: 7) }
        XCTAssertEqual(times.percentiles(50, 99).map { [$0.0, $0.1] }, [7, 7])
        times.startPeriod()
        XCTAssertEqual(times.framesInPeriod, 0)
        XCTAssertEqual(times.count, 100)
    }

    func testHeapSortSortsLikeTheStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        for n in [0, 1, 2, 3, 17, 256, 1000] {
            var values = (0..<n).map { _ in Int64.random(in: -1000...1000, using: &generator) }
            let expected = values.sorted()
            values.withUnsafeMutableBufferPointer { FrameTimes.heapSort($0.baseAddress!, n) }
            XCTAssertEqual(values, expected, "n = \(n)")
        }
    }

    func testFixedDecimals() {
        XCTAssertEqual(formatFixed(59.94, 1), "59.9")
        XCTAssertEqual(formatFixed(0.046, 2), "0.05")
        XCTAssertEqual(formatFixed(3, 2), "3.00")
        XCTAssertEqual(formatFixed(-1.25, 1), "-1.3")
        XCTAssertEqual(formatFixed(12.5, 0), "13")
    }

    // MARK: frames.jsonl

    func testFramesLineHasEveryFieldWithNullForUnknown() {
        var look = DotAppearance()
        look.accuracyRadiusPx = 31.5
        look.heading = 90
        let live = SceneFrame(phase: .live, position: GeoPoint(latitude: 45.5, longitude: -73.25),
                              center: MapPoint(x: 640.5, y: 400.25), appearance: look, offset: ViewOffset(x: 0, y: 0))
        XCTAssertEqual(PNGFrames.jsonLine(file: "frame-000007.png", stamp: live.stamp(sinceStart: 3.5, monotonic: 9)),
                       #"{"file":"frame-000007.png","t":3.5,"state":"live","lat":45.5,"lon":-73.25,"x":640.5,"y":400.25,"accuracyPx":31.5,"heading":90.0}"#)
        let none = SceneFrame(phase: .nofix, position: nil, center: nil, appearance: nil, offset: ViewOffset(x: 0, y: 0))
        XCTAssertEqual(PNGFrames.jsonLine(file: "frame-000001.png", stamp: none.stamp(sinceStart: 0.25, monotonic: 9)),
                       #"{"file":"frame-000001.png","t":0.25,"state":"nofix","lat":null,"lon":null,"x":null,"y":null,"accuracyPx":null,"heading":null}"#)
    }

    func testFramesLineCarriesTheTripWhileOneIsFollowed() {
        let none = SceneFrame(phase: .nofix, position: nil, center: nil, appearance: nil, offset: ViewOffset(x: 0, y: 0))
        var stamp = none.stamp(sinceStart: 1, monotonic: 9)
        stamp.transit = TransitStamp(trip: "T1", nextStopID: "C", nextStopName: "Dworzec \"Fabryczna\"", distanceAlong: 812.5, atStop: true, offRoute: false)
        XCTAssertEqual(PNGFrames.jsonLine(file: "frame-000002.png", stamp: stamp),
                       #"{"file":"frame-000002.png","t":1.0,"state":"nofix","lat":null,"lon":null,"x":null,"y":null,"accuracyPx":null,"heading":null,"#
                       + #""trip":"T1","nextStopId":"C","nextStop":"Dworzec \"Fabryczna\"","distanceAlong":812.5,"atStop":true,"offRoute":false}"#)
    }

    func testPNGFramesWritesAtItsCadenceAndExtraFramesOnRequest() throws {
        let dir = try TestEnvironment.temporaryDirectory("png-frames")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("deep/frames")
        let frames = try PNGFrames(directory: out.path, width: 4, height: 3, pngFps: 2, now: 100, log: Journal(level: .error))
        let canvas = OwnedPixelBuffer(width: 4, height: 3, format: .xrgb8888)
        canvas.buffer.fill(canvas.buffer.bounds, with: Color(r: 10, g: 20, b: 30))
        let scene = SceneFrame(phase: .stale, position: nil, center: nil, appearance: nil, offset: ViewOffset(x: 0, y: 0))
        XCTAssertTrue(frames.isDue(at: 100))
        try frames.write(canvas.buffer, showing: scene.stamp(sinceStart: 0, monotonic: 100), regular: true)
        XCTAssertFalse(frames.isDue(at: 100.4))
        // An extra frame (SIGUSR1) does not move the cadence.
        try frames.write(canvas.buffer, showing: scene.stamp(sinceStart: 0.4, monotonic: 100.4), regular: false)
        XCTAssertTrue(frames.isDue(at: 100.5))
        try frames.write(canvas.buffer, showing: scene.stamp(sinceStart: 0.5, monotonic: 100.5), regular: true)
        // A late frame does not cause a burst: the next is a period after it.
        try frames.write(canvas.buffer, showing: scene.stamp(sinceStart: 3, monotonic: 103), regular: true)
        XCTAssertFalse(frames.isDue(at: 103.4))
        XCTAssertTrue(frames.isDue(at: 103.5))
        let lines = try String(contentsOf: out.appendingPathComponent("frames.jsonl"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 4)
        XCTAssertTrue(lines[1].hasPrefix(#"{"file":"frame-000002.png","t":0.4,"state":"stale""#), String(lines[1]))
        let image = try PNGRead.rgba(path: out.appendingPathComponent("frame-000004.png").path)
        XCTAssertEqual(image.width, 4)
        XCTAssertEqual(Array(image.rgba.prefix(4)), [10, 20, 30, 255])
    }

    // MARK: Map window

    func testTheWindowShowsTheMapAtTheOffsetAndTheColourAround() throws {
        let dir = try TestEnvironment.temporaryDirectory("map-window")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 6×4 map whose pixel (x, y) has red x·40 and green y·60.
        var rgb: [UInt8] = []
        for y in 0..<4 { for x in 0..<6 { rgb += [UInt8(x * 40), UInt8(y * 60), 7] } }
        let path = dir.appendingPathComponent("map.png").path
        try PNGWrite.rgb(width: 6, height: 4, rgb: rgb, to: path)
        let map = try MapImage(path: path, background: Color(r: 1, g: 2, b: 3))
        XCTAssertEqual(map.byteCount, 6 * 4 * 4)
        XCTAssertTrue(map.summary.hasSuffix("map.png: 6x4, 0.0 MiB in memory (xrgb8888)"), map.summary)

        let colour = Color(r: 200, g: 100, b: 50)
        // A map that covers the canvas is the renderer's background itself: nothing is composed.
        let covering = MapWindow(color: colour, source: map, canvasWidth: 4, canvasHeight: 3)
        XCTAssertTrue(covering.scrolls)
        XCTAssertNil(covering.frame)
        XCTAssertFalse(covering.show(offset: ViewOffset(x: 1, y: 1)))
        guard case .frame(let pixels) = covering.background, pixels === map.pixels else {
            return XCTFail("a covering map is the background as decoded")
        }

        // A smaller one is composed into a canvas-sized frame with the colour around it.
        let window = MapWindow(color: colour, source: map, canvasWidth: 8, canvasHeight: 5)
        XCTAssertFalse(window.scrolls)
        XCTAssertTrue(window.show(offset: ViewOffset(x: -1, y: -1)))
        XCTAssertFalse(window.show(offset: ViewOffset(x: -1, y: -1)), "the same view is not recomposed")
        let frame = try XCTUnwrap(window.frame).buffer
        func rgbAt(_ x: Int, _ y: Int) -> [Int] {
            let p = frame.pixel(x: x, y: y)
            return [Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF)]
        }
        // Canvas (1, 1) is map (0, 0); (6, 4) is map (5, 3); the border row and columns are the colour.
        XCTAssertEqual(rgbAt(1, 1), [0, 0, 7])
        XCTAssertEqual(rgbAt(6, 4), [200, 180, 7])
        XCTAssertEqual(rgbAt(0, 0), [200, 100, 50])
        XCTAssertEqual(rgbAt(7, 2), [200, 100, 50])
        XCTAssertEqual(rgbAt(3, 0), [200, 100, 50])
        // Moved: canvas (0, 0) is now map (2, 1), and what the map no longer covers is the colour.
        XCTAssertTrue(window.show(offset: ViewOffset(x: 2, y: 1)))
        XCTAssertEqual(rgbAt(0, 0), [80, 60, 7])
        XCTAssertEqual(rgbAt(4, 0), [200, 100, 50])
        XCTAssertEqual(rgbAt(0, 3), [200, 100, 50])
        guard case .frame = window.background else { return XCTFail("a small map restores from its composition") }

        let plain = MapWindow(color: colour, source: nil, canvasWidth: 4, canvasHeight: 3)
        XCTAssertNil(plain.frame)
        XCTAssertFalse(plain.show(offset: ViewOffset(x: 5, y: 5)), "a plain map never needs a full redraw to pan")
        guard case .color(let c) = plain.background else { return XCTFail("a plain map restores its colour") }
        XCTAssertEqual(c, colour)
    }

    /// A map that is never whole in memory (how tiles come): composed into the window only when
    /// the view moves, never scrolled.
    final class DrawnMap: MapSource {
        private(set) var composed: [ViewOffset] = []
        var summary: String { "drawn map" }
        var wholeFrame: OwnedPixelBuffer? { nil }
        func compose(into window: PixelBuffer, offset: ViewOffset, background: Color) {
            composed.append(offset)
            window.fill(window.bounds, with: background)
            // One marked pixel at map (10, 10), wherever the window shows it.
            let x = 10 - offset.x, y = 10 - offset.y
            if x >= 0, y >= 0, x < window.width, y < window.height {
                window.fill(Rect(x: x, y: y, width: 1, height: 1), with: Color(r: 9, g: 8, b: 7))
            }
        }
    }

    func testAMapDrawnOnDemandIsComposedOnlyWhenTheViewMoves() throws {
        let map = DrawnMap()
        let window = MapWindow(color: Color(r: 200, g: 100, b: 50), source: map, canvasWidth: 6, canvasHeight: 4)
        XCTAssertFalse(window.scrolls, "nothing to scroll over without a whole frame")
        let frame = try XCTUnwrap(window.frame)
        XCTAssertTrue(window.show(offset: ViewOffset(x: 8, y: 9)))
        XCTAssertFalse(window.show(offset: ViewOffset(x: 8, y: 9)), "the same view is not composed again")
        XCTAssertTrue(window.show(offset: ViewOffset(x: 7, y: 9)))
        XCTAssertEqual(map.composed, [ViewOffset(x: 8, y: 9), ViewOffset(x: 7, y: 9)])
        let pixel = frame.buffer.row(1).assumingMemoryBound(to: UInt32.self)[3]
        XCTAssertEqual(pixel & 0xFFFFFF, 0x090807, "map (10, 10) at canvas (3, 1)")
        guard case .frame = window.background else { return XCTFail("a drawn map restores from its composition") }
    }
}
