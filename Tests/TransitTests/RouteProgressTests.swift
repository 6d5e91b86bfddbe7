import Foundation
import Transit
import XCTest

/// RouteProgress's rules one at a time on a straight 2 km street: a stop nobody may use is
/// passed unannounced, a stop driven by at speed is passed, two stops 15 m apart are each
/// arrived at, one wild fix is not leaving the route, a receiver without speed still arrives.
final class RouteProgressTests: XCTestCase {
    static let origin = (lat: 51.77, lon: 19.47)
    static let metresPerDegreeLon = 111_320.0 * cos(origin.lat * .pi / 180)

    static func at(_ x: Double, _ y: Double = 0) -> (Double, Double) {
        (origin.lat + y / 111_320.0, origin.lon + x / metresPerDegreeLon)
    }

    static let line = ShapeLine(points: stride(from: 0.0, through: 2000, by: 100).map { x in
        let p = at(x)
        return ShapeLine.Point(latitude: p.0, longitude: p.1)
    })

    /// Stops at these metres; the one at 900 m has pickup and drop-off both 1.
    static let stops: [Double] = [200, 500, 515, 900, 1400, 2000]
    static let announced = [true, true, true, false, true, true]

    /// Fixes every second: (x, y, speed).
    func run(_ path: [(Double, Double, Double?)], _ progress: inout RouteProgress) -> [RouteProgress.Update] {
        path.enumerated().map { i, p in
            let g = Self.at(p.0, p.1)
            return progress.update(RouteProgress.Fix(latitude: g.0, longitude: g.1, speed: p.2, time: Double(i)))
        }
    }

    /// Driving at 10 m/s, stopping 10 s at every announced stop except 1400 m, which it drives by.
    func path(stopAt: Set<Double>, speed: Double? = nil, wild: Int? = nil) -> [(Double, Double, Double?)] {
        var out: [(Double, Double, Double?)] = []
        var x = 0.0
        var stopsLeft = Self.stops.filter { stopAt.contains($0) }
        while x <= 2000 {
            if let s = stopsLeft.first, x >= s {
                for _ in 0..<10 { out.append((s, 0, speed.map { _ in 0.2 })) }
                stopsLeft.removeFirst()
            }
            out.append((x, out.count == wild ? 300 : 0, speed))
            x += 10
        }
        for s in stopsLeft { for _ in 0..<10 { out.append((s, 0, speed.map { _ in 0.2 })) } }
        return out
    }

    func events(_ updates: [RouteProgress.Update]) -> [RouteProgress.Event] { updates.flatMap { $0.events } }

    func testAStopNobodyUsesIsPassedUnannouncedAndOneDrivenByIsPassed() {
        var progress = RouteProgress(line: Self.line, stopDistances: Self.stops, announced: Self.announced)
        let updates = run(path(stopAt: [200, 500, 515, 2000], speed: 10), &progress)
        XCTAssertEqual(events(updates), [.arrived(0), .departed(0), .arrived(1), .departed(1), .arrived(2), .departed(2), .passed(4), .arrived(5)])
        var next: [Int?] = []
        for u in updates where next.last != .some(u.nextStop) { next.append(u.nextStop) }
        XCTAssertEqual(next, [0, 1, 2, 4, 5, nil])
        XCTAssertFalse(updates.contains { $0.atStop == 3 || $0.nextStop == 3 })
        XCTAssertEqual(updates.last?.atStop, 5)
        XCTAssertEqual(updates.last?.distance ?? 0, 2000, accuracy: 0.5)
    }

    /// Without speeds in the fixes, the speed between fixes decides what is slow.
    func testFixesWithoutSpeedStillArrive() {
        var progress = RouteProgress(line: Self.line, stopDistances: Self.stops, announced: Self.announced)
        let updates = run(path(stopAt: [200, 500, 515, 1400, 2000]), &progress)
        XCTAssertEqual(events(updates).filter { if case .arrived = $0 { return true } else { return false } },
                       [.arrived(0), .arrived(1), .arrived(2), .arrived(4), .arrived(5)])
    }

    /// One fix 300 m off (a multipath jump) is not leaving the route, and its distance is not taken.
    func testOneWildFixIsNotOffRoute() {
        var progress = RouteProgress(line: Self.line, stopDistances: Self.stops, announced: Self.announced)
        let drive = path(stopAt: [200, 500, 515, 1400, 2000], speed: 10, wild: 40)
        let updates = run(drive, &progress)
        XCTAssertFalse(events(updates).contains(.offRoute))
        XCTAssertTrue(updates[40].offset! > 250)
        XCTAssertEqual(updates[40].distance, updates[39].distance)
        XCTAssertFalse(updates[40].offRoute)
        var strict = RouteProgress.Settings()
        strict.confirmFixes = 1
        var eager = RouteProgress(line: Self.line, stopDistances: Self.stops, announced: Self.announced, settings: strict)
        XCTAssertEqual(events(run(drive, &eager)).filter { $0 == .offRoute || $0 == .backOnRoute }, [.offRoute, .backOnRoute])
    }

    /// Before the first fix near the line nothing is known: off route, no distance, no stop.
    func testFarFromTheRouteAtStartIsOffRouteWithoutADistance() {
        var progress = RouteProgress(line: Self.line, stopDistances: Self.stops, announced: Self.announced)
        let updates = run([(500, 400, 10), (500, 300, 10), (500, 5, 0.5)], &progress)
        XCTAssertEqual(updates.map { $0.offRoute }, [true, true, false])
        XCTAssertEqual(updates.map { $0.distance == nil }, [true, true, false])
        XCTAssertEqual(updates[2].events, [.passed(0), .arrived(1)])
    }
}
