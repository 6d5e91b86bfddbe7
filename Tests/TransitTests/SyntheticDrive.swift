import Foundation
import Transit

/// A vehicle driven along a trip's line, one fix a second: 10 m/s between stops, a slow dwell
/// at each announced stop, every fix moved by up to 15 m of deterministic noise, optionally a
/// stretch driven parallel to the route far off it. The geometry is the test's own (great-circle
/// metres over the raw points), not the code under test's.
struct SyntheticDrive {
    struct Detour {
        /// Metres along the route where the vehicle leaves it and where it is back.
        let from: Double
        let to: Double
        /// Metres to the left (negative: right) at full distance, reached after `ramp` metres.
        let side: Double
        let ramp: Double

        func offset(at d: Double) -> Double {
            guard d > from, d < to else { return 0 }
            return side * min(1, (d - from) / ramp, (to - d) / ramp)
        }
    }

    struct Sample {
        let fix: RouteProgress.Fix
        let distance: Double
        /// The dwell this fix belongs to (the stop's index), and whether it is the dwell's first fix.
        let dwelling: Int?
        let dwellStart: Bool
    }

    let points: [(lat: Double, lon: Double)]
    let cumulative: [Double]

    init(points: [(lat: Double, lon: Double)]) {
        self.points = points
        var c = [0.0]
        for i in 1..<points.count { c.append(c[i - 1] + Self.meters(points[i - 1], points[i])) }
        cumulative = c
    }

    var length: Double { cumulative.last! }

    static func meters(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
        let r = 6_371_008.8, p1 = a.lat * .pi / 180, p2 = b.lat * .pi / 180
        let dp = p2 - p1, dl = (b.lon - a.lon) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(min(1, h.squareRoot()))
    }

    /// The point `d` metres along, moved `left` metres to the left of the direction of travel.
    func position(at d: Double, left: Double = 0) -> (lat: Double, lon: Double) {
        var i = 0, high = points.count - 2
        while i < high {
            let middle = (i + high) / 2
            if cumulative[middle + 1] < d { i = middle + 1 } else { high = middle }
        }
        let span = cumulative[i + 1] - cumulative[i]
        let t = span > 0 ? min(max((d - cumulative[i]) / span, 0), 1) : 0
        let a = points[i], b = points[i + 1]
        let lat = a.lat + (b.lat - a.lat) * t, lon = a.lon + (b.lon - a.lon) * t
        guard left != 0, span > 0 else { return (lat, lon) }
        let mLat = 111_320.0, mLon = 111_320.0 * cos(lat * .pi / 180)
        let east = (b.lon - a.lon) * mLon / span, north = (b.lat - a.lat) * mLat / span
        return (lat + east * left / mLat, lon - north * left / mLon)
    }

    /// Metres from a position to the nearest point of the whole line (each segment flattened at the position).
    func clearance(_ p: (lat: Double, lon: Double)) -> Double {
        let mLat = 111_320.0, mLon = 111_320.0 * cos(p.lat * .pi / 180)
        var best = Double.infinity
        for i in 0..<(points.count - 1) {
            let ax = (points[i].lon - p.lon) * mLon, ay = (points[i].lat - p.lat) * mLat
            let bx = (points[i + 1].lon - p.lon) * mLon, by = (points[i + 1].lat - p.lat) * mLat
            let dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy
            let t = l2 > 0 ? min(max(-(ax * dx + ay * dy) / l2, 0), 1) : 0
            best = min(best, hypot(ax + t * dx, ay + t * dy))
        }
        return best
    }

    /// Where each stop lies along the line by the test's own reckoning: the nearest point at or
    /// after the previous stop's, searched in 1 m steps.
    func stopDistances(_ stops: [(lat: Double, lon: Double)]) -> [Double] {
        var result: [Double] = []
        var from = 0.0
        for stop in stops {
            var best = (meters: Double.infinity, at: from)
            var d = from
            while d <= length {
                let m = Self.meters(stop, position(at: d))
                if m < best.meters { best = (m, d) }
                d += 1
            }
            result.append(best.at)
            from = best.at
        }
        return result
    }

    /// The fixes: from the line's start to its end, dwelling `dwell` fixes at each stop in `dwellAt`.
    func fixes(dwellAt: [(index: Int, distance: Double)], speed: Double = 10, dwell: Int = 20, noise: Double = 15,
               seed: UInt64, detour: Detour? = nil, start: Double = 1_000_000) -> [Sample] {
        var random = seed
        func next() -> Double {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(random >> 11) / Double(1 << 53)
        }
        var samples: [Sample] = []
        var time = start
        var d = 0.0
        func emit(_ at: Double, speed: Double, dwelling: Int?, first: Bool) {
            let base = position(at: at, left: detour?.offset(at: at) ?? 0)
            let angle = next() * 2 * .pi, radius = next() * noise
            let lat = base.lat + radius * sin(angle) / 111_320.0
            let lon = base.lon + radius * cos(angle) / (111_320.0 * cos(base.lat * .pi / 180))
            samples.append(Sample(fix: RouteProgress.Fix(latitude: lat, longitude: lon, speed: speed, time: time),
                                  distance: at, dwelling: dwelling, dwellStart: first))
            time += 1
        }
        var targets = dwellAt
        while d < length {
            if let stop = targets.first, d >= stop.distance {
                for k in 0..<dwell { emit(stop.distance, speed: 0.3, dwelling: stop.index, first: k == 0) }
                targets.removeFirst()
                continue
            }
            emit(d, speed: speed, dwelling: nil, first: false)
            let step = min(d + speed, targets.first?.distance ?? length, length)
            d = step > d ? step : d + speed
        }
        for stop in targets {
            for k in 0..<dwell { emit(min(stop.distance, length), speed: 0.3, dwelling: stop.index, first: k == 0) }
        }
        return samples
    }
}

/// What RouteProgress made of a drive.
struct DriveOutcome {
    var arrivals: [(stop: Int, time: Double)] = []
    var departures: [Int] = []
    var passed: [Int] = []
    var offRoute = 0
    var backOnRoute = 0
    /// Each distinct next stop in turn (nil when there is none any more).
    var nextStops: [Int?] = []
    var backwards = 0.0
    var secondsPerFix = 0.0
    var firstAtStop: Int?

    init(_ samples: [SyntheticDrive.Sample], progress: inout RouteProgress) {
        var last: Double?
        let started = Date()
        var updates: [RouteProgress.Update] = []
        updates.reserveCapacity(samples.count)
        for s in samples { updates.append(progress.update(s.fix)) }
        secondsPerFix = Date().timeIntervalSince(started) / Double(max(samples.count, 1))
        firstAtStop = updates.first?.atStop
        for (s, u) in zip(samples, updates) {
            for e in u.events {
                switch e {
                case .arrived(let i): arrivals.append((i, s.fix.time))
                case .departed(let i): departures.append(i)
                case .passed(let i): passed.append(i)
                case .offRoute: offRoute += 1
                case .backOnRoute: backOnRoute += 1
                }
            }
            if nextStops.isEmpty || nextStops.last! != u.nextStop { nextStops.append(u.nextStop) }
            if let d = u.distance, let l = last { backwards = max(backwards, l - d) }
            last = u.distance ?? last
        }
    }
}
