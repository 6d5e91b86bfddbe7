import Geo
import Location
import Syscall

/// How the dot moves between fixes. Fixes arrive about once a second, the screen runs at up to
/// 60 Hz: the dot glides from each fix to the next at sub-pixel precision, drawn a little in the
/// past (1.5 × the mean fix interval, as OpenLayers does) so it always has the next fix to glide
/// to and never extrapolates. Every glide runs along the straight segment between two fixes and
/// ends exactly on the later one; a move too fast for the time it took, or one after a long
/// silence, is a jump instead (the path between is unknown, and gliding would draw the vehicle
/// where it never was).
///
/// Each arriving fix schedules one glide in monotonic time: it starts when the previous glide has
/// ended (or when the fix arrived, if the dot was already resting) and lasts about as long as the
/// fixes were apart, stretched or shortened (0.5…1.5×) to keep the lag near its target. Adding a
/// fix never changes where the dot was at any earlier instant, so the drawn path is continuous.
/// `position(at:)` is a pure function of the scheduled glides and the time, and allocates nothing.
public struct MotionModel: Sendable {
    public struct Tuning: Equatable, Sendable {
        /// Faster than this between two fixes (m/s) is a jump, not a journey.
        public var maxPlausibleSpeed: Double = 100
        /// A fix after a silence longer than this (s) is shown at once: the way there is unknown.
        public var maxGap: Double = 5
        /// The lag target as a multiple of the mean fix interval, and its bounds (s).
        public var delayFactor: Double = 1.5
        public var minDelay: Double = 0.05
        public var maxDelay: Double = 3
        /// A glide lasts between these multiples of its fix interval.
        public var minGlideFactor: Double = 0.5
        public var maxGlideFactor: Double = 1.5
        /// Fix intervals shorter than this (s) count as this in the speed test: receivers and
        /// gpsd deliver bursts after a stall.
        public var minSpeedInterval: Double = 0.5

        public init() {}
    }

    /// A straight glide from `from` to `to` during [start, end] (monotonic seconds). A jump has
    /// start == end and from == to.
    public struct Glide: Equatable, Sendable {
        public var from: GeoPoint
        public var to: GeoPoint
        public var start: Double
        public var end: Double
    }

    public let tuning: Tuning
    /// The last glides, oldest first from `head`. A fixed ring: adding a fix allocates nothing.
    private var glides: [Glide]
    private var head = 0
    private var count = 0
    /// Recent fix intervals (s) for the mean, a fixed ring too.
    private var intervals: [Double]
    private var intervalHead = 0
    private var intervalCount = 0
    private var lastArrival: Double?
    private var lastPosition: GeoPoint?

    static let glideCapacity = 32
    static let intervalCapacity = 8

    public init(tuning: Tuning = Tuning()) {
        self.tuning = tuning
        glides = Array(repeating: Glide(from: GeoPoint(latitude: 0, longitude: 0), to: GeoPoint(latitude: 0, longitude: 0), start: 0, end: 0),
                       count: Self.glideCapacity)
        intervals = Array(repeating: 0, count: Self.intervalCapacity)
    }

    /// Forgets every fix (a new source, a reload).
    public mutating func reset() {
        head = 0; count = 0; intervalHead = 0; intervalCount = 0
        lastArrival = nil; lastPosition = nil
    }

    /// The lag target for the fixes seen so far (s).
    public var delay: Double {
        guard intervalCount > 0 else { return tuning.minDelay }
        var sum = 0.0
        for i in 0..<intervalCount { sum += intervals[i] }
        return min(max(tuning.delayFactor * sum / Double(intervalCount), tuning.minDelay), tuning.maxDelay)
    }

    /// After this instant the dot rests on the last fix until another arrives (nil: no fix yet).
    /// Lets the frame loop skip redrawing a dot that does not move.
    public var restsAfter: Double? { count == 0 ? nil : glides[index(count - 1)].end }

    /// The glides still held, oldest first (for tests and diagnostics; allocates).
    public var scheduledGlides: [Glide] { (0..<count).map { glides[index($0)] } }

    /// Records a fix at `position` that arrived at monotonic time `arrival` (s). Arrivals must not
    /// go backwards; one that does is treated as simultaneous with the last.
    public mutating func add(_ position: GeoPoint, arrival: Double) {
        guard let previous = lastPosition, let previousArrival = lastArrival else {
            append(Glide(from: position, to: position, start: arrival, end: arrival))
            lastPosition = position; lastArrival = arrival
            return
        }
        let t = max(arrival, previousArrival)
        let interval = t - previousArrival
        lastPosition = position; lastArrival = t
        let speed = Self.distance(previous, position) / max(interval, tuning.minSpeedInterval)
        if interval > tuning.maxGap || speed > tuning.maxPlausibleSpeed {
            // A jump cuts whatever glide is still running: from now on the dot is at the new fix.
            append(Glide(from: position, to: position, start: t, end: t))
            return
        }
        recordInterval(interval)
        let start = max(glides[index(count - 1)].end, t)
        let wanted = t + delay - start
        let length = min(max(wanted, tuning.minGlideFactor * interval), tuning.maxGlideFactor * interval)
        append(Glide(from: previous, to: position, start: start, end: start + length))
    }

    /// Where the dot is drawn at monotonic time `now`; nil before the first fix.
    public func position(at now: Double) -> GeoPoint? {
        guard count > 0 else { return nil }
        var i = count - 1
        while i > 0 && glides[index(i)].start > now { i -= 1 }
        let g = glides[index(i)]
        if now >= g.end { return g.to }
        if now <= g.start { return g.from }
        return Self.interpolate(g.from, g.to, (now - g.start) / (g.end - g.start))
    }

    // MARK: -

    private func index(_ i: Int) -> Int { (head + i) % Self.glideCapacity }

    private mutating func append(_ g: Glide) {
        if count == Self.glideCapacity {
            glides[head] = g
            head = (head + 1) % Self.glideCapacity
        } else {
            glides[index(count)] = g
            count += 1
        }
    }

    private mutating func recordInterval(_ interval: Double) {
        intervals[intervalHead] = interval
        intervalHead = (intervalHead + 1) % Self.intervalCapacity
        intervalCount = min(intervalCount + 1, Self.intervalCapacity)
    }

    /// The point a fraction `f` (0…1) of the way from `a` to `b`, across the antimeridian the
    /// short way. Linear in degrees: over the metres between two fixes that is the straight line
    /// on the map to far below a pixel.
    static func interpolate(_ a: GeoPoint, _ b: GeoPoint, _ f: Double) -> GeoPoint {
        let f = min(max(f, 0), 1)
        var lon = a.longitude + wrappedDelta(a.longitude, b.longitude) * f
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return GeoPoint(latitude: a.latitude + (b.latitude - a.latitude) * f, longitude: lon)
    }

    /// b − a in degrees of longitude, taken the short way round (−180…180).
    static func wrappedDelta(_ a: Double, _ b: Double) -> Double {
        var d = b - a
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        return d
    }

    /// Metres between two nearby positions (equirectangular: exact enough between fixes, and
    /// libm-free so the glide-or-jump decision is the same on every CPU).
    static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let r = MapProjection.earthRadius
        let midLat = PortableMath.radians((a.latitude + b.latitude) / 2)
        let dx = PortableMath.radians(wrappedDelta(a.longitude, b.longitude)) * PortableMath.cos(midLat) * r
        let dy = PortableMath.radians(b.latitude - a.latitude) * r
        return (dx * dx + dy * dy).squareRoot()
    }
}

extension MotionModel {
    /// Records a fix from gpsd or a replay at its monotonic arrival time. Check it first with
    /// `MapProjection.check`: the model trusts its numbers.
    public mutating func add(_ fix: Fix) {
        add(GeoPoint(latitude: fix.latitude, longitude: fix.longitude), arrival: fix.receivedAt.seconds)
    }
}

extension MonotonicInstant {
    /// Seconds on the monotonic clock: the time base of `MotionModel` and `FixState`.
    public var seconds: Double { Double(nanoseconds) / 1e9 }
}
