import GTFS

/// stops (parents linked once all are read) and stop_times.
extension FeedImport {
    func importStops() throws(TransitError) {
        guard let t = try table("stops.txt") else { return }
        let id = try column(t, "stop_id"), code = t.column("stop_code"), name = t.column("stop_name")
        let lat = t.column("stop_lat"), lon = t.column("stop_lon"), type = t.column("location_type")
        let parent = t.column("parent_station"), platform = t.column("platform_code")
        let insert = try database.prepare("""
            INSERT INTO stops (stop_id, code, name, lat, lon, location_type, parent, platform_code) VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL, ?7)
            """)
        // A parent may come after its children in the file.
        var parents: [(row: Int64, parent: String, line: Int, column: Int)] = []
        try forEachRow(t, "stops.txt") { () throws(GTFSError) in
            let stopID = try t.required(id)
            guard stops[stopID] == nil else { throw t.problem(id, "a second stop with this id: '\(stopID)'") }
            let kind = try t.integer(type, in: 0...4, default: 0)!
            let latitude = try t.number(lat, in: -90...90), longitude = try t.number(lon, in: -180...180)
            // Stops, stations and entrances must have a position; generic nodes and boarding areas need not.
            if kind <= 2 {
                guard latitude != nil else { throw t.problem(lat ?? id, "empty, and a stop needs a position") }
                guard longitude != nil else { throw t.problem(lon ?? id, "empty, and a stop needs a position") }
                guard latitude != 0 || longitude != 0 else { throw t.problem(lat!, "position 0,0: a placeholder, not a stop") }
            }
            insert.bind(1, stopID)
            insert.bind(2, t.value(code))
            insert.bind(3, t.value(name))
            insert.bind(4, latitude)
            insert.bind(5, longitude)
            insert.bind(6, kind)
            insert.bind(7, t.value(platform))
            try insertRow(insert, t)
            stops[stopID] = lastRowID
            if let parent, let parentID = t.value(parent) { parents.append((lastRowID, parentID, t.line, parent + 1)) }
        }
        let link = try database.prepare("UPDATE stops SET parent = ?1 WHERE id = ?2")
        for entry in parents {
            guard let row = stops[entry.parent] else {
                let error = GTFSError(file: t.file, line: entry.line, column: entry.column, field: "parent_station",
                                      message: "no stop with this id (stop kept without a parent): '\(entry.parent)'", skippable: true)
                dropValue("stops.txt", error)
                continue
            }
            link.bind(1, row)
            link.bind(2, entry.row)
            try link.run(doing: "linking stops to their parents")
        }
    }

    func importStopTimes() throws(TransitError) {
        guard let t = try table("stop_times.txt") else { return }
        let trip = try column(t, "trip_id"), stop = try column(t, "stop_id"), sequence = try column(t, "stop_sequence")
        let arrival = t.column("arrival_time"), departure = t.column("departure_time"), headsign = t.column("stop_headsign")
        let pickup = t.column("pickup_type"), dropOff = t.column("drop_off_type"), distance = t.column("shape_dist_traveled")
        let insert = try database.prepare("""
            INSERT INTO stop_times (trip, stop_sequence, stop, arrival, departure, stop_headsign, pickup_type, drop_off_type, shape_dist)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        try forEachRow(t, "stop_times.txt") { () throws(GTFSError) in
            let tripRow = try reference(trips, t, trip, what: "trip in trips.txt (or it was skipped)")
            let stopRow = try reference(stops, t, stop, what: "stop in stops.txt (or it was skipped)")
            guard let order = try t.integer(sequence, in: 0...Int(Int32.max)) else { throw t.problem(sequence, "empty, and the field is required") }
            // Either time alone stands for both; neither means "interpolate between timed stops".
            var arrives = try t.time(arrival), departs = try t.time(departure)
            if arrives == nil { arrives = departs }
            if departs == nil { departs = arrives }
            if let a = arrives, let d = departs, d < a { throw t.problem(departure!, "before arrival_time: '\(t.value(departure) ?? "")'") }
            insert.bind(1, tripRow)
            insert.bind(2, order)
            insert.bind(3, stopRow)
            insert.bind(4, arrives)
            insert.bind(5, departs)
            insert.bind(6, t.value(headsign))
            insert.bind(7, try t.integer(pickup, in: 0...3, default: 0))
            insert.bind(8, try t.integer(dropOff, in: 0...3, default: 0))
            insert.bind(9, optionalValue("stop_times.txt") { () throws(GTFSError) in try t.number(distance, in: 0...1e9) })
            guard try insertUnique(insert, t) else { throw t.problem(sequence, "a second stop time with this stop_sequence in the trip: '\(order)'") }
        }
    }
}
