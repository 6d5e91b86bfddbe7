import Geo
import Location
import Positioning
import Syscall

/// The demo's bus, one lap of `DemoTown`'s route as a receiver would report it: a fix a second
/// with the position, course, speed and horizontal error (eph), made in code and the same on every
/// machine. The bus waits at the terminal, accelerates and brakes like a bus (1.0 and 1.2 m/s²,
/// 45 km/h on the northern arterial, 40 elsewhere, slower over the bridge, through the tunnel and
/// round corners), dwells at two stops, and loses the sky in the tunnel: no fix from the southern
/// portal until the receiver has found its satellites again, 13 s after the northern one, with an
/// error that starts large and settles. The positions wander within a quarter of the error (at
/// most 3 m), smoothly, as a receiver's do.
public struct DemoDrive: Sendable {
    /// One second of the drive.
    public struct Sample: Sendable {
        /// Seconds since the lap began.
        public var time: Double
        /// What the receiver reported; nil: no fix (in and after the tunnel).
        public var fix: Fix?
        /// Where the bus really was: pixels along the route, the map point, the speed (m/s).
        public var along: Double
        public var truth: MapPoint
        public var speed: Double
    }

    /// When things happen in a lap (seconds since it began).
    public struct Timeline: Equatable, Sendable {
        public var departs = 0.0
        public var stopA = 0.0...0.0
        public var stopB = 0.0...0.0
        public var onBridge = 0.0
        public var entersTunnel = 0.0
        public var leavesTunnel = 0.0
        /// The last fix before the dropout and the first after it.
        public var lastFixBefore = 0.0
        public var firstFixAfter = 0.0
        public var arrives = 0.0
        /// The lap's length: the next lap starts at the terminal this many seconds in.
        public var duration = 0.0
    }

    public let town: DemoTown
    public let samples: [Sample]
    public let timeline: Timeline

    /// The demo's `staleAfter` in seconds of drive time: shorter than a real deployment's 30 s so
    /// that the dropout reaches the stale look, and scaled with the drive when it is replayed faster.
    public static let staleAfter = 20.0
    /// What the receiver's clock said at the start of the first lap.
    public static let startTime = FixTime(secondsSinceEpoch: 1_747_209_600)  // 2025-05-14T08:00:00Z

    static let terminalDwell = 8.0, dwellA = 24.0, dwellB = 30.0
    static let acceleration = 1.0, deceleration = 1.2
    static let reacquisition = 13.0
    /// The simulation's step: 50 per second, counted in whole steps so seconds land exactly.
    static let stepsPerSecond = 50

    public init(town: DemoTown = DemoTown()) {
        self.town = town
        let run = DemoDriveKinematics(town: town).run()
        var timeline = run.timeline
        var samples: [Sample] = []
        var fixesSinceDropout: Int?
        var lastCourse = town.route.course(at: 0)
        for state in run.states {
            let t = state.time
            let inDropout = t >= timeline.entersTunnel && t < timeline.leavesTunnel + Self.reacquisition
            var sample = Sample(time: t, fix: nil, along: state.along, truth: town.route.point(at: state.along), speed: state.speed)
            if inDropout {
                fixesSinceDropout = 0
            } else {
                if fixesSinceDropout == 0 { timeline.firstFixAfter = t }
                if state.speed > 0.5 { lastCourse = town.route.course(at: state.along) }
                let untilTunnel = timeline.entersTunnel - t
                sample.fix = Self.fix(at: t, truth: sample.truth, speed: state.speed, course: lastCourse,
                                      untilTunnel: untilTunnel, sinceReacquired: fixesSinceDropout.map(Double.init), town: town)
                sample.fix?.time = FixTime(secondsSinceEpoch: Self.startTime.secondsSinceEpoch + Int64(t))
                if untilTunnel > 0 { timeline.lastFixBefore = t }
                fixesSinceDropout = fixesSinceDropout.map { $0 + 1 }
            }
            samples.append(sample)
        }
        self.samples = samples
        self.timeline = timeline
    }

    /// The fixes of `laps` laps one after the other, each with its time since the first lap began
    /// (nil fix: a second without one).
    public func fixes(laps: Int) -> [(time: Double, fix: Fix?)] {
        var out: [(time: Double, fix: Fix?)] = []
        out.reserveCapacity(samples.count * laps)
        for lap in 0..<laps {
            let shift = Double(lap) * timeline.duration
            for s in samples {
                var fix = s.fix
                fix?.time = FixTime(secondsSinceEpoch: Self.startTime.secondsSinceEpoch + Int64(s.time + shift))
                out.append((s.time + shift, fix))
            }
        }
        return out
    }

    // MARK: The receiver

    /// A receiver's report of the bus at `truth`: error from the sky (worse in the last seconds
    /// before the tunnel, large after it and settling), a smooth wander within a quarter of it,
    /// and course and speed with a little noise (a standing receiver's course means nothing, and
    /// its speed stays under the heading threshold).
    static func fix(at t: Double, truth: MapPoint, speed: Double, course: Double, untilTunnel: Double,
                    sinceReacquired: Double?, town: DemoTown) -> Fix {
        var eph = 3.6 + 0.9 * PortableMath.sin(t / 17) + 0.5 * PortableMath.sin(t / 5.3 + 1) + 0.3 * noise(t, 1)
        if untilTunnel > 0, untilTunnel < 8 { eph += (8 - untilTunnel) * 0.9 }
        if let k = sinceReacquired { eph += 60 * PortableMath.exp(-k / 8) }
        eph = (eph * 10).rounded() / 10
        // Each axis within ±0.7 of the wander, so the offset stays within it.
        let wander = min(eph, 12) / 4 * 0.7
        let east = wander * (0.7 * PortableMath.sin(t / 9.1 + 0.3) + 0.3 * PortableMath.sin(t / 2.7 + 2.1))
        let south = wander * (0.7 * PortableMath.sin(t / 11.3 + 1.7) + 0.3 * PortableMath.sin(t / 3.1 + 0.4))
        let px = 1 / town.metresPerPixel
        let position = town.geoPoint(MapPoint(x: truth.x + east * px, y: truth.y + south * px))
        let moving = speed > 0.5
        let reportedSpeed = moving ? max(speed + 0.15 * noise(t, 2), 0) : 0.1 + 0.1 * noise(t, 3)
        let track = FixState.normalised(course + (moving ? 1.5 : 40) * noise(t, 4))
        return Fix(latitude: position.latitude, longitude: position.longitude, mode: .threeD,
                   horizontalError: eph, track: (track * 10).rounded() / 10,
                   speed: (reportedSpeed * 100).rounded() / 100, receivedAt: MonotonicInstant(nanoseconds: 0))
    }

    /// A repeatable value in −1…1 for second `t` and channel `c` (an integer hash, no state).
    static func noise(_ t: Double, _ c: UInt32) -> Double {
        var h = UInt32(truncatingIfNeeded: Int(t.rounded())) &* 0x9E37_79B1 ^ c &* 0x85EB_CA77
        h ^= h >> 15
        h = h &* 0x2C1B_3C6D
        h ^= h >> 13
        return Double(h & 0xFFFF) / 32767.5 - 1
    }
}

/// The bus's motion along the route: a speed limit for every point (zones, corners, the tunnel),
/// approached no faster than the bus can accelerate and left no later than it can brake, with
/// dwells at the stops. Stepped in fixed time steps; the state is kept at every whole second.
struct DemoDriveKinematics {
    struct State {
        var time: Double
        var along: Double
        var speed: Double
    }

    /// A stretch of route (pixels along it) with its own limit (m/s).
    struct Zone {
        var from: Double
        var to: Double
        var limit: Double
    }

    let town: DemoTown
    let metresPerPixel: Double
    var zones: [Zone] = []
    /// Stops in the order reached (pixels along the route) with their dwell (s); the last is the
    /// terminal at the end of the lap.
    var stops: [(along: Double, dwell: Double)] = []
    let tunnel: ClosedRange<Double>
    let bridgeMiddle: Double

    init(town: DemoTown) {
        self.town = town
        metresPerPixel = town.metresPerPixel
        let route = town.route
        func along(_ x: Int, _ y: Int) -> Double { route.distance(toNearest: MapPoint(x: Double(x), y: Double(y))).along }
        let northEast = route.distance(toNearest: DemoTown.routeCorners[1]).along
        zones.append(Zone(from: 0, to: northEast, limit: 12.5))
        zones.append(Zone(from: northEast, to: route.length, limit: 11))
        let x = DemoTown.routeBridge
        let bridge = DemoTown.river(atX: Double(x))
        let bridgeFrom = along(x, Int(bridge.center - bridge.halfWidth) - 30)
        let bridgeTo = along(x, Int(bridge.center + bridge.halfWidth) + 30)
        zones.append(Zone(from: bridgeFrom, to: bridgeTo, limit: 10))
        bridgeMiddle = (bridgeFrom + bridgeTo) / 2
        let south = along(DemoTown.tunnelAvenue, DemoTown.tunnelSouthPortal)
        let north = along(DemoTown.tunnelAvenue, DemoTown.tunnelNorthPortal)
        tunnel = south...north
        zones.append(Zone(from: south - 30, to: north + 30, limit: 5.5))
        let arc = DemoTown.cornerRadius * PortableMath.pi / 4
        for corner in DemoTown.routeCorners.dropFirst().dropLast() {
            let c = route.distance(toNearest: corner).along
            zones.append(Zone(from: c - arc, to: c + arc, limit: 4.5))
        }
        stops = [(route.distance(toNearest: DemoTown.stopA).along, DemoDrive.dwellA),
                 (route.distance(toNearest: DemoTown.stopB).along, DemoDrive.dwellB),
                 (route.length, 0)]
    }

    /// The fastest the bus may go at `s` (pixels along): the limit there, and every lower limit or
    /// stop ahead within braking distance.
    func allowed(at s: Double, nextStop: Double) -> Double {
        let b2 = 2 * DemoDrive.deceleration
        var v = (b2 * max(nextStop - s, 0) * metresPerPixel).squareRoot()
        for z in zones {
            if s >= z.from && s <= z.to { v = min(v, z.limit) }
            if z.from > s { v = min(v, (z.limit * z.limit + b2 * (z.from - s) * metresPerPixel).squareRoot()) }
        }
        return v
    }

    func run() -> (states: [State], timeline: DemoDrive.Timeline) {
        let dt = 1 / Double(DemoDrive.stepsPerSecond)
        var timeline = DemoDrive.Timeline()
        var states: [State] = []
        var step = 0, s = 0.0, v = 0.0
        var dwellUntil: Int? = Int(DemoDrive.terminalDwell) * DemoDrive.stepsPerSecond
        var next = 0
        var arrived = false
        timeline.departs = DemoDrive.terminalDwell
        while true {
            if step % DemoDrive.stepsPerSecond == 0 {
                states.append(State(time: Double(step / DemoDrive.stepsPerSecond), along: s, speed: v))
                if arrived { break }
            }
            let t = Double(step) * dt
            step += 1
            if let until = dwellUntil {
                if step >= until { dwellUntil = nil }
                continue
            }
            let target = allowed(at: s, nextStop: stops[next].along)
            v = v < target ? min(v + DemoDrive.acceleration * dt, target) : target
            let before = s
            s += v * dt / metresPerPixel
            if before < tunnel.lowerBound && s >= tunnel.lowerBound { timeline.entersTunnel = t }
            if before < tunnel.upperBound && s >= tunnel.upperBound { timeline.leavesTunnel = t }
            if before < bridgeMiddle && s >= bridgeMiddle { timeline.onBridge = t }
            // At the stop's mark, give or take a millimetre (braking to it takes the speed down
            // to a few cm/s; standing still from any more would be a jolt no bus makes).
            if (stops[next].along - s) * metresPerPixel < 0.001 {
                s = stops[next].along
                v = 0
                let dwell = stops[next].dwell
                let at = Double(step) * dt
                switch next {
                case 0: timeline.stopA = at...(at + dwell)
                case 1: timeline.stopB = at...(at + dwell)
                default:
                    timeline.arrives = at
                    arrived = true
                }
                if dwell > 0 { dwellUntil = step + Int(dwell) * DemoDrive.stepsPerSecond }
                next = min(next + 1, stops.count - 1)
            }
        }
        // The sample at the last whole second shows the bus standing at the terminal, where the
        // next lap's first one does too.
        timeline.duration = states[states.count - 1].time
        states.removeLast()
        return (states, timeline)
    }
}
