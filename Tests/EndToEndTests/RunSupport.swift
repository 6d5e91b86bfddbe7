import Foundation
import Glibc
import TestSupport
import XCTest

/// `pulsedot run` as a child process with its own configuration file, and what it says: the log
/// on stderr and, with `png:`, `frames.jsonl`.
final class RunningDaemon {
    let child: ChildProcess
    let directory: URL
    let configPath: String

    /// Writes `config` to DIR/pulsedot.conf and starts `pulsedot run --config` on it.
    init(config: String, in directory: URL, extra: [String] = [], environment: [String: String] = [:]) throws {
        self.directory = directory
        configPath = directory.appendingPathComponent("pulsedot.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        child = try ChildProcess(try TestEnvironment.pulsedotBinary(), ["run", "--config", configPath] + extra,
                                 environment: environment, label: "pulsedot run")
    }

    deinit { child.terminate() }

    var log: String { child.stderr }
    var isRunning: Bool { child.isRunning }

    /// Replaces the configuration file (for SIGHUP).
    func rewrite(_ config: String) throws {
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// Waits until the log has a line containing `text` (after `count` earlier ones).
    @discardableResult
    func waitForLog(_ text: String, occurrences: Int = 1, timeout: Double = 20) throws -> String {
        let ok = ChildProcess.waitUntil(timeout: timeout) {
            self.log.components(separatedBy: text).count - 1 >= occurrences || !self.child.isRunning
        }
        guard ok, log.components(separatedBy: text).count - 1 >= occurrences else {
            throw TestFailure("pulsedot run did not log \"\(text)\" within \(timeout) s (running: \(isRunning)); log:\n\(log)")
        }
        return log
    }

    /// The frames written so far (png: output in `frames`).
    func frames(in frames: URL) -> [FrameLine] {
        guard let text = try? String(contentsOf: frames.appendingPathComponent("frames.jsonl"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { FrameLine(json: String($0)) }
    }

    /// Waits until `condition` holds for the frames written so far; returns them.
    @discardableResult
    func waitForFrames(in dir: URL, timeout: Double = 30, _ what: String,
                       _ condition: ([FrameLine]) -> Bool) throws -> [FrameLine] {
        var seen: [FrameLine] = []
        let ok = ChildProcess.waitUntil(timeout: timeout) {
            seen = self.frames(in: dir)
            return condition(seen) || !self.child.isRunning
        }
        guard ok, condition(seen) else {
            throw TestFailure("frames: \(what) not seen within \(timeout) s (running: \(isRunning), \(seen.count) frames, last \(seen.last.map { "\($0)" } ?? "none")); log:\n\(log)")
        }
        return seen
    }

    /// SIGTERM, then the exit status and how long the exit took.
    func stop(timeout: Double = 10) -> (status: Int32?, seconds: Double) {
        let start = Date()
        child.signal(SIGTERM)
        let status = child.wait(timeout: timeout)
        return (status, Date().timeIntervalSince(start))
    }
}

/// One line of `frames.jsonl`.
struct FrameLine: CustomStringConvertible {
    let file: String
    let t: Double
    let state: String
    let lat: Double?, lon: Double?
    let x: Double?, y: Double?
    let accuracyPx: Double?
    let heading: Double?
    /// The trip followed; nil: none.
    let trip: String?

    init?(json: String) {
        guard let o = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let file = o["file"] as? String, let t = o["t"] as? Double, let state = o["state"] as? String else { return nil }
        self.file = file
        self.t = t
        self.state = state
        lat = o["lat"] as? Double
        lon = o["lon"] as? Double
        x = o["x"] as? Double
        y = o["y"] as? Double
        accuracyPx = o["accuracyPx"] as? Double
        heading = o["heading"] as? Double
        trip = o["trip"] as? String
    }

    var description: String {
        "\(file) t=\(t) \(state) \(lat.map { "\($0)" } ?? "-"),\(lon.map { "\($0)" } ?? "-") at \(x.map { "\($0)" } ?? "-"),\(y.map { "\($0)" } ?? "-")"
    }
}

/// The test's own Web Mercator (Foundation's libm, independent of the product's libm-free one):
/// the tile scheme with `center` at the canvas centre.
struct TestMercator {
    let center: (lat: Double, lon: Double)
    let zoom: Double
    let width: Double, height: Double

    func pixel(lat: Double, lon: Double) -> (x: Double, y: Double) {
        let world = 256 * pow(2, zoom)
        func mx(_ lon: Double) -> Double { (lon + 180) / 360 }
        func my(_ lat: Double) -> Double {
            let s = sin(lat * .pi / 180)
            return 0.5 - log((1 + s) / (1 - s)) / (4 * .pi)
        }
        return ((mx(lon) - mx(center.lon)) * world + width / 2, (my(lat) - my(center.lat)) * world + height / 2)
    }
}

/// A route of fixes and the points between them, for "is this drawn position on the route?".
struct Route {
    var points: [(lat: Double, lon: Double)]

    /// Distance in degrees (fine over a few hundred metres) from `p` to the nearest segment.
    func distance(lat: Double, lon: Double) -> Double {
        guard points.count > 1 else { return points.first.map { hypot($0.lat - lat, $0.lon - lon) } ?? .infinity }
        var best = Double.infinity
        for (a, b) in zip(points, points.dropFirst()) {
            let dx = b.lon - a.lon, dy = b.lat - a.lat
            let len2 = dx * dx + dy * dy
            let u = len2 == 0 ? 0 : max(0, min(1, ((lon - a.lon) * dx + (lat - a.lat) * dy) / len2))
            best = min(best, hypot(a.lon + u * dx - lon, a.lat + u * dy - lat))
        }
        return best
    }
}
