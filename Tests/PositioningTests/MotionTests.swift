@testable import Geo
@testable import Positioning
import XCTest

/// Motion checked from the outside: only the fixes, the times and the projection, never the
/// model's own schedule, decide what counts as continuous, on the segment, and reaching a fix.
final class MotionTests: XCTestCase {
    /// Zoom 18 near Zürich: about 0.37 m per pixel, so a bus at 12 m/s moves about half a pixel
    /// per 60 Hz frame.
    static let map = try! MapProjection.webMercator(center: GeoPoint(latitude: 47.3769, longitude: 8.5417), zoom: 18,
                                                    canvasWidth: 1280, canvasHeight: 800)

    struct Fix { let position: GeoPoint; let arrival: Double }

    /// A bus route at 1 Hz: accelerating along a street, a right-angle turn, a stop at a stop,
    /// and on again; arrival times jittered by up to ±80 ms as a real receiver + gpsd deliver.
    static func busRoute() -> [Fix] {
        var fixes: [Fix] = []
        var lat = 47.3769, lon = 8.5417
        var speed = 0.0
        var seed: UInt64 = 12345
        func jitter() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return (Double(seed >> 40) / Double(1 << 24) - 0.5) * 0.16
        }
        let metresPerDegLat = 111_320.0, metresPerDegLon = 111_320.0 * 0.6773
        for second in 0..<120 {
            // 0–20 s accelerate to 12 m/s east; 20–40 s cruise; turn north; 60–70 s brake to a stop;
            // 70–80 s stand; then pull away again.
            switch second {
            case 0..<20: speed = min(12, speed + 0.8)
            case 60..<70: speed = max(0, speed - 1.5)
            case 70..<80: speed = 0
            case 80...: speed = min(10, speed + 1)
            default: break
            }
            if second < 40 { lon += speed / metresPerDegLon } else { lat += speed / metresPerDegLat }
            fixes.append(Fix(position: GeoPoint(latitude: lat, longitude: lon), arrival: 100 + Double(second) + jitter()))
        }
        return fixes
    }

    static func pixel(_ g: GeoPoint) -> MapPoint { map.point(for: g) }

    static func distance(_ a: MapPoint, _ b: MapPoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// Distance from p to the segment a–b, and where along it p lies (0…1, clamped).
    static func toSegment(_ p: MapPoint, _ a: MapPoint, _ b: MapPoint) -> (distance: Double, t: Double) {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        let t = len2 == 0 ? 0 : min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0), 1)
        return (distance(p, MapPoint(x: a.x + t * dx, y: a.y + t * dy)), t)
    }

    /// Runs the model as the daemon would: fixes fed as they arrive, the dot drawn every 1/60 s.
    static func frames(_ fixes: [Fix], model: inout MotionModel, until end: Double, map: MapProjection = map) -> [(t: Double, p: MapPoint)] {
        var out: [(Double, MapPoint)] = []
        var next = 0
        var t = fixes[0].arrival
        while t <= end {
            while next < fixes.count && fixes[next].arrival <= t { model.add(fixes[next].position, arrival: fixes[next].arrival); next += 1 }
            if let g = model.position(at: t) { out.append((t, map.point(for: g))) }
            t += 1.0 / 60
        }
        return out
    }

    /// The three promises, checked from the outside on 60 Hz frames of `fixes`: continuous (no step
    /// over `maxStep` px), on the route (every point on a segment between consecutive fixes, never
    /// beyond one, never going back along the route), and reaching every fix.
    static func assertGlides(_ fixes: [Fix], map: MapProjection, maxStep: Double, file: StaticString = #filePath, line: UInt = #line) {
        var model = MotionModel()
        let frames = Self.frames(fixes, model: &model, until: fixes.last!.arrival + 5, map: map)
        let px = fixes.map { map.point(for: $0.position) }

        var largest = 0.0
        for i in 1..<frames.count { largest = max(largest, distance(frames[i].p, frames[i - 1].p)) }
        XCTAssertLessThan(largest, maxStep, "largest step between 60 Hz frames", file: file, line: line)
        XCTAssertGreaterThan(largest, 0.1, "the dot did move", file: file, line: line)

        var progress = 0.0
        var k0 = 1
        for f in frames {
            // The nearest segment, searched from a little behind the progress so far; ties go to
            // the later segment (a fix is the end of one segment and the start of the next).
            var best = (distance: Double.infinity, along: 0.0)
            for k in max(1, k0 - 2)..<px.count {
                let s = toSegment(f.p, px[k - 1], px[k])
                if s.distance < best.distance - 1e-9 || (s.distance <= best.distance + 1e-9 && Double(k - 1) + s.t >= best.along) {
                    best = (s.distance, Double(k - 1) + s.t)
                }
            }
            // Glides are linear in degrees, the map in Mercator: a diagonal 50 m segment bows by
            // about 1e-5 px. A thousandth of a pixel is "on the segment" for any picture.
            XCTAssertLessThan(best.distance, 1e-3, "frame at \(f.t) is off the route", file: file, line: line)
            XCTAssertGreaterThanOrEqual(best.along, progress - 1e-9, "frame at \(f.t) went backwards", file: file, line: line)
            progress = max(progress, best.along)
            k0 = Int(progress) + 1
        }

        for (k, p) in px.enumerated() {
            let nearest = frames.map { distance($0.p, p) }.min()!
            XCTAssertLessThan(nearest, largest / 2 + 1e-6, "fix \(k) was not reached", file: file, line: line)
        }
        XCTAssertLessThan(distance(frames.last!.p, px.last!), 1e-9, "ends on the last fix", file: file, line: line)
    }

    func testBusRouteAt60HzIsContinuousOnTheSegmentsAndReachesEveryFix() {
        // The bus covers at most 0.5 px per frame at this zoom; glides run 0.5–1.5× real time.
        Self.assertGlides(Self.busRoute(), map: Self.map, maxStep: 1.5)
    }

    /// The lag stays near 1.5 × the fix interval: at any moment the dot shows where the bus was
    /// about 1.5 s earlier, not where it is predicted to be.
    func testDrawnSlightlyInThePast() {
        let fixes = Self.busRoute()
        var model = MotionModel()
        var next = 0
        for probe in stride(from: 122.0, to: 138.0, by: 0.25) { // cruising east at 12 m/s
            while next < fixes.count && fixes[next].arrival <= probe { model.add(fixes[next].position, arrival: fixes[next].arrival); next += 1 }
            let drawnLon = model.position(at: probe)!.longitude
            let newestLon = fixes[next - 1].position.longitude
            let lagMetres = (newestLon - drawnLon) * 111_320 * 0.6773
            // Behind the newest fix by 1.5 s of travel, give or take the jitter and the interpolation.
            XCTAssertGreaterThan(lagMetres, 12 * 0.3, "at \(probe)")
            XCTAssertLessThan(lagMetres, 12 * 2.6, "at \(probe)")
        }
        XCTAssertEqual(model.delay, 1.5, accuracy: 0.05)
    }

    func testAddingAFixNeverChangesThePast() {
        let fixes = Self.busRoute()
        var model = MotionModel()
        for (k, fix) in fixes.enumerated() {
            // The model holds the last 32 glides, so look back 10 s, well inside that.
            let probes = stride(from: max(fixes[0].arrival, fix.arrival - 10), through: fix.arrival, by: 0.05).map { $0 }
            let before = probes.map { model.position(at: $0) }
            model.add(fix.position, arrival: fix.arrival)
            guard k > 0 else { continue }
            let changed = probes.indices.first { before[$0] != model.position(at: probes[$0]) }
            XCTAssertNil(changed, "fix \(k) changed the position drawn at \(changed.map { probes[$0] } ?? 0)")
        }
    }

    func testAFixArrivingLateMakesTheDotWaitThenGlideOnWithoutAStep() {
        var model = MotionModel()
        let east = 12.0 / (111_320 * 0.6773)
        var t = 0.0, lon = 8.5
        for _ in 0..<10 { model.add(GeoPoint(latitude: 47, longitude: lon), arrival: t); t += 1; lon += east }
        // The next fix is 2.5 s late, then the rhythm resumes.
        t += 1.5
        var fixes: [Fix] = []
        for _ in 0..<6 { fixes.append(Fix(position: GeoPoint(latitude: 47, longitude: lon), arrival: t)); t += 1; lon += east }
        var last = Self.pixel(model.position(at: 9)!)
        var frameTime = 9.0
        var next = 0
        var maxStep = 0.0
        while frameTime < t + 3 {
            while next < fixes.count && fixes[next].arrival <= frameTime { model.add(fixes[next].position, arrival: fixes[next].arrival); next += 1 }
            let p = Self.pixel(model.position(at: frameTime)!)
            maxStep = max(maxStep, Self.distance(p, last))
            XCTAssertGreaterThanOrEqual(p.x, last.x - 1e-9, "went backwards at \(frameTime)")
            last = p
            frameTime += 1.0 / 60
        }
        XCTAssertLessThan(maxStep, 1.5)
        XCTAssertEqual(last, Self.pixel(fixes.last!.position))
    }

    func testImplausibleJumpMovesWithoutGliding() {
        var model = MotionModel()
        model.add(GeoPoint(latitude: 47, longitude: 8.5), arrival: 0)
        model.add(GeoPoint(latitude: 47, longitude: 8.50015), arrival: 1) // ~11 m: glides
        let far = GeoPoint(latitude: 47.01, longitude: 8.5) // 1.1 km in 1 s: 1100 m/s
        model.add(far, arrival: 2)
        XCTAssertEqual(model.position(at: 2), far, "the jump shows at once")
        XCTAssertEqual(model.position(at: 2.5), far)
        // Before the jump the glide was under way, untouched.
        let mid = model.position(at: 1.9)!
        XCTAssertGreaterThan(mid.longitude, 8.5)
        XCTAssertLessThan(mid.longitude, 8.50015)
        // Just under the threshold (90 m/s) still glides.
        var fast = MotionModel()
        fast.add(GeoPoint(latitude: 47, longitude: 8.5), arrival: 0)
        let next = GeoPoint(latitude: 47 + 90 / 111_195.0, longitude: 8.5)
        fast.add(next, arrival: 1)
        XCTAssertNotEqual(fast.position(at: 1.5), next)
        XCTAssertEqual(fast.position(at: 10), next)
        // A configured threshold of 50 m/s makes the same move a jump.
        var strict = MotionModel(tuning: { var t = MotionModel.Tuning(); t.maxPlausibleSpeed = 50; return t }())
        strict.add(GeoPoint(latitude: 47, longitude: 8.5), arrival: 0)
        strict.add(next, arrival: 1)
        XCTAssertEqual(strict.position(at: 1), next)
    }

    func testAFixAfterALongSilenceJumps() {
        var model = MotionModel()
        model.add(GeoPoint(latitude: 47, longitude: 8.5), arrival: 0)
        let later = GeoPoint(latitude: 47.0005, longitude: 8.5) // 55 m in 30 s: plausible, but the path is unknown
        model.add(later, arrival: 30)
        XCTAssertEqual(model.position(at: 29.99), GeoPoint(latitude: 47, longitude: 8.5))
        XCTAssertEqual(model.position(at: 30), later)
    }

    func testBurstsAndBackwardsArrivalsStayFiniteAndOnTheLastFix() {
        var model = MotionModel()
        XCTAssertNil(model.position(at: 0))
        XCTAssertNil(model.restsAfter)
        let a = GeoPoint(latitude: 47, longitude: 8.5), b = GeoPoint(latitude: 47.00001, longitude: 8.5)
        let c = GeoPoint(latitude: 47.00002, longitude: 8.5)
        model.add(a, arrival: 5)
        XCTAssertEqual(model.position(at: 4), a, "before the first fix arrived the dot is not elsewhere")
        model.add(b, arrival: 5)
        model.add(c, arrival: 4.9) // backwards: taken as simultaneous
        for t in stride(from: 5.0, to: 8, by: 0.01) {
            let p = model.position(at: t)!
            XCTAssertTrue(p.latitude >= 47 && p.latitude <= 47.00002, "\(t): \(p)")
        }
        XCTAssertEqual(model.position(at: model.restsAfter!), c)
        model.reset()
        XCTAssertNil(model.position(at: 10))
    }

    func testGlidesTheShortWayAcrossTheAntimeridian() {
        var model = MotionModel()
        model.add(GeoPoint(latitude: -17, longitude: 179.9999), arrival: 0)
        model.add(GeoPoint(latitude: -17, longitude: -179.9999), arrival: 1)
        for t in stride(from: 0.0, through: 3, by: 0.05) {
            let lon = model.position(at: t)!.longitude
            XCTAssertGreaterThanOrEqual(abs(lon), 179.9999 - 1e-9, "at \(t) the dot crossed the world: \(lon)")
        }
    }

    /// Many more fixes than the model holds: old glides drop out without disturbing the present.
    func testLongRunsKeepWorking() {
        var model = MotionModel()
        var lat = 47.0
        for i in 0..<1000 {
            model.add(GeoPoint(latitude: lat, longitude: 8.5), arrival: Double(i) * 0.1)
            lat += 0.00001
        }
        XCTAssertEqual(model.delay, 0.15, accuracy: 1e-9)
        XCTAssertEqual(model.position(at: 200)!.latitude, lat - 0.00001, accuracy: 1e-12)
        XCTAssertLessThanOrEqual(model.scheduledGlides.count, 32)
    }
}
