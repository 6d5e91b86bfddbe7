import GTFS

/// `trip = auto`: which trip a vehicle runs, told from its fixes alone. The geometry picks the
/// shape: each pass of a shape near a fix is a hypothesis, followed fix by fix in a window ahead
/// of its last distance, dropped when the fixes leave it (a vehicle driving the other way along
/// a street falls behind the window and away from it), and consistent once it has carried the
/// vehicle forward far enough over enough fixes. The schedule picks the trip among the many that
/// share those shapes: the run due nearest to the clock where the vehicle is. A choice is
/// taken only after it led for several fixes in a row, so one noisy fix neither makes nor
/// changes it; once taken it stands until the caller starts again (the trip ended, or the
/// vehicle left its line for good).
public final class TripDetector {
    public struct Settings: Sendable {
        /// A shape passing farther than this from a fix does not explain it.
        public var nearMeters = 50.0
        /// Metres of progress along a pass, over at least `minFixes` fixes, that make it consistent.
        public var minProgress = 200.0
        public var minFixes = 5
        /// Fixes in a row a pass may miss (noise) before it is dropped.
        public var maxMisses = 2
        /// The window each pass's next fix is looked for in, as `RouteProgress` uses it.
        public var behindMeters = 30.0
        public var aheadMeters = 300.0
        public var maxSpeed = 40.0
        /// Fixes in a row the same trip must lead before it is chosen.
        public var confirmFixes = 3
        /// A run due farther than this from the clock where the vehicle is is no match.
        public var maxScheduleGap = 1800
        /// Seconds off the chosen trip's line after which the choice is let go and the fixes
        /// looked at afresh (a detour is shorter; a vehicle on another line is not).
        public var releaseOffRouteSeconds = 120.0

        public init() {}
    }

    /// The trip chosen, and why, in words for the log.
    public struct Decision: Sendable, Equatable {
        public let choice: TripChoice
        public let shapeID: String
        /// Metres along the shape at the last fix.
        public let distance: Double
        /// Seconds the vehicle runs behind the schedule there (negative: ahead).
        public let late: Int
        public let reason: String
    }

    /// One fix's outcome: a decision, or a remark worth one log line (said once by the caller).
    public struct Step: Sendable {
        public var decision: Decision?
        public var remark: String?
    }

    struct Pass {
        let shapeID: String
        let start: Double
        var distance: Double
        var fixes = 1
        var misses = 0
        var lastTime: Double
    }

    public let index: TransitIndex
    public let zone: TimeZoneRules
    public let settings: Settings
    private var passes: [Pass] = []
    private var lines: [String: ShapeLine] = [:]
    private var timetables: [String: [ScheduledTrip]] = [:]
    private var service: [ServiceDayKey: Bool] = [:]
    private var leader: (choice: TripChoice, count: Int)?
    private var remarked: Set<String> = []

    struct ServiceDayKey: Hashable {
        let service: Int64
        let date: Int
    }

    public init(index: TransitIndex, zone: TimeZoneRules, settings: Settings = Settings()) {
        self.index = index
        self.zone = zone
        self.settings = settings
    }

    /// Forgets the passes and the leader: the next fixes decide afresh (shapes and timetables
    /// already read are kept).
    public func reset() {
        passes.removeAll()
        leader = nil
        remarked.removeAll()
    }

    /// The shapes the live passes lie on, for tests and the log.
    public var shapesFollowed: [String] { Array(Set(passes.map { $0.shapeID })).sorted() }

    /// One fix: degrees, and the schedule's clock (UTC seconds).
    public func update(latitude: Double, longitude: Double, time: Double) throws(TransitError) -> Step {
        try follow(latitude: latitude, longitude: longitude, time: time)
        let consistent = passes.filter { $0.fixes >= settings.minFixes && $0.distance - $0.start >= settings.minProgress && $0.misses == 0 }
        guard !consistent.isEmpty else {
            leader = nil
            return Step()
        }
        var found: [(match: ScheduleMatch, pass: Pass)] = []
        for pass in consistent {
            for match in try matches(pass) { found.append((match, pass)) }
        }
        found.sort { $0.match.better(than: $1.match) }
        let best = found.first, second = found.first { $0.match.choice != best?.match.choice }?.match
        let shapes = Array(Set(consistent.map { $0.shapeID })).sorted()
        guard let best, abs(best.match.gap) <= settings.maxScheduleGap else {
            leader = nil
            let clock = TripChoice.clock(Int((time - Double(zone.serviceDayOrigin(zone.date(at: Int64(time))))).rounded(.down)))
            let text = "the fixes follow shape \(shapes.joined(separator: ", ")) but no trip on it runs within \(settings.maxScheduleGap / 60) min of \(clock) "
                + (best.map { "(the nearest, \($0.match.choice), is due there \(Self.minutes($0.match.gap)) \($0.match.gap > 0 ? "earlier" : "later"))" }
                   ?? "(none runs today)")
            return Step(remark: remark(text, key: "gap " + shapes.joined(separator: ",")))
        }
        if leader?.choice == best.match.choice { leader!.count += 1 } else { leader = (best.match.choice, 1) }
        guard leader!.count >= settings.confirmFixes else { return Step() }
        let pass = best.pass, m = best.match
        var reason = "shape \(pass.shapeID): \(Int((pass.distance - pass.start).rounded())) m along it over \(pass.fixes) fixes; "
            + "due there at \(TripChoice.clock(m.scheduled)) on service day \(CivilDay.text(m.date)), "
            + (m.gap == 0 ? "on time" : "\(Self.minutes(m.gap)) \(m.gap > 0 ? "late" : "early")")
        if shapes.count > 1 { reason += "; \(shapes.count - 1) other shape(s) fit the fixes too (\(shapes.filter { $0 != pass.shapeID }.joined(separator: ", ")))" }
        if let second { reason += "; next nearest \(second.choice), \(Self.minutes(second.gap)) \(second.gap > 0 ? "late" : "early")" }
        return Step(decision: Decision(choice: m.choice, shapeID: pass.shapeID, distance: pass.distance, late: m.gap, reason: reason))
    }

    /// The fix against each live pass, the misses counted and the lost dropped; new passes for
    /// the shapes near the fix that have none.
    private func follow(latitude: Double, longitude: Double, time: Double) throws(TransitError) {
        var kept: [Pass] = []
        for var pass in passes {
            guard let line = lines[pass.shapeID] else { continue }
            let elapsed = max(time - pass.lastTime, 0)
            let p = line.project(latitude: latitude, longitude: longitude, from: pass.distance - settings.behindMeters,
                                 to: pass.distance + settings.aheadMeters + settings.maxSpeed * elapsed)
            if let p, p.offset <= settings.nearMeters {
                pass.distance = max(pass.distance, p.distance)
                pass.fixes += 1
                pass.misses = 0
                pass.lastTime = time
            } else {
                pass.misses += 1
                if pass.misses > settings.maxMisses { continue }
            }
            kept.append(pass)
        }
        passes = kept
        let followed = Set(passes.map { $0.shapeID })
        for near in try index.shapesNear(latitude: latitude, longitude: longitude, meters: settings.nearMeters)
        where !followed.contains(near.shapeID) {
            guard let line = try line(near.shapeID) else { continue }
            for p in line.passes(latitude: latitude, longitude: longitude, within: settings.nearMeters) {
                passes.append(Pass(shapeID: near.shapeID, start: p.distance, distance: p.distance, lastTime: time))
            }
        }
    }

    private func line(_ shapeID: String) throws(TransitError) -> ShapeLine? {
        if let known = lines[shapeID] { return known }
        guard let line = try index.shapeLine(shapeID) else { return nil }
        lines[shapeID] = line
        return line
    }

    /// A run of a trip due where the pass has the vehicle: its choice (with the run's start for a
    /// frequencies.txt trip), when it is due there in seconds of its service day, and how far
    /// the clock is past that.
    struct ScheduleMatch {
        let choice: TripChoice
        let date: Int
        let scheduled: Int
        let gap: Int

        func better(than other: ScheduleMatch) -> Bool {
            (abs(gap), choice.tripID, choice.start ?? 0) < (abs(other.gap), other.choice.tripID, other.choice.start ?? 0)
        }
    }

    /// Each trip on the pass's shape that runs on a service day reaching the clock, at its run
    /// due nearest to it.
    private func matches(_ pass: Pass) throws(TransitError) -> [ScheduleMatch] {
        guard let line = lines[pass.shapeID] else { return [] }
        if timetables[pass.shapeID] == nil { timetables[pass.shapeID] = try index.scheduledTrips(onShape: pass.shapeID, line: line) }
        let instant = Int64(pass.lastTime.rounded(.down))
        let today = CivilDay.day(fromDate: zone.date(at: instant))
        var out: [ScheduleMatch] = []
        for trip in timetables[pass.shapeID]! {
            guard let due = trip.time(at: pass.distance) else { continue }
            let daysBack = max(1, (trip.lastArrival ?? 0) / 86400)
            var best: ScheduleMatch?
            for back in 0...daysBack {
                let date = CivilDay.date(fromDay: today - back)
                guard try runs(trip.serviceRow, on: date) else { continue }
                let seconds = Int(instant - zone.serviceDayOrigin(date))
                let match = Self.run(of: trip, due: due, at: seconds, date: date)
                if let match, best == nil || match.better(than: best!) { best = match }
            }
            if let best { out.append(best) }
        }
        return out
    }

    /// The run of `trip` due at its `due` seconds (the timetable's) nearest to `seconds`: the
    /// one run of a trip without frequencies, else the period's run whose start puts it there.
    static func run(of trip: ScheduledTrip, due: Int, at seconds: Int, date: Int) -> ScheduleMatch? {
        guard !trip.frequencies.isEmpty else {
            return ScheduleMatch(choice: TripChoice(tripID: trip.tripID), date: date, scheduled: due, gap: seconds - due)
        }
        guard let first = trip.firstDeparture else { return nil }
        let offset = due - first
        var best: ScheduleMatch?
        for f in trip.frequencies where f.headway > 0 && f.end > f.start {
            let last = (f.end - 1 - f.start) / f.headway
            let k = min(max(Int((Double(seconds - offset - f.start) / Double(f.headway)).rounded()), 0), last)
            let start = f.start + k * f.headway
            let match = ScheduleMatch(choice: TripChoice(tripID: trip.tripID, start: start), date: date, scheduled: start + offset,
                                      gap: seconds - (start + offset))
            if best == nil || match.better(than: best!) { best = match }
        }
        return best
    }

    private func runs(_ service: Int64, on date: Int) throws(TransitError) -> Bool {
        let key = ServiceDayKey(service: service, date: date)
        if let known = self.service[key] { return known }
        let runs = try index.runs(serviceRow: service, on: date)
        self.service[key] = runs
        return runs
    }

    private func remark(_ text: String, key: String) -> String? {
        remarked.insert(key).inserted ? text : nil
    }

    /// `95` → "1 min 35 s", of a gap's size.
    static func minutes(_ seconds: Int) -> String {
        let s = abs(seconds)
        return s < 60 ? "\(s) s" : (s % 60 == 0 ? "\(s / 60) min" : "\(s / 60) min \(s % 60) s")
    }
}
