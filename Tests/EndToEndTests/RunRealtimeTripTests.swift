import Foundation
import Glibc
import TestSupport
import XCTest

/// `[transit] trip = realtime`: a bus's display takes its trip from the agency's VehiclePositions
/// feed (kiosk_feeds.py's, over HTTPS), again when the feed names another, and keeps it when the
/// feed stops naming the bus.
final class RunRealtimeTripTests: XCTestCase {
    func testTheTripTheFeedGivesTheVehicleIsFollowedAndReplaced() throws {
        let dir = try TestEnvironment.temporaryDirectory("realtime-trip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let world = try KioskWorld(in: dir)
        let plan = world.plan
        try world.phase(0)
        let producer = try world.produce()
        defer { producer.terminate() }

        let stop3 = plan["stop3"] as! [Double]
        let frames = dir.appendingPathComponent("frames")
        let daemon = try RunningDaemon(config: """
            [source]
            position = \(stop3[0]),\(stop3[1])
            \(ConfigSnippet.pngDisplay(frames.path, mode: "640x480", fps: 10, pngFps: 2))
            [map]
            zoom = 16
            \(world.transitSection(dir, "trip = realtime", "vehicleId = V1"))
            \(world.realtimeSection(["vehiclePositions": "/files/vp.pb"], "every = 5"))
            """, in: dir)
        let first = plan["trip"] as! String, second = plan["skipped"] as! String
        try daemon.waitForLog("transit: trip realtime: vehiclePositions names vehicle V1 on trip \(first)", timeout: 60)
        _ = try daemon.waitForFrames(in: frames, "frames on \(first)") { $0.last?.trip == first }

        try world.phase(2)
        try daemon.waitForLog("transit: trip realtime: vehiclePositions names vehicle V1 on trip \(second)", timeout: 30)
        _ = try daemon.waitForFrames(in: frames, "frames on \(second)") { $0.last?.trip == second }

        // The feed no longer names the bus: said once, the trip kept.
        try world.phase(3)
        try daemon.waitForLog("transit: trip realtime: vehiclePositions does not name vehicle V1 on a trip; trip \(second) is still followed", timeout: 30)
        Thread.sleep(forTimeInterval: 6)
        XCTAssertEqual(daemon.log.components(separatedBy: "does not name vehicle V1").count - 1, 1, daemon.log)
        XCTAssertEqual(daemon.frames(in: frames).last?.trip, second)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log)
    }
}
