import GTFS

/// A trip's names in the display's language, from translations.txt: the record's own translation
/// first, else the one of its value; a tag with a region (`he-IL`) falls back to its language
/// (`he`). What has none keeps the feed's name.
extension TransitIndex {
    /// The languages translations.txt has names in, sorted.
    public func translationLanguages() throws(TransitError) -> [String] {
        let query = try database.prepare("SELECT DISTINCT language FROM translations ORDER BY language")
        var out: [String] = []
        while try query.step() { if let l = query.text(0) { out.append(l) } }
        return out
    }

    /// The tags a language is looked up by, most precise first: `he-IL` is `he-il`, then `he`.
    static func languageTags(_ language: String) -> [String] {
        let wanted = FeedImport.languageKey(language)
        var tags = [wanted]
        let bytes = Array(wanted.utf8)
        if let dash = bytes.firstIndex(of: UInt8(ascii: "-")) { tags.append(String(decoding: bytes[..<dash], as: UTF8.self)) }
        return tags
    }

    /// Whether translations.txt has any name in `language` (or the language of its region's tag).
    public func translates(into language: String) throws(TransitError) -> Bool {
        let have = try translationLanguages()
        return Self.languageTags(language).contains { have.contains($0) }
    }

    /// The trip with its stop names, headsigns and route names in `language` where the feed has them.
    public func translated(_ trip: Trip, into language: String) throws(TransitError) -> Trip {
        let tags = Self.languageTags(language)
        let query = try database.prepare("""
            SELECT translation FROM translations WHERE language = ?1 AND table_name = ?2 AND field_name = ?3
                AND ((record_id = ?4 AND (?5 IS NULL OR record_sub_id = ?5)) OR (record_id IS NULL AND field_value = ?6))
            ORDER BY record_id IS NULL LIMIT 1
            """)
        func look(_ table: String, _ field: String, record: String, sub: String? = nil, value: String?) throws(TransitError) -> String? {
            guard let value else { return nil }
            for tag in tags {
                query.reset()
                query.bind(1, tag)
                query.bind(2, table)
                query.bind(3, field)
                query.bind(4, record)
                query.bind(5, sub)
                query.bind(6, value)
                if try query.step(), let text = query.text(0) {
                    query.reset()
                    return text
                }
            }
            query.reset()
            return nil
        }
        let r = trip.route
        let route = Trip.Route(routeID: r.routeID, shortName: try look("routes", "route_short_name", record: r.routeID, value: r.shortName) ?? r.shortName,
                               longName: try look("routes", "route_long_name", record: r.routeID, value: r.longName) ?? r.longName,
                               type: r.type, color: r.color, textColor: r.textColor)
        var stops: [Trip.Stop] = []
        stops.reserveCapacity(trip.stops.count)
        for s in trip.stops {
            let name = try look("stops", "stop_name", record: s.stopID, value: s.name) ?? s.name
            let headsign = try look("stop_times", "stop_headsign", record: trip.tripID, sub: String(s.sequence), value: s.headsign) ?? s.headsign
            stops.append(Trip.Stop(sequence: s.sequence, stopID: s.stopID, name: name, latitude: s.latitude, longitude: s.longitude,
                                   arrival: s.arrival, departure: s.departure, interpolated: s.interpolated, pickupType: s.pickupType,
                                   dropOffType: s.dropOffType, headsign: headsign, distance: s.distance))
        }
        return Trip(tripID: trip.tripID, route: route, headsign: try look("trips", "trip_headsign", record: trip.tripID, value: trip.headsign) ?? trip.headsign,
                    serviceID: trip.serviceID, timeZone: trip.timeZone, stops: stops, line: trip.line, shapeID: trip.shapeID,
                    placement: trip.placement, frequencies: trip.frequencies, runStart: trip.runStart, serviceRow: trip.serviceRow)
    }
}
