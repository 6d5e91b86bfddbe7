import GTFS
import Glibc

/// A built index, opened read-only: what it holds, and the queries the daemon asks of it.
public final class TransitIndex {
    public struct Agency: Equatable, Sendable {
        public let name: String
        public let timezone: String

        public init(name: String, timezone: String) {
            self.name = name
            self.timezone = timezone
        }
    }

    /// What `pulsedot transit info` prints and the importer reports.
    public struct Info: Sendable {
        public let agencies: [Agency]
        public let routes: Int
        public let trips: Int
        public let stops: Int
        public let stopTimes: Int
        /// stop_times rows without a time, to be interpolated.
        public let untimedStopTimes: Int
        public let shapes: Int
        public let shapePoints: Int
        public let frequencies: Int
        /// nil for a feed whose calendars name no day at all.
        public let service: ServicePeriod?
        public let skipped: Int
    }

    /// A shape passing near a position, and how near.
    public struct NearShape: Equatable, Sendable {
        public let shapeID: String
        public let meters: Double
    }

    public let path: String
    public let feedHash: String
    let database: IndexDatabase

    /// The page cache of a reader, in KiB: the daemon's queries touch a few pages each.
    static let readerCacheKiB = 2048

    public init(path: String) throws(TransitError) {
        self.path = path
        database = try IndexDatabase.open(path, writable: false)
        try database.execute("PRAGMA cache_size = -\(Self.readerCacheKiB)", doing: "opening the index")
        let meta = try database.prepare("SELECT value FROM meta WHERE key = ?1")
        meta.bind(1, "version")
        guard try meta.step(), meta.integer(0) == Int64(IndexSchema.version) else {
            throw .database(path: path, doing: "reading the index", message: "not a transit index of version \(IndexSchema.version): import the feed again")
        }
        meta.reset()
        meta.bind(1, "feed_sha256")
        guard try meta.step(), let hash = meta.text(0) else {
            throw .database(path: path, doing: "reading the index", message: "no feed hash: an unfinished index")
        }
        feedHash = hash
        meta.reset()
    }

    public func info() throws(TransitError) -> Info {
        var agencies: [Agency] = []
        let rows = try database.prepare("SELECT name, timezone FROM agency ORDER BY id")
        while try rows.step() { agencies.append(Agency(name: rows.text(0) ?? "", timezone: rows.text(1) ?? "")) }
        func count(_ sql: String) throws(TransitError) -> Int { Int(try database.integer(sql) ?? 0) }
        return Info(
            agencies: agencies,
            routes: try count("SELECT count(*) FROM routes"),
            trips: try count("SELECT count(*) FROM trips"),
            stops: try count("SELECT count(*) FROM stops"),
            stopTimes: try count("SELECT count(*) FROM stop_times"),
            untimedStopTimes: try count("SELECT count(*) FROM stop_times WHERE arrival IS NULL"),
            shapes: try count("SELECT count(*) FROM shapes"),
            shapePoints: try count("SELECT count(*) FROM shape_points"),
            frequencies: try count("SELECT count(*) FROM frequencies"),
            service: try servicePeriod(),
            skipped: try count("SELECT value FROM meta WHERE key = 'skipped'"))
    }

    /// Shapes with a segment within `meters` of the position, nearest first. The R*Tree gives the
    /// segments whose boxes touch the search box; each is then measured exactly (on a plane
    /// tangent at the position, which is exact enough over the few hundred metres asked about).
    public func shapesNear(latitude: Double, longitude: Double, meters: Double) throws(TransitError) -> [NearShape] {
        let metersPerDegree = 111_320.0
        let cosine = max(cos(latitude * .pi / 180), 1e-6)
        let dLat = meters / metersPerDegree, dLon = meters / (metersPerDegree * cosine)
        let query = try database.prepare("""
            SELECT s.shape_id, a.lat, a.lon, coalesce(b.lat, a.lat), coalesce(b.lon, a.lon)
            FROM shape_segments g JOIN shapes s ON s.id = g.shape
            JOIN shape_points a ON a.shape = g.shape AND a.sequence = g.sequence
            LEFT JOIN shape_points b ON b.shape = g.shape AND b.sequence = (
                SELECT min(sequence) FROM shape_points WHERE shape = g.shape AND sequence > g.sequence)
            WHERE g.max_lat >= ?1 AND g.min_lat <= ?2 AND g.max_lon >= ?3 AND g.min_lon <= ?4
            """)
        query.bind(1, latitude - dLat)
        query.bind(2, latitude + dLat)
        query.bind(3, longitude - dLon)
        query.bind(4, longitude + dLon)
        var nearest: [String: Double] = [:]
        while try query.step() {
            // Metres east and north of the position.
            func local(_ lat: Double, _ lon: Double) -> (x: Double, y: Double) {
                ((lon - longitude) * metersPerDegree * cosine, (lat - latitude) * metersPerDegree)
            }
            let a = local(query.double(1)!, query.double(2)!), b = local(query.double(3)!, query.double(4)!)
            let dx = b.x - a.x, dy = b.y - a.y
            let length2 = dx * dx + dy * dy
            let t = length2 > 0 ? min(max(-(a.x * dx + a.y * dy) / length2, 0), 1) : 0
            let px = a.x + t * dx, py = a.y + t * dy
            let distance = (px * px + py * py).squareRoot()
            let id = query.text(0)!
            if distance <= meters, distance < nearest[id] ?? .infinity { nearest[id] = distance }
        }
        return nearest.map { NearShape(shapeID: $0.key, meters: $0.value) }.sorted { ($0.meters, $0.shapeID) < ($1.meters, $1.shapeID) }
    }
}
