/// The index's tables. Text ids of the feed are kept once, in the table that defines them; every
/// reference is the integer row id, so stop_times (most of a feed) is a few integers a row, kept
/// in trip order by its primary key (WITHOUT ROWID: the key is the table). Times are seconds past
/// midnight of the service day, NULL where the feed leaves them to be interpolated.
enum IndexSchema {
    /// Bumped when the tables change, so an index from an older program is rebuilt, not misread.
    static let version = 3

    static let tables = """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
        CREATE TABLE agency (id INTEGER PRIMARY KEY, agency_id TEXT, name TEXT NOT NULL, url TEXT,
            timezone TEXT NOT NULL, lang TEXT);
        CREATE TABLE services (id INTEGER PRIMARY KEY, service_id TEXT NOT NULL UNIQUE);
        CREATE TABLE calendar (service INTEGER PRIMARY KEY, days INTEGER NOT NULL,
            start_date INTEGER NOT NULL, end_date INTEGER NOT NULL);
        CREATE TABLE calendar_dates (service INTEGER NOT NULL, date INTEGER NOT NULL, exception_type INTEGER NOT NULL,
            PRIMARY KEY (service, date)) WITHOUT ROWID;
        CREATE TABLE routes (id INTEGER PRIMARY KEY, route_id TEXT NOT NULL UNIQUE, agency INTEGER, short_name TEXT,
            long_name TEXT, type INTEGER, color INTEGER, text_color INTEGER);
        CREATE TABLE stops (id INTEGER PRIMARY KEY, stop_id TEXT NOT NULL UNIQUE, code TEXT, name TEXT, lat REAL, lon REAL,
            location_type INTEGER NOT NULL, parent INTEGER, platform_code TEXT);
        CREATE TABLE shapes (id INTEGER PRIMARY KEY, shape_id TEXT NOT NULL UNIQUE);
        CREATE TABLE shape_points (shape INTEGER NOT NULL, sequence INTEGER NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL,
            dist REAL, PRIMARY KEY (shape, sequence)) WITHOUT ROWID;
        CREATE VIRTUAL TABLE shape_segments USING rtree(id, min_lat, max_lat, min_lon, max_lon, +shape INTEGER, +sequence INTEGER);
        CREATE TABLE trips (id INTEGER PRIMARY KEY, trip_id TEXT NOT NULL UNIQUE, route INTEGER NOT NULL, service INTEGER NOT NULL,
            headsign TEXT, short_name TEXT, direction INTEGER, block_id TEXT, shape INTEGER);
        CREATE TABLE stop_times (trip INTEGER NOT NULL, stop_sequence INTEGER NOT NULL, stop INTEGER NOT NULL,
            arrival INTEGER, departure INTEGER, stop_headsign TEXT, pickup_type INTEGER NOT NULL, drop_off_type INTEGER NOT NULL,
            shape_dist REAL, PRIMARY KEY (trip, stop_sequence)) WITHOUT ROWID;
        CREATE TABLE frequencies (trip INTEGER NOT NULL, start_time INTEGER NOT NULL, end_time INTEGER NOT NULL,
            headway_secs INTEGER NOT NULL, exact_times INTEGER NOT NULL, PRIMARY KEY (trip, start_time)) WITHOUT ROWID;
        CREATE TABLE translations (table_name TEXT NOT NULL, field_name TEXT NOT NULL, language TEXT NOT NULL, record_id TEXT,
            record_sub_id TEXT, field_value TEXT, translation TEXT NOT NULL);
        """

    /// Made after the rows are in: one sorted build is faster than keeping them up to date. Only
    /// what the daemon asks: a trip's stops come by the primary key; a stop's board asks the
    /// other way round (the trips leaving one stop in a time window), hence stop_times_by_stop.
    static let indexes = """
        CREATE INDEX trips_by_route ON trips (route);
        CREATE INDEX trips_by_shape ON trips (shape);
        CREATE INDEX trips_by_block ON trips (block_id) WHERE block_id IS NOT NULL;
        CREATE INDEX trips_by_service ON trips (service);
        CREATE INDEX stops_by_parent ON stops (parent) WHERE parent IS NOT NULL;
        CREATE INDEX stop_times_by_stop ON stop_times (stop, departure);
        CREATE INDEX calendar_dates_by_date ON calendar_dates (date);
        CREATE INDEX translations_by_record ON translations (language, table_name, field_name, record_id, record_sub_id);
        """
}
