import Foundation
import PNG
import TestSupport

/// The headless render of the kiosk's state: the same binary on the host, the same map, look and
/// screen size, the position given directly instead of through gpsd, frames to PNG
/// (`png:` output, via the run tests' RunningDaemon). Where it draws the dot is where the kiosk
/// must draw it.
struct HeadlessKiosk {
    let sighting: DotSighting
    /// The daemon's own record of where it drew the dot (frames.jsonl).
    let frame: FrameLine

    static func render(_ fix: NMEA.Fix, route: FieldRoute, color: String, width: Int, height: Int) throws -> HeadlessKiosk {
        let dir = try TestEnvironment.temporaryDirectory("field-headless")
        defer { try? FileManager.default.removeItem(at: dir) }
        try PNGWrite.rgb(width: FieldRoute.mapWidth, height: FieldRoute.mapHeight, rgb: route.mapImage(),
                         to: dir.appendingPathComponent("map.png").path)
        let frames = dir.appendingPathComponent("frames")
        let config = route.configuration(
            color: color, staleAfter: FieldTrial.staleAfter,
            source: String(format: "position = %.9f,%.9f", fix.latitude, fix.longitude),
            image: "map.png", output: "output = png:\(frames.path)\nmode = \(width)x\(height)\npngFps = 2")
        let daemon = try RunningDaemon(config: config, in: dir)
        defer { _ = daemon.stop() }
        // After the entrance pop (0.3 s), so the dot has its full size.
        func settled(_ line: FrameLine) -> Bool { line.state == "live" && line.t >= 0.5 }
        let lines = try daemon.waitForFrames(in: frames, timeout: 60, "a live frame after the pop") { $0.contains(where: settled) }
        guard let live = lines.first(where: settled) else { throw TestFailure("no live frame") }
        let image = try PNGRead.rgba(path: frames.appendingPathComponent(live.file).path)
        guard let seen = image.findDot(DotColor(hex: color, name: "headless \(color)")) else {
            throw TestFailure("no dot in the headless render \(live)")
        }
        return HeadlessKiosk(sighting: seen, frame: live)
    }
}
