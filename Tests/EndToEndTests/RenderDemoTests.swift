import Foundation
import PNG
import TestSupport
import XCTest

/// `pulsedot demo`: the built-in drive rendered to frames, `frames.jsonl` and a contact sheet (its
/// path printed), the files the daemon plays (the town as MBTiles), and `--display` through the
/// daemon's own loop.
final class RenderDemoTests: XCTestCase {
    func testDemoWritesFramesAContactSheetAndWhatTheDaemonPlays() throws {
        let dir = try TestEnvironment.temporaryDirectory("demo").path + "/out/nested"
        let run = try runProgram(try TestEnvironment.pulsedotBinary(), ["demo", "--out", dir])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, dir + "/contact-sheet.png\n")
        let sheet = try PNGRead.rgba(path: dir + "/contact-sheet.png")
        XCTAssertEqual(sheet.width, 4 * 360 + 5 * 4)
        XCTAssertEqual(sheet.height, 3 * 270 + 4 * 4)
        XCTAssertEqual(try PNGRead.rgba(path: dir + "/dot-cycle.png").height, 248)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/map.png"), "the map is tiles now")

        // One lap of 60 s at 2 frames a second, each frame with its line.
        let frames = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("frame-") }.sorted()
        let lines = try DemoRecord.read(dir + "/frames.jsonl")
        XCTAssertEqual(frames.count, lines.count)
        XCTAssertGreaterThanOrEqual(lines.count, 121)
        XCTAssertEqual(frames.first, "frame-000001.png")
        try DemoRecord.checkLiveStaleLive(lines, drive: try DemoRecord.drive(dir + "/drive.json"))

        // The configuration it wrote plays with the daemon (checked as check-config reads it), the
        // map a tile set of the town.
        let check = try runProgram(try TestEnvironment.pulsedotBinary(), ["check-config", dir + "/demo.conf"])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.contains("replay = \(dir)/drive.json"), check.stdout)
        XCTAssertTrue(check.stdout.contains("\ntiles = \(dir)/town.mbtiles\n"), check.stdout)
        XCTAssertTrue(check.stdout.contains("# map tiles \(dir)/town.mbtiles: MBTiles, PNG tiles of 256 px, zooms 17–17 (shown: 17), 192 tiles\n"),
                      check.stdout)
        try checkFramesShowTheTownsTiles(dir: dir, frames: frames, lines: lines)
    }

    /// Every few frames: the trip's line on the screen, and the frame's bottom-left corner (away
    /// from the dot, the banner at the top and the credit at the bottom right) the file's own
    /// tiles at the offset the drawn position gives, where the trip's line is not drawn over
    /// them, so the view follows the bus across the town's tiles, each in its place and none missing.
    private func checkFramesShowTheTownsTiles(dir: String, frames: [String], lines: [DemoRecord.Line]) throws {
        let town = try DemoTownFile(path: dir + "/town.mbtiles")
        XCTAssertEqual(town.range.columns * town.range.rows, try town.file.tileCount())
        XCTAssertEqual(town.set.metadata.attribution, "Made-up town © PulseDot")
        var corners = Set<Int>()
        var compared = 0
        for k in stride(from: 0, to: frames.count, by: 4) where lines[k].state != "nofix" {
            let frame = try ScreenImage.read(dir + "/" + frames[k])
            XCTAssertEqual(frame.width, 1280)
            let line = (frame.centroid(of: Self.route, tolerance: 2)?.count ?? 0) + (frame.centroid(of: Self.travelled, tolerance: 2)?.count ?? 0)
            XCTAssertGreaterThan(line, 400, "no trip's line in \(frames[k])")
            let l = lines[k]
            let offset = town.offset(latitude: try XCTUnwrap(l.lat), longitude: try XCTUnwrap(l.lon),
                                     x: try XCTUnwrap(l.x), y: try XCTUnwrap(l.y))
            var wrong = 0
            for y in stride(from: 800 - 96, to: 800, by: 4) {
                for x in stride(from: 0, to: 96, by: 4) {
                    if try Self.nearTheBusLine(town, offset.x + x, offset.y + y) { continue }
                    compared += 1
                    let p = frame.pixel(x, y)
                    if UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b) != (try town.pixel(offset.x + x, offset.y + y)) { wrong += 1 }
                }
            }
            XCTAssertEqual(wrong, 0, "\(frames[k]) is not the town's tiles at \(offset)")
            corners.insert((offset.y + 800 - 96) / 256 * town.range.columns + offset.x / 256)
        }
        XCTAssertGreaterThan(compared, corners.count * 200, "the corners hardly ever off the line")
        XCTAssertGreaterThanOrEqual(corners.count, 15, "the view hardly moved across the town")
    }

    /// The trip's line ahead of the bus (the feed's route_color) and behind it (faded toward grey).
    static let route = (0xAF, 0x52, 0xDE), travelled = (0xA6, 0x81, 0xB9)

    /// Whether the map's own bus line (its core in orange) runs within 24 px of (`x`, `y`): the
    /// trip's line, its casing and its stops are drawn over it that far out at scale 2. Looked for
    /// every 4 px, closer than the core is wide.
    private static func nearTheBusLine(_ town: DemoTownFile, _ x: Int, _ y: Int) throws -> Bool {
        let orange = UInt32(DemoDisplayTests.line.0 << 16 | DemoDisplayTests.line.1 << 8 | DemoDisplayTests.line.2)
        for dy in stride(from: -24, through: 24, by: 4) {
            for dx in stride(from: -24, through: 24, by: 4) {
                if try town.pixel(x + dx, y + dy) == orange { return true }
            }
        }
        return false
    }

    /// The README's command runs it with no options: ./pulsedot-demo in the current directory.
    func testDefaultDirectoryIsInTheCurrentDirectory() throws {
        let cwd = try TestEnvironment.temporaryDirectory("demo-cwd")
        let child = try ChildProcess(try TestEnvironment.pulsedotBinary(), ["demo"], workDirectory: cwd)
        XCTAssertEqual(child.wait(timeout: 180), 0, child.stderr)
        XCTAssertEqual(child.stdout, "./pulsedot-demo/contact-sheet.png\n")
        XCTAssertEqual(try PNGRead.rgba(path: cwd.path + "/pulsedot-demo/contact-sheet.png").height, 826)
    }

    func testDemoRefusesABadSetting() throws {
        let dir = try TestEnvironment.temporaryDirectory("demo").path
        let run = try runProgram(try TestEnvironment.pulsedotBinary(), ["demo", "--out", dir, "--set", "colorDotInset=11"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertEqual(run.stderr, "pulsedot: demo: colorDotInset = 11: out of range (0 ≤ value < 11)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/demo.conf"), "files written despite the error")

        let seconds = try runProgram(try TestEnvironment.pulsedotBinary(), ["demo", "--out", dir, "--seconds", "2"])
        XCTAssertEqual(seconds.stderr, "pulsedot: demo: --seconds 2: expected a number from 5.0 to 600.0\n")
        let source = try runProgram(try TestEnvironment.pulsedotBinary(), ["demo", "--out", dir, "--set", "source.position=45.5,-73.6"])
        XCTAssertEqual(source.stderr, "pulsedot: demo: the demo plays its own drive: [source] cannot be overridden\n")
    }

    /// `--display` is the daemon's own loop on the demo's configuration: with a headless output
    /// (`--set display.output=png:DIR`) it runs in real time, goes stale in the tunnel and live
    /// again, and stops on SIGTERM.
    func testDisplayRunsTheDaemonLoopUntilSIGTERM() throws {
        let dir = try TestEnvironment.temporaryDirectory("demo-display").path
        let child = try ChildProcess(try TestEnvironment.pulsedotBinary(),
                                     ["demo", "--display", "--out", dir, "--seconds", "8",
                                      "--set", "display.output=png:\(dir)/live", "--set", "display.pngFps=8",
                                      "--set", "display.mode=480x320"])
        defer { child.terminate() }
        // A lap takes 8 s; the fix is back after about 7 s of it, and the second lap's run is told
        // soon after it begins (however slowly this machine runs).
        let second = ChildProcess.waitUntil(timeout: 120) {
            child.stderr.components(separatedBy: "<5>transit: trip auto: 12-0800@").count == 3 || !child.isRunning
        }
        XCTAssertTrue(second && child.isRunning, child.stderr)
        Thread.sleep(forTimeInterval: 0.5)
        child.signal(SIGTERM)
        XCTAssertEqual(child.wait(timeout: 30), 0, child.stderr)
        let log = child.stderr
        XCTAssertTrue(log.contains("configuration \(dir)/demo.conf"), log)
        XCTAssertTrue(log.contains("<6>map \(dir)/town.mbtiles: PNG tiles of 256 px, zoom 17 of 17–17, 16x12 tiles in view range"), log)
        XCTAssertTrue(log.contains("<5>first fix at "), log)
        XCTAssertTrue(log.contains("<4>no fix for "), log)
        XCTAssertTrue(log.contains("<6>stopped after "), log)
        // The town's feed imported on the transit worker; each lap told from the fixes as the next
        // run of its trip, followed, and let go at the terminus.
        // The runs a lap apart, as the demo's frequencies.txt says: 08:00:00 and one headway later.
        let period = try String(contentsOfFile: dir + "/town-gtfs/frequencies.txt", encoding: .utf8)
            .split(separator: "\n")[1].split(separator: ",")
        XCTAssertEqual(period[1], "08:00:00")
        let headway = try XCTUnwrap(Int(period[3]))
        for start in [8 * 3600, 8 * 3600 + headway] {
            let run = String(format: "%02d:%02d:%02d", start / 3600, start / 60 % 60, start % 60)
            XCTAssertTrue(log.contains("<5>transit: trip auto: 12-0800@\(run) (route 12 – Boucle du Parc) to Terminus Belvédère, 7 stops; "), log)
        }
        XCTAssertTrue(log.contains("<5>transit: arrived at Place d'Armes (stop 5 of 7)"), log)
        XCTAssertTrue(log.contains("<5>transit: trip auto: trip 12-0800 reached its terminus; looking for the trip from the fixes again"), log)
        XCTAssertTrue(log.contains("<5>fix again"), log)
        let lines = try DemoRecord.read(dir + "/live/frames.jsonl")
        try DemoRecord.checkLiveStaleLive(lines, drive: try DemoRecord.drive(dir + "/drive.json"))
    }
}

/// Reading what the demo wrote: `frames.jsonl` lines and the fixes of `drive.json`.
enum DemoRecord {
    struct Line {
        let state: String
        let lat: Double?
        let lon: Double?
        /// The dot's centre on the canvas.
        let x: Double?
        let y: Double?
    }

    static func read(_ path: String) throws -> [Line] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { text in
            let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            return Line(state: o["state"] as? String ?? "?", lat: o["lat"] as? Double, lon: o["lon"] as? Double,
                        x: o["x"] as? Double, y: o["y"] as? Double)
        }
    }

    /// The first lap's fixes in order (nil: a second without one).
    static func drive(_ path: String) throws -> [(lat: Double, lon: Double)?] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { text in
            let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            guard let lat = o["lat"] as? Double, let lon = o["lon"] as? Double else { return nil }
            return (lat, lon)
        }
    }

    /// live → stale → live, every drawn position on the drive's track (the dot glides along the
    /// segments between fixes and never beyond them), and the stale dot where the last fix left it.
    static func checkLiveStaleLive(_ lines: [Line], drive: [(lat: Double, lon: Double)?],
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        var states: [String] = []
        // (A loop that draws before the replay's first fix is due begins with `nofix`.)
        for l in lines where states.last != l.state && l.state != "nofix" { states.append(l.state) }
        XCTAssertEqual(Array(states.prefix(3)), ["live", "stale", "live"], file: file, line: line)
        let fixes = drive.compactMap { $0 }
        let lastBefore = try XCTUnwrap(drive.firstIndex { $0 == nil }.flatMap { drive[$0 - 1] })
        for l in lines where l.state != "nofix" {
            let lat = try XCTUnwrap(l.lat, file: file, line: line), lon = try XCTUnwrap(l.lon, file: file, line: line)
            XCTAssertLessThan(distanceToTrack(lat, lon, fixes), 0.5, "the dot is off the drive at \(lat),\(lon)", file: file, line: line)
            if l.state == "stale" {
                XCTAssertEqual(lat, lastBefore.lat, accuracy: 1e-9, file: file, line: line)
                XCTAssertEqual(lon, lastBefore.lon, accuracy: 1e-9, file: file, line: line)
            }
        }
    }

    /// Metres from a position to the nearest segment between consecutive fixes (a local flat
    /// projection: the town is 3.4 km across).
    static func distanceToTrack(_ lat: Double, _ lon: Double, _ fixes: [(lat: Double, lon: Double)]) -> Double {
        let mLat = 111_132.0, mLon = 111_320.0 * cos(lat * .pi / 180)
        var best = Double.infinity
        for i in 0..<(fixes.count - 1) {
            let ax = (fixes[i].lon - lon) * mLon, ay = (fixes[i].lat - lat) * mLat
            let bx = (fixes[i + 1].lon - lon) * mLon, by = (fixes[i + 1].lat - lat) * mLat
            let dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy
            let f = len2 > 0 ? min(max(-(ax * dx + ay * dy) / len2, 0), 1) : 0
            let px = ax + dx * f, py = ay + dy * f
            best = min(best, (px * px + py * py).squareRoot())
        }
        return best
    }
}
