import GTFS

/// agency, calendar, calendar_dates, routes, trips and frequencies.
extension FeedImport {
    func importAgencies() throws(TransitError) {
        guard let t = try table("agency.txt") else { return }
        let id = t.column("agency_id"), name = try column(t, "agency_name"), timezone = try column(t, "agency_timezone")
        let url = t.column("agency_url"), lang = t.column("agency_lang")
        let insert = try database.prepare("INSERT INTO agency (agency_id, name, url, timezone, lang) VALUES (?1, ?2, ?3, ?4, ?5)")
        try forEachRow(t, "agency.txt") { () throws(GTFSError) in
            let agencyID = t.value(id) ?? ""
            guard agencies[agencyID] == nil else {
                throw id.map { t.problem($0, "a second agency with this id: '\(agencyID)'") } ?? rowProblem(t, "a second agency without agency_id")
            }
            insert.bind(1, t.value(id))
            insert.bind(2, try t.required(name))
            insert.bind(3, t.value(url))
            insert.bind(4, try t.required(timezone))
            insert.bind(5, t.value(lang))
            try insertRow(insert, t)
            agencies[agencyID] = lastRowID
        }
        guard !agencies.isEmpty else { throw .feed(GTFSError(file: t.file, message: "no agency could be read (\(tally.lines.joined(separator: "; ")))")) }
    }

    func importCalendar() throws(TransitError) {
        guard let t = try table("calendar.txt") else { return }
        let service = try column(t, "service_id"), start = try column(t, "start_date"), end = try column(t, "end_date")
        var days: [Int] = []
        for name in ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] { days.append(try column(t, name)) }
        let insert = try database.prepare("INSERT INTO calendar (service, days, start_date, end_date) VALUES (?1, ?2, ?3, ?4)")
        try forEachRow(t, "calendar.txt") { () throws(GTFSError) in
            let serviceID = try t.required(service)
            var mask = 0
            for (bit, column) in days.enumerated() {
                guard let flag = try t.integer(column, in: 0...1) else { throw t.problem(column, "empty, and the field is required") }
                mask |= flag << bit
            }
            let first = try t.date(start), last = try t.date(end)
            guard first <= last else { throw t.problem(end, "ends before it starts (\(first)): '\(last)'") }
            let key = try serviceRow(serviceID, t)
            insert.bind(1, key)
            insert.bind(2, mask)
            insert.bind(3, first)
            insert.bind(4, last)
            guard try insertUnique(insert, t) else {
                throw t.problem(service, "a second calendar row for this service: '\(serviceID)'")
            }
        }
    }

    func importCalendarDates() throws(TransitError) {
        guard let t = try table("calendar_dates.txt") else { return }
        let service = try column(t, "service_id"), date = try column(t, "date"), exception = try column(t, "exception_type")
        let insert = try database.prepare("INSERT INTO calendar_dates (service, date, exception_type) VALUES (?1, ?2, ?3)")
        try forEachRow(t, "calendar_dates.txt") { () throws(GTFSError) in
            let serviceID = try t.required(service)
            let day = try t.date(date)
            guard let type = try t.integer(exception, in: 1...2) else { throw t.problem(exception, "empty, and the field is required") }
            insert.bind(1, try serviceRow(serviceID, t))
            insert.bind(2, day)
            insert.bind(3, type)
            guard try insertUnique(insert, t) else {
                throw t.problem(date, "a second exception for this service on this date: '\(day)'")
            }
        }
    }

    /// The row id of a service, made at its first mention (calendar or calendar_dates).
    func serviceRow(_ serviceID: String, _ t: CSVTable) throws(GTFSError) -> Int64 {
        if let id = services[serviceID] { return id }
        let insert: Statement
        do { insert = try database.prepare("INSERT INTO services (service_id) VALUES (?1)") } catch {
            throw GTFSError(file: t.file, line: t.line, message: "\(error)")
        }
        insert.bind(1, serviceID)
        try insertRow(insert, t)
        services[serviceID] = lastRowID
        return lastRowID
    }

    func importRoutes() throws(TransitError) {
        guard let t = try table("routes.txt") else { return }
        let id = try column(t, "route_id"), type = try column(t, "route_type")
        let agency = t.column("agency_id"), short = t.column("route_short_name"), long = t.column("route_long_name")
        let color = t.column("route_color"), textColor = t.column("route_text_color")
        let sole = agencies.count == 1 ? agencies.values.first : nil
        let insert = try database.prepare("""
            INSERT INTO routes (route_id, agency, short_name, long_name, type, color, text_color) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        try forEachRow(t, "routes.txt") { () throws(GTFSError) in
            let routeID = try t.required(id)
            guard routes[routeID] == nil else { throw t.problem(id, "a second route with this id: '\(routeID)'") }
            let agencyRow: Int64?
            if let agencyID = t.value(agency) {
                guard let row = agencies[agencyID] else { throw t.problem(agency!, "no agency with this id: '\(agencyID)'") }
                agencyRow = row
            } else {
                guard let sole else { throw t.problem(agency ?? id, "empty, and the feed has several agencies") }
                agencyRow = sole
            }
            guard t.value(short) != nil || t.value(long) != nil else {
                throw t.problem(short ?? long ?? id, "neither route_short_name nor route_long_name given")
            }
            insert.bind(1, routeID)
            insert.bind(2, agencyRow)
            insert.bind(3, t.value(short))
            insert.bind(4, t.value(long))
            insert.bind(5, try t.integer(type, in: 0...1702))
            insert.bind(6, optionalValue("routes.txt") { () throws(GTFSError) in try t.color(color) })
            insert.bind(7, optionalValue("routes.txt") { () throws(GTFSError) in try t.color(textColor) })
            try insertRow(insert, t)
            routes[routeID] = lastRowID
        }
    }

    func importTrips() throws(TransitError) {
        guard let t = try table("trips.txt") else { return }
        let route = try column(t, "route_id"), service = try column(t, "service_id"), id = try column(t, "trip_id")
        let headsign = t.column("trip_headsign"), short = t.column("trip_short_name"), direction = t.column("direction_id")
        let block = t.column("block_id"), shape = t.column("shape_id")
        let insert = try database.prepare("""
            INSERT INTO trips (trip_id, route, service, headsign, short_name, direction, block_id, shape)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        try forEachRow(t, "trips.txt") { () throws(GTFSError) in
            let tripID = try t.required(id)
            guard trips[tripID] == nil else { throw t.problem(id, "a second trip with this id: '\(tripID)'") }
            insert.bind(1, tripID)
            insert.bind(2, try reference(routes, t, route, what: "route"))
            insert.bind(3, try reference(services, t, service, what: "service in calendar.txt or calendar_dates.txt"))
            insert.bind(4, t.value(headsign))
            insert.bind(5, t.value(short))
            insert.bind(6, optionalValue("trips.txt") { () throws(GTFSError) in try t.integer(direction, in: 0...1) })
            insert.bind(7, t.value(block))
            // A trip whose shape is unknown still runs: it is kept, drawn from its stops.
            insert.bind(8, optionalValue("trips.txt") { () throws(GTFSError) -> Int64? in
                guard let shape, t.value(shape) != nil else { return nil }
                return try reference(shapes, t, shape, what: "shape in shapes.txt (trip kept without one)")
            })
            try insertRow(insert, t)
            trips[tripID] = lastRowID
        }
    }

    func importFrequencies() throws(TransitError) {
        guard let t = try table("frequencies.txt") else { return }
        let trip = try column(t, "trip_id"), start = try column(t, "start_time"), end = try column(t, "end_time")
        let headway = try column(t, "headway_secs"), exact = t.column("exact_times")
        let insert = try database.prepare("""
            INSERT INTO frequencies (trip, start_time, end_time, headway_secs, exact_times) VALUES (?1, ?2, ?3, ?4, ?5)
            """)
        try forEachRow(t, "frequencies.txt") { () throws(GTFSError) in
            insert.bind(1, try reference(trips, t, trip, what: "trip"))
            guard let first = try t.time(start) else { throw t.problem(start, "empty, and the field is required") }
            guard let last = try t.time(end) else { throw t.problem(end, "empty, and the field is required") }
            guard last > first else { throw t.problem(end, "not after start_time: '\(t.value(end) ?? "")'") }
            guard let every = try t.integer(headway, in: 1...86400) else { throw t.problem(headway, "empty, and the field is required") }
            insert.bind(2, first)
            insert.bind(3, last)
            insert.bind(4, every)
            insert.bind(5, try t.integer(exact, in: 0...1, default: 0))
            guard try insertUnique(insert, t) else {
                throw t.problem(start, "a second period of this trip starting at the same time")
            }
        }
    }
}
