/// What a feed's index holds and the trip a setting takes, as lines for people: `pulsedot
/// transit info` prints them, check-config prints them as comments. One wording for both.
public enum TransitSummary {
    /// Agency, counts, the service period and the days left at `now` (seconds since the epoch).
    public static func feed(_ info: TransitIndex.Info, now: Double) -> [String] {
        var lines: [String] = []
        for agency in info.agencies { lines.append("agency: \(agency.name) (\(agency.timezone))") }
        lines.append("routes: \(info.routes)")
        lines.append("trips: \(info.trips)")
        lines.append("stops: \(info.stops)")
        lines.append("stop_times: \(info.stopTimes) (\(info.untimedStopTimes) without times)")
        lines.append("shapes: \(info.shapes) (\(info.shapePoints) points)")
        lines.append("frequencies: \(info.frequencies)")
        if let service = info.service {
            lines.append(service.summary(today: ServicePeriod.today(now: now)))
        } else {
            lines.append("service: no day in calendar.txt or calendar_dates.txt")
        }
        lines.append("rows skipped: \(info.skipped)")
        return lines
    }

    /// The trip as the daemon shows it, and whether its calendar has it on the service day at
    /// `now` in the agency's zone (it is shown either way; this says whether to expect it).
    public static func trip(_ trip: Trip, in index: TransitIndex, now: Double) throws(TransitError) -> [String] {
        func clock(_ seconds: Int?) -> String { seconds.map { TripChoice.clock($0) } ?? "no time" }
        var lines = ["trip: \(trip.tripID)\(trip.runStart.map { "@" + TripChoice.clock($0) } ?? "") (route \(routeName(trip.route)))"]
        lines.append("destination: \(trip.destination)")
        if let first = trip.stops.first, let last = trip.stops.last {
            lines.append("stops: \(trip.stops.count), first \(first.stopID) \(first.name) \(clock(first.departure)), "
                + "last \(last.stopID) \(last.name) \(clock(last.arrival))")
        }
        let placement = trip.placement == .shapeDistTraveled ? "stops by shape_dist_traveled" : "stops matched to it in order"
        lines.append("line: \(trip.shapeID ?? "from stop to stop"), \(Int(trip.line.length.rounded())) m, \(placement)")
        let zone = try TimeZoneRules.load(trip.timeZone)
        let day = try index.serviceDay(of: trip, at: Int64(now.rounded(.down)), in: zone)
        lines.append("runs today: \(day.runs ? "yes" : "no") (service day \(day.dateText) in \(trip.timeZone))")
        return lines
    }

    /// `804 – Antônio Bezerra / Centro`: the short and long names, whichever the feed gives.
    public static func routeName(_ route: Trip.Route) -> String {
        let name = [route.shortName, route.longName].compactMap { $0 }.joined(separator: " – ")
        return name.isEmpty ? route.routeID : name
    }
}
