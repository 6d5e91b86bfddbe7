import Backlight
import Foundation
import Metrics
import Syscall
import TestSupport
import XCTest

/// The backlight's rounds on the loop's own thread: each done as it is asked, its answer kept
/// for the loop's next look, each level written noted at its virtual time.
final class InlineBacklight: BacklightPort {
    let sysfs: Sysfs
    let clock: () -> Double
    private var answers: [BacklightAnswer] = []
    private(set) var writes: [(t: Double, percent: Int)] = []
    private(set) var rounds = 0

    init(root: String, clock: @escaping () -> Double) {
        sysfs = Sysfs(root: root)
        self.clock = clock
    }

    func submit(_ request: BacklightRequest) -> Bool {
        rounds += 1
        let answer = BacklightAnswer.exchange(request, sysfs: sysfs)
        if case .success(let percent)? = answer.written { writes.append((clock(), percent)) }
        answers.append(answer)
        return true
    }

    func takeAnswers() -> [BacklightAnswer] {
        defer { answers = [] }
        return answers
    }
}

/// Brightness in the loop on virtual time (virtual 0 s is 08:00 UTC): dimming edges at their
/// minutes, nothing written while the screen is blanked and the level written again after, the
/// sensor's level smoothed and written only when its whole percent changes, a missing backlight
/// said once and found later. Nothing sleeps.
final class BrightnessLoopTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = try TestEnvironment.temporaryDirectory("brightness-loop")
        addTeardownBlock { [root] in try? FileManager.default.removeItem(at: root!) }
    }

    func put(_ relative: String, _ text: String) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    func harness(_ keys: String, blank: String = "none", after: String = "") throws -> (LoopHarness, InlineBacklight) {
        let h = try LoopHarness(config: BlankingLoopTests.config(blank, extra: keys) + after)
        let port = InlineBacklight(root: root.path) { [unowned h] in h.waiting.elapsed }
        h.backlight = port
        return (h, port)
    }

    func assertWrites(_ port: InlineBacklight, _ expected: [(Double, Int)], _ log: String, line: UInt = #line) {
        XCTAssertEqual(port.writes.map(\.percent), expected.map(\.1), log, line: line)
        for (w, e) in zip(port.writes, expected) {
            XCTAssertEqual(w.t, e.0, accuracy: 1.01, "written at \(w.t), not \(e.0)", line: line)
        }
    }

    func testDimmingAtItsMinutesAndNothingWhileBlanked() throws {
        try put("class/backlight/lvds/max_brightness", "200\n")
        try put("class/backlight/lvds/brightness", "200\n")
        let dir = root.appendingPathComponent("m").path
        let (h, port) = try harness("""
            brightness = 80
            dim = 08:02-08:05 30%
            brightnessSmoothing = 0

            """, blank: "08:07-08:09", after: "[metrics]\ntextfile = \(dir).prom\nevery = 10\n")
        var dimmed: MetricsSamples?
        h.waiting.at(200.5) { dimmed = try? MetricsSamples(parsing: String(contentsOfFile: dir + ".prom", encoding: .utf8)) }
        h.waiting.signal(SIGTERM, at: 600)
        XCTAssertEqual(try h.run(), 0)
        // At start, at 08:02, at 08:05, and again when the screen comes back at 08:09 (a blank
        // command may have changed it); nothing between 08:07 and 08:09.
        assertWrites(port, [(0, 80), (120, 30), (300, 80), (540, 80)], h.log)
        XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("class/backlight/lvds/brightness"), encoding: .utf8), "160\n")
        XCTAssertEqual(h.logged("brightness: backlight lvds (max_brightness 200) set to 80 %").count, 1, h.log)
        XCTAssertEqual(try XCTUnwrap(dimmed, h.log).value("pulsedot_backlight_brightness_percent"), 30)
        // A steady level asks nothing of the hardware: no round while nothing changes.
        XCTAssertEqual(port.rounds, 4)
    }

    func testTheSensorsLevelIsSmoothedAndWrittenOnlyWhenItsWholePercentChanges() throws {
        try put("class/backlight/10-0045/max_brightness", "255\n")
        try put("class/backlight/10-0045/brightness", "255\n")
        try put("bus/iio/devices/iio:device0/in_illuminance_raw", "250\n")
        try put("bus/iio/devices/iio:device0/in_illuminance_scale", "2\n")
        let (h, port) = try harness("""
            brightness = ambient
            ambientCurve = 0:0,1000:100
            brightnessSmoothing = 10

            """)
        h.waiting.at(100) { try? self.put("bus/iio/devices/iio:device0/in_illuminance_raw", "450\n") }
        h.waiting.signal(SIGTERM, at: 300)
        XCTAssertEqual(try h.run(), 0)
        let levels = port.writes.map(\.percent)
        // Before the first reading the curve's brightest, then 500 lx = 50 %, smoothed down.
        XCTAssertEqual(levels.first, 100, h.log)
        let climb = port.writes.filter { $0.t > 100 }.map(\.percent)
        XCTAssertEqual(climb.last, 90, "900 lx, settled: \(levels)")
        XCTAssertEqual(climb, climb.sorted(), "up without overshoot: \(climb)")
        XCTAssertEqual(Set(climb).count, climb.count, "each write a new whole percent: \(climb)")
        XCTAssertGreaterThan(climb.count, 10, "a fade, not a jump: \(climb)")
        let settle = try XCTUnwrap(port.writes.first { $0.percent == 90 }).t
        XCTAssertGreaterThan(settle, 130, "about five time constants: \(port.writes)")
        XCTAssertLessThan(settle, 160)
        XCTAssertEqual(levels.filter { $0 == 50 }.count, 1, "settled at 50 before the light changed: \(levels)")
        XCTAssertTrue(port.rounds >= 295, "the sensor read once a second: \(port.rounds)")
    }

    func testAMissingBacklightIsSaidOnceAndFoundWhenItsDriverComes() throws {
        let (h, port) = try harness("""
            brightness = 40
            brightnessSmoothing = 0

            """)
        h.waiting.at(35) {
            try? self.put("class/backlight/rpi_backlight/max_brightness", "255\n")
            try? self.put("class/backlight/rpi_backlight/brightness", "255\n")
        }
        h.waiting.signal(SIGTERM, at: 80)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertEqual(h.logged("brightness: no backlight in \(root.path)/class/backlight").count, 1, h.log)
        let found = try XCTUnwrap(h.logged("brightness: backlight rpi_backlight found (max_brightness 255)").first, h.log)
        XCTAssertLessThanOrEqual(found, 47, "looked for again every 10 s")
        assertWrites(port, [(found - 1, 40)], h.log)
        XCTAssertEqual(port.rounds, 5, "looked for about every 10 s, not every second: \(h.log)")
        XCTAssertGreaterThan(h.display?.presents ?? 0, 150, "the dot drawn all along at 2 fps")
    }
}
