import GTFS

/// One feed read into one open index: the tables in the order their references need (agencies
/// before routes, services and routes before trips, stops and trips before stop_times), ids
/// turned into row ids, broken rows skipped and counted. `TransitImporter` owns the files around it.
final class FeedImport {
    let feed: Feed
    let database: IndexDatabase
    let progress: (String) -> Void
    var tally = SkipTally()
    /// Rows imported per file.
    var counts: [String: Int] = [:]

    var agencies: [String: Int64] = [:]
    var services: [String: Int64] = [:]
    var routes: [String: Int64] = [:]
    var stops: [String: Int64] = [:]
    var shapes: [String: Int64] = [:]
    var trips: [String: Int64] = [:]

    /// A row count said every this many rows of one file, so a big stop_times shows it is moving.
    static let progressEvery = 250_000

    init(feed: Feed, database: IndexDatabase, progress: @escaping (String) -> Void) {
        self.feed = feed
        self.database = database
        self.progress = progress
    }

    /// The files every feed must have, in the order they are read.
    static let requiredFiles = ["agency.txt", "routes.txt", "stops.txt", "trips.txt", "stop_times.txt"]

    /// Whether the feed has the files an import needs: checked before anything is read or written
    /// (`TransitImporter.checkedFeed`), so a feed missing one is refused at once, and without an
    /// import by whoever only checks it.
    static func checkFiles(_ feed: Feed) throws(TransitError) {
        for name in requiredFiles where !feed.contains(name) {
            throw .feed(GTFSError(file: feed.displayName(name), message: "missing: every feed must have it"))
        }
        guard feed.contains("calendar.txt") || feed.contains("calendar_dates.txt") else {
            throw .feed(GTFSError(file: feed.displayName("calendar.txt"), message: "missing, and so is calendar_dates.txt: a feed needs one of them"))
        }
    }

    /// Reads the feed, whose files `checkFiles` passed, into the database.
    func run() throws(TransitError) {
        try database.execute(IndexSchema.tables, doing: "creating the tables")
        try database.execute("BEGIN")
        try importAgencies()
        try importCalendar()
        try importCalendarDates()
        try importRoutes()
        try importStops()
        try importShapes()
        try importTrips()
        try importStopTimes()
        try importFrequencies()
        try importTranslations()
        progress("indexing")
        try database.execute(IndexSchema.indexes, doing: "creating the indexes")
        try database.execute("COMMIT")
        try database.execute("ANALYZE", doing: "analyzing the index")
    }

    /// The table for `name`; nil for an optional file the feed does not have (the required ones
    /// are there: `checkFiles`).
    func table(_ name: String) throws(TransitError) -> CSVTable? {
        guard feed.contains(name) else { return nil }
        let size = feed.files[name] ?? 0
        progress("reading \(name) (\(size < 1 << 20 ? "\((size + 1023) / 1024) KiB" : TransitError.megabytes(size)))")
        do { return try feed.table(name) } catch { throw .feed(error) }
    }

    func column(_ table: CSVTable, _ name: String) throws(TransitError) -> Int {
        do { return try table.require(name) } catch { throw .feed(error) }
    }

    /// Calls `body` for each row; a skippable problem (from the reader or from `body`) skips that
    /// row and is counted; any other ends the import.
    func forEachRow(_ table: CSVTable, _ name: String, _ body: () throws(GTFSError) -> Void) throws(TransitError) {
        var imported = 0
        while true {
            do throws(GTFSError) {
                guard try table.next() else { break }
                try body()
                imported += 1
                if imported % Self.progressEvery == 0 { progress("\(name): \(imported) rows") }
            } catch {
                guard error.skippable else { throw .feed(error) }
                tally.skip(Self.kind(name, error), error)
            }
        }
        counts[name] = imported
        progress("\(name): \(imported) rows")
    }

    /// What makes two skipped rows the same kind: the file, the field, and the message without
    /// the row's own value (which follows `: '`, or else the first `: `).
    static func kind(_ name: String, _ error: GTFSError) -> String {
        let text = Array(error.message.utf8)
        // Byte search: String's substring search is not in Embedded Swift (the ARM build).
        func start(of needle: [UInt8]) -> Int? {
            guard text.count >= needle.count else { return nil }
            for i in 0...(text.count - needle.count) where Array(text[i..<(i + needle.count)]) == needle { return i }
            return nil
        }
        let cut = start(of: Array(": '".utf8)) ?? start(of: Array(": ".utf8)) ?? text.count
        return name + (error.field.map { " (\($0))" } ?? "") + ": " + String(decoding: text[..<cut], as: UTF8.self)
    }

    /// A skippable problem with the current row that is not about one field.
    func rowProblem(_ table: CSVTable, _ message: String) -> GTFSError {
        GTFSError(file: table.file, line: table.line, message: message, skippable: true)
    }

    /// A value counted as left out while its row is kept (a route colour that is not one).
    func dropValue(_ name: String, _ error: GTFSError) {
        tally.skip(Self.kind(name, error), error)
    }

    /// The row id for `text` among `ids`, or the skippable error naming the field.
    func reference(_ ids: [String: Int64], _ table: CSVTable, _ column: Int, what: String) throws(GTFSError) -> Int64 {
        let text = try table.required(column)
        guard let id = ids[text] else { throw table.problem(column, "no \(what) with this id: '\(text)'") }
        return id
    }
}
