import Foundation
import TestSupport
import XCTest

/// A stop kiosk moved to another surveyed position by editing its file and SIGHUP: a fixed
/// position hands over its one fix as it starts, so the view drawn after the reload must be the
/// one that gets it — else the dot is gone for good, with nothing more to come.
final class RunReloadPositionTests: XCTestCase {
    func testAReloadToAnotherFixedPositionDrawsTheDotThere() throws {
        let dir = try TestEnvironment.temporaryDirectory("run-reload-position")
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = dir.appendingPathComponent("frames")
        let config = { (position: String) in """
            [source]
            position = \(position)
            \(ConfigSnippet.pngDisplay(frames.path, mode: "320x200", fps: 10, pngFps: 10))
            [map]
            zoom = 16

            """ }
        let daemon = try RunningDaemon(config: config("45.5,-73.6"), in: dir)
        try daemon.waitForFrames(in: frames, "a frame at the first position") { $0.contains { $0.lat == 45.5 } }
        for (i, (lat, lon)) in [(45.51, -73.59), (48.8566, 2.3522)].enumerated() {
            try daemon.reload(config("\(lat),\(lon)"), count: i + 1)
            let before = daemon.frames(in: frames).count
            let seen = try daemon.waitForFrames(in: frames, "frames after reload \(i + 1)") { $0.count >= before + 3 }
            for line in seen.dropFirst(before) {
                XCTAssertEqual(line.state, "live", "\(line)")
                XCTAssertEqual(line.lat, lat, "\(line)")
                XCTAssertEqual(line.lon, lon, "\(line)")
                XCTAssertEqual(line.x, 160, "\(line)")
                XCTAssertEqual(line.y, 100, "\(line)")
            }
        }
        XCTAssertFalse(daemon.log.contains("<6>no fix"), daemon.log)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }
}
