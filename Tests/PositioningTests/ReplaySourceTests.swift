@testable import Geo
import Location
@testable import Positioning
import Syscall
import TestSupport
import XCTest

final class ReplaySourceTests: XCTestCase {
    static func seconds(_ s: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: Int64((s * 1e9).rounded())) }

    static let drive: ReplayLog = try! ReplayLog.parse(Array([
        nmea("GPRMC,235958,A,3925.9702,N,11945.9354,W,45.1,153.1,250905,,,A"),
        nmea("GPRMC,000000,V,,,,,,,260905,,,N"),
        nmea("GPRMC,000002,A,3925.9257,N,11945.9068,W,44.6,153.5,260905,,,A"),
        nmea("GPRMC,000001,A,3925.9257,N,11945.9068,W,44.6,153.5,260905,,,A"),
        nmea("GPRMC,000003,A,3925.9035,N,11945.8925,W,44.6,153.4,260905,,,A"),
    ].joined(separator: "\n").utf8), path: "drive.nmea")

    func testPacedByTheLogsOwnTimesAtRealSpeed() {
        var source = ReplaySource(log: Self.drive, speed: 1, start: Self.seconds(100))
        // The spliced step back plays at once; pacing resumes from there (000001 → 000003 is 2 s).
        XCTAssertEqual(Self.drive.records.map(\.offset), [0, 2, 4, 4, 6])
        XCTAssertEqual(source.nextDue, Self.seconds(100))
        XCTAssertNil(source.next(now: Self.seconds(99.999)), "nothing before its time")
        guard case let .fix(first)? = source.next(now: Self.seconds(100.3)) else { return XCTFail("first fix") }
        XCTAssertEqual(first.receivedAt, Self.seconds(100), "stamped with its due time, not the wake-up time")
        XCTAssertEqual(first.latitude, 39.43283667, accuracy: 1e-8)
        XCTAssertNil(source.next(now: Self.seconds(100.3)))
        XCTAssertEqual(source.nextDue, Self.seconds(102))
        XCTAssertEqual(source.next(now: Self.seconds(102)), .noFix(at: Self.seconds(102)))
        // Late wake-up: everything due comes out, one at a time, in order.
        var due: [MonotonicInstant] = []
        while let event = source.next(now: Self.seconds(200)) {
            guard case let .fix(fix) = event else { return XCTFail("only fixes left") }
            due.append(fix.receivedAt)
        }
        XCTAssertEqual(due, [Self.seconds(104), Self.seconds(104), Self.seconds(106)])
        XCTAssertTrue(source.isFinished)
        XCTAssertNil(source.nextDue)
        XCTAssertNil(source.next(now: Self.seconds(1e6)))
    }

    func testReplaySpeedScalesTheGaps() {
        let fast = ReplaySource(log: Self.drive, speed: 4, start: Self.seconds(10))
        XCTAssertEqual((0..<5).map { fast.due($0) }, [10, 10.5, 11, 11, 11.5].map(Self.seconds))
        let slow = ReplaySource(log: Self.drive, speed: 0.5, start: Self.seconds(10))
        XCTAssertEqual(slow.due(4), Self.seconds(22))
    }

    /// Plays `log` and returns its fixes as they arrive, in seconds.
    static func play(_ log: ReplayLog, speed: Double) -> [MotionTests.Fix] {
        var source = ReplaySource(log: log, speed: speed, start: seconds(1000))
        var fixes: [MotionTests.Fix] = []
        while let due = source.nextDue, let event = source.next(now: due) {
            if case let .fix(f) = event {
                fixes.append(MotionTests.Fix(position: GeoPoint(latitude: f.latitude, longitude: f.longitude),
                                             arrival: Double(f.receivedAt.nanoseconds) / 1e9))
            }
        }
        return fixes
    }

    /// Recorded fixes through the whole chain — file, replay pacing, motion, projection: the
    /// Garmin car's 0.5 Hz drive replayed at speed 2 gives fixes at 1 Hz at up to 50 m/s on the
    /// screen; at zoom 17 (0.55 m/px) the dot glides with no step over a few pixels, stays on the
    /// recorded route and reaches every fix. And the OxTS log at its native 10 Hz.
    func testRecordedFixesGlideAt60Hz() throws {
        let folder = NmeaCorpusTests.folder
        if TestEnvironment.optedOut("corpus") { throw XCTSkip("PULSEDOT_SKIP=corpus") }
        let garmin = try ReplayLog.load(path: folder.appendingPathComponent("NmeaSampleData_first3250lines.txt").path)
        let fixes = Self.play(garmin, speed: 2)
        XCTAssertEqual(fixes.count, 250)
        XCTAssertEqual(fixes[1].arrival - fixes[0].arrival, 1, accuracy: 1e-9)
        let map = try MapProjection.webMercator(center: fixes[0].position, zoom: 17, canvasWidth: 1280, canvasHeight: 800)
        MotionTests.assertGlides(fixes, map: map, maxStep: 3)

        let oxts = try ReplayLog.load(path: folder.appendingPathComponent("rst39.log").path)
        let tenHz = Self.play(oxts, speed: 1)
        XCTAssertEqual(tenHz[2].arrival - tenHz[1].arrival, 0.1, accuracy: 1e-6)
        let close = try MapProjection.webMercator(center: tenHz[0].position, zoom: 19, canvasWidth: 800, canvasHeight: 480)
        MotionTests.assertGlides(tenHz, map: close, maxStep: 3)
    }
}
