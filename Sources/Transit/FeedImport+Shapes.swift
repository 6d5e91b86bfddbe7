import GTFS

/// shapes: the points in sequence order (the primary key keeps them so, whatever the file's
/// order), then one R*Tree box per segment between consecutive points, so "which shapes pass near
/// here" reads a few boxes instead of every point.
extension FeedImport {
    func importShapes() throws(TransitError) {
        guard let t = try table("shapes.txt") else { return }
        let id = try column(t, "shape_id"), lat = try column(t, "shape_pt_lat"), lon = try column(t, "shape_pt_lon")
        let sequence = try column(t, "shape_pt_sequence"), distance = t.column("shape_dist_traveled")
        let newShape = try database.prepare("INSERT INTO shapes (shape_id) VALUES (?1)")
        let insert = try database.prepare("INSERT INTO shape_points (shape, sequence, lat, lon, dist) VALUES (?1, ?2, ?3, ?4, ?5)")
        try forEachRow(t, "shapes.txt") { () throws(GTFSError) in
            let shapeID = try t.required(id)
            guard let latitude = try t.number(lat, in: -90...90) else { throw t.problem(lat, "empty, and the field is required") }
            guard let longitude = try t.number(lon, in: -180...180) else { throw t.problem(lon, "empty, and the field is required") }
            guard let order = try t.integer(sequence, in: 0...Int(Int32.max)) else { throw t.problem(sequence, "empty, and the field is required") }
            let shapeRow: Int64
            if let row = shapes[shapeID] { shapeRow = row } else {
                newShape.bind(1, shapeID)
                try insertRow(newShape, t)
                shapeRow = lastRowID
                shapes[shapeID] = shapeRow
            }
            insert.bind(1, shapeRow)
            insert.bind(2, order)
            insert.bind(3, latitude)
            insert.bind(4, longitude)
            insert.bind(5, optionalValue("shapes.txt") { () throws(GTFSError) in try t.number(distance, in: 0...1e9) })
            guard try insertUnique(insert, t) else { throw t.problem(sequence, "a second point with this shape_pt_sequence in the shape: '\(order)'") }
        }
        try indexSegments()
    }

    /// One box per pair of consecutive points of a shape; a shape of one point gets that point.
    private func indexSegments() throws(TransitError) {
        progress("indexing shape segments")
        let points = try database.prepare("SELECT shape, sequence, lat, lon FROM shape_points ORDER BY shape, sequence")
        let box = try database.prepare("""
            INSERT INTO shape_segments (min_lat, max_lat, min_lon, max_lon, shape, sequence) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """)
        var previous: (shape: Int64, sequence: Int64, lat: Double, lon: Double)?
        var alone = false
        func add(_ a: (shape: Int64, sequence: Int64, lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) throws(TransitError) {
            box.bind(1, min(a.lat, b.lat))
            box.bind(2, max(a.lat, b.lat))
            box.bind(3, min(a.lon, b.lon))
            box.bind(4, max(a.lon, b.lon))
            box.bind(5, a.shape)
            box.bind(6, a.sequence)
            try box.run(doing: "indexing the segments of shape \(a.shape)")
        }
        while try points.step() {
            let p = (shape: points.integer(0)!, sequence: points.integer(1)!, lat: points.double(2)!, lon: points.double(3)!)
            if let q = previous, q.shape == p.shape {
                try add(q, (p.lat, p.lon))
                alone = false
            } else {
                if let q = previous, alone { try add(q, (q.lat, q.lon)) }
                alone = true
            }
            previous = p
        }
        if let q = previous, alone { try add(q, (q.lat, q.lon)) }
    }
}
