import Departures
import GTFSRealtime
import Transit

/// A stop's screen worked out on the transit worker: the feeds as fetched, the timetable, the
/// trips' lines; a snapshot of what to show made on demand (after a fetch, each minute). Owned by
/// the worker's one thread.
public final class KioskModel {
    public struct Settings: Sendable {
        public var departures = 6
        public var vehicles = 20
        /// Seconds ahead the board looks.
        public var within: Double = 5400
        public var staleAfter: Double = 120
        /// Farther than this from its line a vehicle is drawn where it is, as diverted.
        public var divertedMeters: Double = 200
        public var language: String? = nil
        /// Feeds configured; a TripUpdates feed missing makes the board the timetable.
        public var tripUpdatesConfigured = true

        public init() {}
    }

    public let index: TransitIndex
    public let zone: TimeZoneRules
    public let settings: Settings
    public let stopIDs: [String]
    public let boardStops: [TransitIndex.BoardStop]
    private var feeds = FeedStates()
    /// Trips' lines and their stops, loaded once each (nil: the feed lacks the trip).
    private var trips: [String: Trip?] = [:]
    /// Where each vehicle was last put, so it never moves back along its trip.
    private var drawn: [String: (tripID: String, along: Double)] = [:]
    /// The "static feed outdated" line is said once.
    private var outdatedSaid = false

    public init(index: TransitIndex, zone: TimeZoneRules, stopIDs: [String], settings: Settings) throws(TransitError) {
        self.index = index
        self.zone = zone
        self.settings = settings
        self.stopIDs = stopIDs
        boardStops = try index.boardStops(stopIDs)
    }

    /// The stops the feed does not have.
    public func unknownStops() -> [String] {
        stopIDs.filter { !((try? index.hasStop($0)) ?? false) }
    }

    /// A fetch's outcome at `now` (UTC s); a line to say when there is one.
    public func take(_ feed: RealtimeFeed, _ body: FetchedBody, at now: Double) -> String? {
        feeds.take(feed, body, at: now)
    }

    /// The ages of the feeds (seconds; nil: none read yet), for the metrics.
    public func age(_ feed: RealtimeFeed, at now: Double) -> Double? { feeds[feed].age(at: now) }

    /// What to show at `now` (UTC s). `notes` gets lines to say (an outdated static feed, once).
    public func snapshot(at now: Double, clockSynchronised: Bool, notes: inout [String]) throws(TransitError) -> KioskSnapshot {
        let instant = Int64(now.rounded(.down))
        let live = feeds.live(configured: settings.tripUpdatesConfigured, at: now, staleAfter: settings.staleAfter,
                              clockSynchronised: clockSynchronised)
        // A window reaching back an hour: a late trip still leaves.
        let scheduled = try index.departures(at: stopIDs, from: instant - 3600, to: instant + Int64(settings.within), in: zone)
        let builder = BoardBuilder(index: index, zone: zone, stops: boardStops)
        let updates = live.isLive ? feeds[.tripUpdates].message ?? FeedMessage(header: FeedHeader()) : FeedMessage(header: FeedHeader())
        let board = try builder.board(scheduled: scheduled, feed: updates, now: instant, limit: settings.departures)
        if live.isLive, !outdatedSaid, board.tally.unknownTrips + board.tally.unknownStops > 0,
           board.tally.unknownTrips + board.tally.unknownStops >= max(3, board.tally.applied / 4) {
            outdatedSaid = true
            notes.append("static feed outdated: \(board.tally.unknownTrips) TripUpdates name trips and \(board.tally.unknownStops) name stops the GTFS feed does not have (a newer [transit] gtfs is needed)")
        }
        let rows = board.departures.map { d in
            BoardRow(tripID: d.timetable.tripID, route: d.timetable.route, headsign: d.timetable.headsign, stopID: d.timetable.stopID,
                     platformCode: d.timetable.platformCode, time: d.time, minutes: d.minutes, live: d.live && live.isLive,
                     cancelled: d.cancelled, skipped: d.skipped)
        }

        var snapshot = KioskSnapshot(live: live, rows: rows, alerts: [], markers: [],
                                     tripUpdatesAge: feeds[.tripUpdates].age(at: now), vehiclePositionsAge: feeds[.vehiclePositions].age(at: now),
                                     alertsAge: feeds[.alerts].age(at: now))
        let routeIDs = unique(scheduled.map { $0.route.routeID })
        if let alerts = feeds[.alerts].message, (feeds[.alerts].age(at: now) ?? .infinity) <= settings.staleAfter {
            let selection = StopAlerts(stopIDs: stopIDs + boardStops.map { $0.stopID } + (try index.parentStations(of: stopIDs)),
                                       routeIDs: routeIDs, routeTypes: unique(scheduled.map { $0.route.type }),
                                       tripIDs: unique(scheduled.map { $0.tripID }), agencyIDs: try index.agencyIDs(ofRoutes: routeIDs))
            snapshot.alerts = selection.texts(alerts, now: instant, language: settings.language)
        }
        snapshot.lines = try lines(scheduled.filter { $0.departure >= instant })
        if settings.vehicles > 0, let vehicles = feeds[.vehiclePositions].message {
            snapshot.markers = try markers(vehicles, scheduled: scheduled, rows: rows, now: now,
                                           headerTime: feeds[.vehiclePositions].time ?? now)
        }
        return snapshot
    }

    /// The trips whose lines the screen draws: one trip per route and headsign of the departures
    /// to come, the soonest.
    func lines(_ scheduled: [TransitIndex.StopDeparture]) throws(TransitError) -> [Trip] {
        var seen: [String] = [], out: [Trip] = []
        for d in scheduled {
            let key = d.route.routeID + "\u{1F}" + d.headsign
            guard !seen.contains(key), let trip = try trip(d.tripID), !trip.line.points.isEmpty else { continue }
            seen.append(key)
            // Two headsigns of one route often share a shape: drawn once.
            if out.contains(where: { $0.shapeID != nil && $0.shapeID == trip.shapeID }) { continue }
            out.append(trip)
        }
        return out
    }

    /// The trip, loaded once.
    public func trip(_ tripID: String) throws(TransitError) -> Trip? {
        if let known = trips[tripID] { return known }
        var loaded: Trip?
        do { loaded = try index.trip(TripChoice(tripID: tripID), language: settings.language) } catch {
            if case .noSuchTrip = error { loaded = nil } else { throw error }
        }
        trips[tripID] = loaded
        return loaded
    }

    /// The vehicles coming to the stop: on a trip that leaves it within the window and has not
    /// passed it (its current_stop_sequence not beyond the stop's, its place not beyond it), each
    /// put on its trip's line no farther back than before; soonest departure first.
    func markers(_ feed: FeedMessage, scheduled: [TransitIndex.StopDeparture], rows: [BoardRow], now: Double,
                 headerTime: Double) throws(TransitError) -> [VehicleMarker] {
        var found: [(order: Int64, marker: VehicleMarker)] = []
        var seen: [String] = []
        for entity in feed.entities where entity.isDeleted != true {
            guard let v = entity.vehicle, let tripID = v.trip?.tripID, let lat = v.position?.latitude, let lon = v.position?.longitude,
                  lat.isFinite, lon.isFinite else { continue }
            let vehicleID = v.vehicle?.id ?? entity.id
            guard !seen.contains(vehicleID) else { continue }
            let at = scheduled.filter { $0.tripID == tripID }.min { abs($0.departure - Int64(now)) < abs($1.departure - Int64(now)) }
            guard let at, let trip = try trip(tripID), !trip.line.points.isEmpty,
                  let stop = trip.stops.first(where: { $0.sequence == at.stopSequence }) else { continue }
            if let current = v.currentStopSequence, Int(exactly: current).map({ $0 > at.stopSequence }) ?? true { continue }
            let previous = drawn[vehicleID].flatMap { $0.tripID == tripID ? $0.along : nil }
            guard let p = place(v, latitude: Double(lat), longitude: Double(lon), on: trip, previous: previous, due: at, now: now) else { continue }
            let diverted = p.offset > settings.divertedMeters
            if !diverted, p.distance > stop.distance + 30 { continue }
            // Never back between fetches; a diverted vehicle keeps its place on the line for when it is back.
            let along = diverted ? previous ?? p.distance : max(previous ?? 0, p.distance)
            drawn[vehicleID] = (tripID, along)
            seen.append(vehicleID)
            let time = v.timestamp.map { Double($0) } ?? headerTime
            let label = trip.route.shortName ?? v.vehicle?.label ?? trip.route.routeID
            let order = rows.first { $0.tripID == tripID }?.time ?? at.departure
            var marker = VehicleMarker(vehicleID: vehicleID, tripID: tripID, label: label, route: trip.route,
                                       bearing: v.position?.bearing.map { Double($0) }.flatMap { $0.isFinite ? $0 : nil },
                                       along: along, old: now - time > settings.staleAfter, line: trip.line)
            if diverted { marker.diverted = (Double(lat), Double(lon)) }
            found.append((order, marker))
        }
        // Vehicles gone from the feed are forgotten, so a vehicle back on a new trip starts afresh.
        for id in drawn.keys where !seen.contains(id) { drawn[id] = nil }
        found.sort { ($0.order, $0.marker.vehicleID) < ($1.order, $1.marker.vehicleID) }
        return found.prefix(settings.vehicles).map { $0.marker }
    }

    /// Where on its trip's line a vehicle is, for a line that may pass one place twice (a ring,
    /// a terminal loop, both ways along one street): between the stop its VehiclePosition names
    /// (current_stop_sequence, else stop_id) and the one before; else ahead of where it was drawn
    /// at the last fetch; else the pass nearest to where the timetable puts it now.
    func place(_ v: VehiclePosition, latitude: Double, longitude: Double, on trip: Trip, previous: Double?,
               due: TransitIndex.StopDeparture, now: Double) -> ShapeLine.Projection? {
        let line = trip.line
        let named = v.currentStopSequence.flatMap { s in trip.stops.firstIndex { $0.sequence == Int(s) } }
            ?? v.stopID.flatMap { id in trip.stops.firstIndex { $0.stopID == id } }
        if let i = named {
            let stopped = v.currentStatus == .stoppedAt
            let from = stopped || i == 0 ? trip.stops[i].distance - 100 : trip.stops[i - 1].distance - 50
            let to = trip.stops[i].distance + (stopped ? 100 : 50)
            if let p = line.project(latitude: latitude, longitude: longitude, from: from, to: to, expected: previous, weight: 0.1),
               p.offset <= settings.divertedMeters { return p }
        }
        if let previous {
            return line.project(latitude: latitude, longitude: longitude, from: previous, to: line.length, expected: previous, weight: 0.1)
        }
        return line.project(latitude: latitude, longitude: longitude, from: 0, to: line.length,
                            expected: scheduledAlong(trip, due: due, now: now), weight: 0.05)
    }

    /// Metres along `trip` where its timetable puts the vehicle at `now`: between the stops'
    /// times, by their distances (the run's origin from its departure `due` at this stop). A feed
    /// whose times start again from 00:00 past midnight (GTFS wants 24:00:00 and on; some feeds
    /// do not) is read as going on into the next day.
    func scheduledAlong(_ trip: Trip, due: TransitIndex.StopDeparture, now: Double) -> Double? {
        var times: [(arrival: Double, departure: Double, distance: Double)] = []
        var dueTime: Double?
        var lastSeen = -Double.infinity, wrap = 0.0
        for stop in trip.stops {
            guard let a = stop.arrival ?? stop.departure, let d = stop.departure ?? stop.arrival else { continue }
            if Double(a) + wrap < lastSeen - 43_200 { wrap += 86_400 }
            let arrival = Double(a) + wrap, departure = max(Double(d) + wrap, arrival)
            lastSeen = departure
            times.append((arrival, departure, stop.distance))
            if stop.sequence == due.stopSequence { dueTime = Double(stop.departure ?? a) + wrap }
        }
        guard let dueTime, let first = times.first else { return nil }
        let t = now - (Double(due.departure) - dueTime)
        if t <= first.arrival { return first.distance }
        for k in 1..<max(times.count, 1) where t <= times[k].arrival {
            let b = times[k - 1], e = times[k]
            if t <= b.departure { return b.distance }
            return b.distance + (e.distance - b.distance) * (t - b.departure) / (e.arrival - b.departure)
        }
        return times.last?.distance
    }

    private func unique<T: Equatable>(_ xs: [T]) -> [T] {
        var out: [T] = []
        for x in xs where !out.contains(x) { out.append(x) }
        return out
    }
}
