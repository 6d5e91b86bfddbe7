/// What a stop's screen needs besides its departures: which agencies run its routes and which
/// station its platforms belong to, so an alert naming either reaches the screen.
extension TransitIndex {
    /// The agency_id of each route given (routes without one, in a one-agency feed, take that
    /// agency's id when it has one).
    public func agencyIDs(ofRoutes routeIDs: [String]) throws(TransitError) -> [String] {
        let query = try database.prepare("""
            SELECT coalesce(a.agency_id, (SELECT agency_id FROM agency ORDER BY id LIMIT 1))
            FROM routes r LEFT JOIN agency a ON a.id = r.agency WHERE r.route_id = ?1
            """)
        var ids: [String] = []
        for id in routeIDs {
            query.bind(1, id)
            if try query.step(), let agency = query.text(0), !ids.contains(agency) { ids.append(agency) }
            query.reset()
        }
        return ids
    }

    /// The parent stations of the stops given, by stop_id.
    public func parentStations(of stopIDs: [String]) throws(TransitError) -> [String] {
        let query = try database.prepare("SELECT p.stop_id FROM stops s JOIN stops p ON p.id = s.parent WHERE s.stop_id = ?1")
        var ids: [String] = []
        for id in stopIDs {
            query.bind(1, id)
            if try query.step(), let parent = query.text(0), !ids.contains(parent) { ids.append(parent) }
            query.reset()
        }
        return ids
    }

    /// The stop's place (a platform without coordinates takes its station's).
    public func stopPlace(_ stopID: String) throws(TransitError) -> (name: String, latitude: Double, longitude: Double)? {
        let query = try database.prepare("""
            SELECT coalesce(s.name, p.name, s.stop_id), coalesce(s.lat, p.lat), coalesce(s.lon, p.lon)
            FROM stops s LEFT JOIN stops p ON p.id = s.parent WHERE s.stop_id = ?1
            """)
        query.bind(1, stopID)
        defer { query.reset() }
        guard try query.step(), let lat = query.double(1), let lon = query.double(2) else { return nil }
        return (query.text(0) ?? stopID, lat, lon)
    }
}
