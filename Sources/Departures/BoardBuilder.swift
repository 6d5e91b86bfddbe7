import GTFS
import GTFSRealtime
import Transit

/// The departures at a stop: the timetable's rows with a feed's TripUpdates applied by
/// GTFS-realtime's rules (trip-updates.md, reference.md). Trips are matched on trip_id, start
/// date and, when given, start time; the index answers for the trips and routes updates name.
public struct BoardBuilder {
    let index: TransitIndex
    let zone: TimeZoneRules
    /// The board's stops (a station's platforms), for trips realtime adds.
    let stops: [TransitIndex.BoardStop]

    public init(index: TransitIndex, zone: TimeZoneRules, stops: [TransitIndex.BoardStop]) {
        self.index = index
        self.zone = zone
        self.stops = stops
    }

    /// A scheduled row as the board carries it until the end: which run it is, where on it.
    struct Row {
        var base: TransitIndex.StopDeparture
        var predicted: Int64?
        var live = false
        var cancelled = false
        var skipped = false
        var time: Int64 { predicted ?? base.departure }
    }

    /// The next `limit` departures at `now` or later, soonest first (predicted, else scheduled;
    /// cancelled ones keep their place so the board can say so). `scheduled`: the timetable's
    /// rows from `TransitIndex.departures`, over a window reaching back far enough for late trips.
    public func board(scheduled: [TransitIndex.StopDeparture], feed: FeedMessage, now: Int64, limit: Int) throws(TransitError) -> DepartureBoard {
        var rows = scheduled.map { Row(base: $0) }
        var tally = RealtimeTally()
        var timetables: [String: TransitIndex.TripTimetable?] = [:]
        func timetable(_ id: String) throws(TransitError) -> TransitIndex.TripTimetable? {
            if let known = timetables[id] { return known }
            let found = try index.timetable(ofTrip: id)
            timetables[id] = found
            return found
        }

        for entity in feed.entities where entity.isDeleted != true {
            guard let update = entity.tripUpdate else { continue }
            let trip = update.trip
            let relationship = trip.scheduleRelationship ?? .scheduled
            switch relationship {
            case .new, .added:
                try added(update, timetable: nil, now: now, into: &rows)
                tally.applied += 1
                continue
            case .scheduled, .canceled, .deleted, .replacement, .duplicated:
                break
            default:
                tally.unsupported += 1
                continue
            }
            guard let tripID = trip.tripID, let table = try timetable(tripID) else {
                // REPLACEMENT of a trip the timetable lacks still says when it runs.
                if relationship == .replacement {
                    try added(update, timetable: nil, now: now, into: &rows)
                    tally.applied += 1
                } else {
                    tally.unknownTrips += 1
                }
                continue
            }
            tally.applied += 1
            if relationship == .duplicated {
                try duplicate(update, of: table, now: now, into: &rows, tally: &tally)
                continue
            }
            let matching = Self.matching(rows, trip: trip, tripID: tripID, now: now)
            switch relationship {
            case .canceled:
                for i in matching {
                    rows[i].cancelled = true
                    rows[i].live = true
                    rows[i].predicted = nil
                }
            case .deleted:
                rows = rows.enumerated().filter { !matching.contains($0.offset) }.map { $0.element }
            case .replacement:
                rows = rows.enumerated().filter { !matching.contains($0.offset) }.map { $0.element }
                try added(update, timetable: table, now: now, into: &rows)
            default:
                apply(update, table: table, to: matching, in: &rows, tally: &tally)
            }
        }

        var departures: [Departure] = []
        rows.sort { ($0.time, $0.base.tripID, $0.base.stopID) < ($1.time, $1.base.tripID, $1.base.stopID) }
        for row in rows where row.time >= now {
            guard departures.count < limit else { break }
            departures.append(Departure(timetable: row.base, predicted: row.predicted, live: row.live, cancelled: row.cancelled,
                                        skipped: row.skipped, minutes: Int(clamping: (row.time - now) / 60)))
        }
        return DepartureBoard(departures: departures, tally: tally)
    }

    /// The rows of the descriptor's run. Without a start_date the run is the service day's
    /// nearest `now` (the spec leaves the day to the consumer then); a start_time picks a
    /// frequencies run, and for others has to be the trip's own.
    static func matching(_ rows: [Row], trip: TripDescriptor, tripID: String, now: Int64) -> [Int] {
        let startTime = trip.startTime.flatMap(GTFSValue.time)
        var date = trip.startDate.flatMap(GTFSValue.date)
        if trip.startDate == nil {
            var nearest = Int64.max
            for row in rows where row.base.tripID == tripID {
                let gap = row.base.departure > now ? row.base.departure - now : now - row.base.departure
                if gap < nearest { nearest = gap; date = row.base.startDate }
            }
        }
        guard let date else { return [] }
        return rows.indices.filter { i in
            let b = rows[i].base
            return b.tripID == tripID && b.startDate == date && (startTime == nil || startTime == b.startTime)
        }
    }

    /// Delays along the trip onto its rows at this stop. The update's unknown stops are counted
    /// once, whether it has no row here or several.
    func apply(_ update: TripUpdate, table: TransitIndex.TripTimetable, to matching: [Int], in rows: inout [Row], tally: inout RealtimeTally) {
        var unknownStops = 0
        if matching.isEmpty {
            _ = DelayPropagation.outcomes(table.stops, origin: 0, updates: update.stopTimeUpdates, timeOnly: false, unknownStops: &unknownStops)
        }
        for (n, i) in matching.enumerated() {
            let b = rows[i].base
            var unknown = 0
            let outcomes = DelayPropagation.outcomes(table.stops, origin: runOrigin(b.startDate, start: b.startTime, table),
                                                     updates: update.stopTimeUpdates, timeOnly: b.frequencyBased, unknownStops: &unknown)
            if n == 0 { unknownStops = unknown }
            guard let k = table.stops.firstIndex(where: { $0.sequence == b.stopSequence }) else { continue }
            rows[i].predicted = outcomes[k].skipped ? nil : outcomes[k].predicted
            rows[i].live = outcomes[k].live
            rows[i].skipped = outcomes[k].skipped
        }
        tally.unknownStops += unknownStops
    }

    /// The instant a run's timetable seconds count from: the service day's origin, moved to a
    /// frequencies run's start (the template's times run from its first departure).
    func runOrigin(_ date: Int, start: Int, _ table: TransitIndex.TripTimetable) -> Int64 {
        let first = table.stops.first(where: { $0.departure != nil })?.departure ?? start
        return zone.serviceDayOrigin(date) + Int64(start - first)
    }

    /// A DUPLICATED trip: the timetable's trip again under TripProperties' id, day and start,
    /// its own StopTimeUpdates applied to the shifted times.
    func duplicate(_ update: TripUpdate, of table: TransitIndex.TripTimetable, now: Int64, into rows: inout [Row], tally: inout RealtimeTally) throws(TransitError) {
        guard let properties = update.tripProperties, let start = properties.startTime.flatMap(GTFSValue.time) else {
            tally.unsupported += 1
            return
        }
        let date = properties.startDate.flatMap(GTFSValue.date) ?? zone.date(at: now)
        let origin = runOrigin(date, start: start, table)
        let template = rows.first { $0.base.tripID == table.tripID }?.base
        let route = template?.route ?? table.route
        let outcomes = DelayPropagation.outcomes(table.stops, origin: origin, updates: update.stopTimeUpdates, timeOnly: false,
                                                 unknownStops: &tally.unknownStops)
        for (k, stop) in table.stops.enumerated() where k < table.stops.count - 1 && stop.pickupType != 1 {
            guard let board = stops.first(where: { $0.stopID == stop.stopID }), let leave = stop.departure ?? stop.arrival else { continue }
            let base = TransitIndex.StopDeparture(
                tripID: properties.tripID ?? table.tripID, route: route, headsign: template?.headsign ?? table.headsign ?? "",
                stopID: board.stopID, platformCode: board.platformCode, stopSequence: stop.sequence, departure: origin + Int64(leave),
                startDate: date, startTime: start, frequencyBased: false)
            let o = outcomes[k]
            rows.append(Row(base: base, predicted: o.skipped ? nil : o.predicted, live: o.live, skipped: o.skipped))
        }
    }

    /// A NEW (or ADDED, or REPLACEMENT) trip: rows from the update's own stop times at this
    /// stop, their times absolute since there is no timetable to count a delay from.
    func added(_ update: TripUpdate, timetable table: TransitIndex.TripTimetable?, now: Int64, into rows: inout [Row]) throws(TransitError) {
        let trip = update.trip
        let date = trip.startDate.flatMap(GTFSValue.date) ?? zone.date(at: now)
        var route = table?.route
        if route == nil, let id = trip.routeID { route = try index.route(id) }
        let shown = route ?? Trip.Route(routeID: trip.routeID ?? "", shortName: nil, longName: nil, type: 3, color: nil, textColor: nil)
        let start = trip.startTime.flatMap(GTFSValue.time) ?? 0
        for (k, stopUpdate) in update.stopTimeUpdates.enumerated() where k < update.stopTimeUpdates.count - 1 {
            guard stopUpdate.scheduleRelationship != .skipped,
                  let board = stops.first(where: { $0.stopID == stopUpdate.stopID }),
                  let time = stopUpdate.departure?.time ?? stopUpdate.arrival?.time else { continue }
            let base = TransitIndex.StopDeparture(
                tripID: trip.tripID ?? "", route: shown, headsign: table?.headsign ?? "", stopID: board.stopID,
                platformCode: board.platformCode, stopSequence: stopUpdate.stopSequence.flatMap { Int(exactly: $0) } ?? k + 1, departure: time,
                startDate: date, startTime: start, frequencyBased: false)
            rows.append(Row(base: base, predicted: time, live: true))
        }
    }
}
