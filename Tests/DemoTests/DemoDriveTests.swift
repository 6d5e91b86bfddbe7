@testable import Demo
@testable import Geo
import Location
import XCTest

/// The built-in drive: a bus's lap with its stops and the tunnel's dropout, as a receiver reports it.
final class DemoDriveTests: XCTestCase {
    let drive = DemoDrive()

    private func metres(_ a: MapPoint, _ b: MapPoint) -> Double {
        let dx = a.x - b.x, dy = a.y - b.y
        return (dx * dx + dy * dy).squareRoot() * drive.town.metresPerPixel
    }

    private func mapPoint(_ fix: Fix) -> MapPoint {
        drive.town.projection.point(for: GeoPoint(latitude: fix.latitude, longitude: fix.longitude))
    }

    func testTheSameDriveEveryTime() {
        let again = DemoDrive()
        XCTAssertEqual(again.timeline, drive.timeline)
        XCTAssertEqual(again.samples.map(\.fix), drive.samples.map(\.fix))
    }

    func testOneFixASecondAroundTheLoop() {
        XCTAssertEqual(drive.samples.count, Int(drive.timeline.duration))
        for (i, s) in drive.samples.enumerated() { XCTAssertEqual(s.time, Double(i)) }
        XCTAssertEqual(drive.samples.first?.truth, DemoTown.terminal)
        XCTAssertEqual(drive.timeline.arrives, drive.timeline.duration, accuracy: 1)
        // Ten minutes or so, as a bus takes for 5.5 km with stops.
        XCTAssertGreaterThan(drive.timeline.duration, 560)
        XCTAssertLessThan(drive.timeline.duration, 760)
        let fixes = drive.samples.compactMap(\.fix)
        XCTAssertEqual(fixes.first?.time?.description, "2025-05-14T08:00:00.000Z")
        XCTAssertTrue(fixes.allSatisfy { $0.mode == .threeD })
    }

    func testBusSpeedsAccelerationAndBraking() {
        let speeds = drive.samples.map(\.speed)
        XCTAssertEqual(speeds.max() ?? 0, 12.5, accuracy: 0.01, "45 km/h on the northern arterial")
        for i in 1..<speeds.count {
            let change = speeds[i] - speeds[i - 1]
            XCTAssertLessThanOrEqual(change, DemoDrive.acceleration + 1e-9, "accelerating faster than a bus at \(i) s")
            XCTAssertGreaterThanOrEqual(change, -DemoDrive.deceleration - 0.05, "braking harder than a bus at \(i) s")
            // The truth moves as fast as it says it does.
            let moved = metres(drive.samples[i].truth, drive.samples[i - 1].truth)
            // (The peak between two samples can be half a second of acceleration above both.)
            XCTAssertLessThanOrEqual(moved, max(speeds[i], speeds[i - 1]) + DemoDrive.acceleration / 2, "at \(i) s")
        }
        // Round the corners at walking-bus pace.
        for corner in DemoTown.routeCorners.dropFirst().dropLast() {
            let near = drive.samples.filter { metres($0.truth, corner) < 8 }
            XCTAssertFalse(near.isEmpty)
            XCTAssertTrue(near.allSatisfy { $0.speed <= 4.6 }, "too fast round \(corner)")
        }
        // The reported speed follows the truth.
        for s in drive.samples where s.fix != nil && s.speed > 0.5 {
            XCTAssertEqual(s.fix!.speed!, s.speed, accuracy: 0.2)
        }
    }

    func testTwoStopsOfSeveralSecondsWhereTheStopsAre() {
        let tl = drive.timeline
        for (range, stop) in [(tl.stopA, DemoTown.stopA), (tl.stopB, DemoTown.stopB)] {
            XCTAssertGreaterThanOrEqual(range.upperBound - range.lowerBound, 20)
            let standing = drive.samples.filter { range.contains($0.time) }
            XCTAssertGreaterThanOrEqual(standing.count, 20)
            for s in standing {
                XCTAssertEqual(s.speed, 0)
                XCTAssertLessThan(metres(s.truth, stop), 0.01)
                // A standing receiver: slow enough that no heading is drawn, a position within metres.
                let fix = try! XCTUnwrap(s.fix)
                XCTAssertLessThan(fix.speed!, 1.0)
                XCTAssertLessThan(metres(mapPoint(fix), stop), 3.01)
            }
        }
        XCTAssertLessThan(tl.stopA.upperBound, tl.stopB.lowerBound)
        // The bus waits at the terminal before it leaves.
        XCTAssertTrue(drive.samples.prefix(Int(tl.departs)).allSatisfy { $0.speed == 0 })
    }

    func testTheDropoutRunsFromTheTunnelUntilTheReceiverFindsTheSkyAgain() {
        let tl = drive.timeline
        let missing = drive.samples.filter { $0.fix == nil }.map(\.time)
        // One run of seconds without a fix, and no other.
        XCTAssertEqual(missing.first, tl.lastFixBefore + 1)
        XCTAssertEqual(missing.last, tl.firstFixAfter - 1)
        XCTAssertEqual(missing.count, Int(tl.firstFixAfter - tl.lastFixBefore) - 1)
        XCTAssertGreaterThan(tl.firstFixAfter - tl.lastFixBefore, 2 * DemoDrive.staleAfter,
                             "the dropout must outlast staleAfter well enough to show the stale look")
        // The last fix is at the southern portal, the first after it north of the river.
        let lastBefore = drive.samples[Int(tl.lastFixBefore)]
        let tunnel = Double(DemoTown.tunnelAvenue)
        XCTAssertLessThan(metres(lastBefore.truth, MapPoint(x: tunnel, y: Double(DemoTown.tunnelSouthPortal))), 8)
        let firstAfter = drive.samples[Int(tl.firstFixAfter)]
        XCTAssertEqual(firstAfter.truth.x, tunnel, "the receiver is back before the corner")
        XCTAssertLessThan(firstAfter.truth.y, Double(DemoTown.tunnelNorthPortal))
        XCTAssertGreaterThan(firstAfter.truth.y, DemoTown.terminal.y + 18)
        XCTAssertGreaterThan(tl.leavesTunnel, tl.entersTunnel)
    }

    func testErrorsAreARealReceiversAndThePositionsWanderWithinThem() {
        let tl = drive.timeline
        for s in drive.samples {
            guard let fix = s.fix, let eph = fix.horizontalError else {
                if s.fix != nil { XCTFail("a fix without eph at \(s.time) s") }
                continue
            }
            let sinceBack = s.time - tl.firstFixAfter
            if s.time < tl.lastFixBefore - 8 || sinceBack > 30 {
                XCTAssertGreaterThanOrEqual(eph, 1.5, "at \(s.time) s")
                XCTAssertLessThanOrEqual(eph, 6, "at \(s.time) s")
            }
            // Off by at most a quarter of the error, and never more than 3 m.
            XCTAssertLessThanOrEqual(metres(mapPoint(fix), s.truth), min(eph, 12) / 4 + 1e-6, "at \(s.time) s")
        }
        // Large when the sky comes back (the accuracy disc shows, the halo hides), then settling.
        let back = drive.samples[Int(tl.firstFixAfter)].fix!.horizontalError!
        XCTAssertGreaterThan(back, 50)
        let later = drive.samples[Int(tl.firstFixAfter) + 20].fix!.horizontalError!
        XCTAssertLessThan(later, 10)
        let before = drive.samples[Int(tl.lastFixBefore)].fix!.horizontalError!
        XCTAssertGreaterThan(before, 8, "the error grows at the tunnel's mouth")
    }

    func testLapsFollowOneAnother() {
        let fixes = drive.fixes(laps: 3)
        XCTAssertEqual(fixes.count, 3 * drive.samples.count)
        let lap = drive.samples.count
        XCTAssertEqual(fixes[lap].time, drive.timeline.duration)
        XCTAssertEqual(fixes[lap].fix?.latitude, fixes[0].fix?.latitude)
        XCTAssertEqual(fixes[lap].fix?.time, FixTime(secondsSinceEpoch: DemoDrive.startTime.secondsSinceEpoch + Int64(drive.timeline.duration)))
        for i in 1..<fixes.count { XCTAssertEqual(fixes[i].time - fixes[i - 1].time, 1) }
    }
}
