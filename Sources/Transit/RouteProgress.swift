/// Where the vehicle is on its trip, fix by fix: metres along the line, whether it has left the
/// route, the stop it stands at and the next one, and what happened for the log. Each fix is
/// matched to the line only within a window from the last distance, a little behind (noise)
/// and as far ahead as the vehicle could have driven since, so a route that passes one place
/// twice (a loop, a figure eight, both directions of one street) is never matched to the wrong
/// pass; within the window the candidate nearest to where the vehicle's speed puts it is
/// preferred.
public struct RouteProgress: Sendable {
    public struct Settings: Sendable {
        /// Farther than this from the line is off route.
        public var offRouteMeters = 50.0
        /// Within this many metres along the line of a stop, slow, is arriving there; past it by
        /// as much is leaving (or having passed it).
        public var arrivalRadius = 30.0
        /// Slower than this (m/s) counts as stopping.
        public var slowSpeed = 2.0
        /// How far behind the last distance a fix may fall (position noise).
        public var behindMeters = 30.0
        /// The window ahead: this much plus what `maxSpeed` covers in the time since the last fix on the route.
        public var aheadMeters = 300.0
        public var maxSpeed = 40.0
        /// Metres of distance from the line a candidate may be worse by per metre it lies nearer
        /// to where the vehicle's speed predicts.
        public var predictionWeight = 0.5
        /// Consecutive fixes needed to leave or rejoin the route, so one wild fix does neither.
        public var confirmFixes = 2
        /// Off route this long (fix seconds since the last fix on it), the vehicle is looked for on
        /// the whole line ahead of where it was lost: a detour longer than the window's growth, a
        /// stall of the receiver. Twenty seconds is a few blocks at bus speed, short of any detour
        /// that misses a stop; the nearest pass ahead of the loss is preferred, so a loop's second
        /// pass is taken only when the first is not near.
        public var searchAheadAfter = 20.0
        /// Off route this long, anywhere on the line, behind too: after a GPS jump that put it
        /// ahead, or a terminal loop that brings it back along its own street. Ninety seconds is
        /// longer than any stop's dwell, so a vehicle merely standing off its line is not moved back.
        public var searchAnywhereAfter = 90.0
        /// A fix this far along the line from where the vehicle's speed puts it is taken only when
        /// the next lands near it too (multipath, a loop's other side within the window).
        public var jumpMeters = 150.0

        public init() {}
    }

    /// A position fix: degrees, metres per second (nil when the receiver gives none), seconds.
    public struct Fix: Sendable {
        public let latitude: Double
        public let longitude: Double
        public let speed: Double?
        public let time: Double

        public init(latitude: Double, longitude: Double, speed: Double?, time: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.speed = speed
            self.time = time
        }
    }

    /// What a fix changed, for the log; stops by their index in the trip's stops.
    public enum Event: Equatable, Sendable {
        case arrived(Int)
        case departed(Int)
        /// Gone by without stopping (or while off the route).
        case passed(Int)
        case offRoute
        case backOnRoute
    }

    public struct Update: Equatable, Sendable {
        /// Metres along the line: the last fix on the route's (nil before the first).
        public let distance: Double?
        /// Metres from this fix to the line (in the window searched).
        public let offset: Double?
        public let offRoute: Bool
        public let atStop: Int?
        /// The next stop to announce; while at a stop, the one after it; nil after the terminus.
        public let nextStop: Int?
        public let events: [Event]
    }

    public let line: ShapeLine
    public let stopDistances: [Double]
    public let announced: [Bool]
    public let settings: Settings

    public private(set) var distance: Double?
    public private(set) var offRoute = false
    public private(set) var atStop: Int?
    /// The first stop not yet arrived at or passed.
    private var pending = 0
    private var lastOnRoute: Double?
    private var previous: Fix?
    /// Consecutive fixes disagreeing with `offRoute`.
    private var disagreeing = 0
    /// Where the last fix that jumped along the line landed, until the next agrees or not.
    private var heldJump: Double?

    public init(trip: Trip, settings: Settings = Settings()) {
        self.init(line: trip.line, stopDistances: trip.stops.map { $0.distance }, announced: trip.stops.map { $0.announced }, settings: settings)
    }

    public init(line: ShapeLine, stopDistances: [Double], announced: [Bool], settings: Settings = Settings()) {
        self.line = line
        self.stopDistances = stopDistances
        self.announced = announced
        self.settings = settings
    }

    public var nextStop: Int? {
        var i = atStop.map { $0 + 1 } ?? pending
        while i < announced.count {
            if announced[i] { return i }
            i += 1
        }
        return nil
    }

    /// Takes the trip up where the vehicle was found on it (`trip = auto` decides mid-route):
    /// `d` metres along at `time`. The stops behind it were neither arrived at nor passed while
    /// the trip was followed, so none is said; one within the arrival radius may still be.
    public mutating func resume(at d: Double, time: Double) {
        distance = d
        lastOnRoute = time
        atStop = nil
        pending = stopDistances.firstIndex { $0 >= d - settings.arrivalRadius } ?? stopDistances.count
    }

    public mutating func update(_ fix: Fix) -> Update {
        var events: [Event] = []
        let speed = fix.speed ?? derivedSpeed(fix)
        previous = fix
        let projection = project(fix, speed: speed)
        if let projection {
            let on = projection.offset <= settings.offRouteMeters
            if distance != nil {
                // A fix disagreeing with the state counts; enough of them in a row change it.
                disagreeing = on == offRoute ? disagreeing + 1 : 0
                if disagreeing >= settings.confirmFixes {
                    offRoute = !on
                    disagreeing = 0
                    events.append(offRoute ? .offRoute : .backOnRoute)
                }
            }
            // Only a fix near the line, on route, moves the vehicle on; the very first needs no
            // confirmation, as there is no state yet to protect.
            if on && !offRoute && !heldAsJump(projection.distance, fix: fix, speed: speed, rejoined: events.last == .backOnRoute) {
                distance = projection.distance
                lastOnRoute = fix.time
                advanceStops(projection.distance, slow: speed.map { $0 < settings.slowSpeed } ?? false, events: &events)
            }
        }
        return Update(distance: distance, offset: projection?.offset, offRoute: offRoute || distance == nil,
                      atStop: atStop, nextStop: nextStop, events: events)
    }

    /// Whether a fix that lands far from where the vehicle's speed puts it (a reflection thrown
    /// onto another part of the line, a loop's other side) is held until the next fix lands near
    /// it too: one wild fix never moves the vehicle along. A rejoin is confirmed already.
    private mutating func heldAsJump(_ d: Double, fix: Fix, speed: Double?, rejoined: Bool) -> Bool {
        guard !rejoined, let distance, let lastOnRoute else { return false }
        let predicted = distance + min(speed ?? 0, settings.maxSpeed) * max(fix.time - lastOnRoute, 0)
        guard abs(d - predicted) > settings.jumpMeters else {
            heldJump = nil
            return false
        }
        if let held = heldJump, abs(d - held) <= settings.jumpMeters {
            heldJump = nil
            return false
        }
        heldJump = d
        return true
    }

    /// Metres per second from the last fix, for receivers that give no speed.
    private func derivedSpeed(_ fix: Fix) -> Double? {
        guard let p = previous, fix.time > p.time else { return nil }
        let d = ShapeLine.local(latitude: fix.latitude, longitude: fix.longitude,
                                from: ShapeLine.Point(latitude: p.latitude, longitude: p.longitude))
        return (d.x * d.x + d.y * d.y).squareRoot() / (fix.time - p.time)
    }

    private func project(_ fix: Fix, speed: Double?) -> ShapeLine.Projection? {
        guard let distance, let lastOnRoute else {
            // The first match: anywhere, the start of the route preferred where it passes twice.
            return line.project(latitude: fix.latitude, longitude: fix.longitude, from: 0, to: line.length, expected: 0, weight: 0.02)
        }
        let elapsed = max(fix.time - lastOnRoute, 0)
        if offRoute && elapsed >= settings.searchAheadAfter {
            // Ahead of where it was lost first, the nearest pass preferred; behind only when
            // nothing ahead is near, so a line that comes back by its own street is not taken
            // up on the lap already driven.
            let ahead = line.project(latitude: fix.latitude, longitude: fix.longitude, from: distance - settings.behindMeters,
                                     to: line.length, expected: distance, weight: 0.02)
            if let ahead, ahead.offset <= settings.offRouteMeters { return ahead }
            guard elapsed >= settings.searchAnywhereAfter else { return ahead }
            return line.project(latitude: fix.latitude, longitude: fix.longitude, from: 0, to: line.length, expected: distance, weight: 0.02)
        }
        let ahead = distance + settings.aheadMeters + settings.maxSpeed * elapsed
        // Back from a detour the vehicle may have driven any way: the nearest rejoining point to
        // where it left wins, not a prediction from its speed.
        let expected = offRoute ? distance : distance + (speed ?? 0) * elapsed
        return line.project(latitude: fix.latitude, longitude: fix.longitude, from: distance - settings.behindMeters, to: ahead,
                            expected: expected, weight: offRoute ? 0.02 : settings.predictionWeight)
    }

    private mutating func advanceStops(_ d: Double, slow: Bool, events: inout [Event]) {
        let radius = settings.arrivalRadius
        if let at = atStop {
            // Leaving: beyond the radius, or standing at the next stop already when two are close.
            var leave = d > stopDistances[at] + radius
            if !leave, slow, let next = nextStop, abs(d - stopDistances[next]) <= radius,
               abs(d - stopDistances[next]) < abs(d - stopDistances[at]) { leave = true }
            guard leave else { return }
            events.append(.departed(at))
            atStop = nil
        }
        while pending < stopDistances.count {
            let s = stopDistances[pending]
            if !announced[pending] {
                guard d > s else { return }
                pending += 1
                continue
            }
            if slow, abs(d - s) <= radius {
                events.append(.arrived(pending))
                atStop = pending
                pending += 1
                return
            }
            guard d > s + radius else { return }
            events.append(.passed(pending))
            pending += 1
        }
    }
}
