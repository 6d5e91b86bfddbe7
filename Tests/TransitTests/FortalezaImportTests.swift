import Foundation
import GTFS
import TestSupport
import Transit
import XCTest

/// The real Fortaleza feed (see its README in the test data): imported once, then checked against
/// the feed's own numbers, its CSV rows, and geometry measured independently.
final class FortalezaImportTests: XCTestCase {
    static let feed = "/work/shared/testdata/gtfs/fortaleza.zip"
    nonisolated(unsafe) static var imported: (report: TransitImporter.Report, directory: URL)?

    static func index() throws -> (report: TransitImporter.Report, directory: URL) {
        if let imported { return imported }
        let directory = try TestEnvironment.temporaryDirectory("fortaleza")
        var lines: [String] = []
        let report = try TransitImporter.importFeed(at: feed, cacheDirectory: directory.path) { lines.append($0) }
        XCTAssertTrue(lines.contains("stop_times.txt: 44646 rows"), "\(lines)")
        imported = (report, directory)
        return (report, directory)
    }

    override class func tearDown() {
        if let imported { try? FileManager.default.removeItem(at: imported.directory) }
        imported = nil
    }

    func testCountsAreTheFeedsOwn() throws {
        let (report, _) = try Self.index()
        let info = report.info
        XCTAssertEqual(info.agencies, [TransitIndex.Agency(name: "ETUFOR", timezone: "America/Fortaleza")])
        XCTAssertEqual(info.routes, 14)
        XCTAssertEqual(info.trips, 2292)
        XCTAssertEqual(info.shapes, 14)
        XCTAssertEqual(info.stopTimes, 44_646)
        XCTAssertEqual(info.untimedStopTimes, 6637)
        XCTAssertEqual(info.frequencies, 0)
        XCTAssertEqual(info.skipped, 0)
        XCTAssertEqual(report.skipped, [])
        XCTAssertEqual(info.service, ServicePeriod(first: 20_190_614, last: 20_190_914))
        XCTAssertEqual(info.service?.daysLeft(today: CivilDay.day(fromDate: 20_190_901)), 14)
        XCTAssertEqual(info.service?.summary(today: CivilDay.day(fromDate: 20_190_914)), "service 2019-06-14 to 2019-09-14: 1 day left")
        XCTAssertEqual(info.service?.summary(today: CivilDay.day(fromDate: 20_190_916)), "service 2019-06-14 to 2019-09-14: ended 2 days ago")
        // 2,292 trips on 14 shapes, every trip with one.
        let db = try IndexReader(report.path)
        XCTAssertEqual(try db.value("SELECT count(DISTINCT shape) || '/' || count(*) FROM trips WHERE shape IS NOT NULL"), "14/2292")
    }

    /// The cache file is named by the zip's SHA-256, built once, reused, with no temporary left.
    func testTheIndexIsNamedByTheFeedsHashAndReused() throws {
        let (report, directory) = try Self.index()
        let sum = try runProgram("/usr/bin/sha256sum", [Self.feed]).stdout.prefix(64)
        XCTAssertEqual(report.feedHash, String(sum))
        XCTAssertEqual(report.path, directory.path + "/" + sum + ".sqlite")
        XCTAssertFalse(report.reused)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [sum + ".sqlite"])
        let again = try TransitImporter.importFeed(at: Self.feed, cacheDirectory: directory.path) { _ in }
        XCTAssertTrue(again.reused)
        XCTAssertEqual(again.path, report.path)
        XCTAssertEqual(again.info.stopTimes, 44_646)
    }

    /// A trip's rows as the CSV gives them: times in seconds (NULL where the feed leaves a gap),
    /// in stop_sequence order, stops by their ids.
    func testStopTimesAreTheCSVsRows() throws {
        let (report, _) = try Self.index()
        let csv = try runProgram("/usr/bin/unzip", ["-p", Self.feed, "stop_times.txt"]).stdout
        let expected = csv.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { $0.hasPrefix("D804-T01V01B01-I,") }
            .map { line -> String in
                let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                func seconds(_ t: String) -> String {
                    guard !t.isEmpty else { return "NULL" }
                    let p = t.split(separator: ":").map { Int($0)! }
                    return String(p[0] * 3600 + p[1] * 60 + p[2])
                }
                return "\(f[4])|\(f[3])|\(seconds(f[1]))|\(seconds(f[2]))"
            }
        XCTAssertGreaterThan(expected.count, 10)
        let db = try IndexReader(report.path)
        let got = try db.rows("""
            SELECT st.stop_sequence, s.stop_id, st.arrival, st.departure FROM stop_times st
            JOIN trips t ON t.id = st.trip JOIN stops s ON s.id = st.stop
            WHERE t.trip_id = 'D804-T01V01B01-I' ORDER BY st.stop_sequence
            """)
        XCTAssertEqual(got, expected)
    }

    /// The queries the daemon will ask are answered from indexes, not by scanning.
    func testQueriesUseTheIndexes() throws {
        let (report, _) = try Self.index()
        let db = try IndexReader(report.path)
        func plan(_ sql: String) throws -> String { try db.rows("EXPLAIN QUERY PLAN " + sql).joined(separator: "; ") }
        XCTAssertTrue(try plan("SELECT * FROM stop_times WHERE trip = 5 ORDER BY stop_sequence").contains("USING PRIMARY KEY"))
        XCTAssertTrue(try plan("SELECT * FROM trips WHERE block_id = 'B1'").contains("trips_by_block"))
        XCTAssertTrue(try plan("SELECT * FROM trips WHERE service = 2").contains("trips_by_service"))
        XCTAssertTrue(try plan("SELECT * FROM trips WHERE shape = 3").contains("trips_by_shape"))
        XCTAssertTrue(try plan("SELECT * FROM trips WHERE trip_id = 'x'").contains("INDEX"))
        XCTAssertTrue(try plan("SELECT * FROM shape_segments WHERE min_lat < 1 AND max_lat > 0").contains("VIRTUAL TABLE INDEX"))
    }

    /// 20 m to the side of the middle of one of shape804-I's segments: the R*Tree query finds that
    /// shape about 20 m away, and exactly the shapes a brute-force pass over shapes.txt finds
    /// within the radius; far from the city it finds none.
    func testShapesNearAPointOnARoute() throws {
        let (report, _) = try Self.index()
        let csv = try runProgram("/usr/bin/unzip", ["-p", Self.feed, "shapes.txt"]).stdout
        var lines = csv.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        let id = header.firstIndex(of: "shape_id")!, lat = header.firstIndex(of: "shape_pt_lat")!
        let lon = header.firstIndex(of: "shape_pt_lon")!, seq = header.firstIndex(of: "shape_pt_sequence")!
        var shapes: [String: [Point]] = [:]
        for line in lines where !line.isEmpty {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            shapes[f[id], default: []].append(Point(sequence: Int(f[seq])!, lat: Double(f[lat])!, lon: Double(f[lon])!))
        }
        XCTAssertEqual(shapes.count, 14)
        for name in shapes.keys { shapes[name]!.sort { $0.sequence < $1.sequence } }
        let route: [Point] = shapes["shape804-I"]!
        // The longest segment, so the point is well inside it.
        var k = 0
        var longest = 0.0
        for i in 0..<(route.count - 1) {
            let d = Self.distance(route[i].lat, route[i].lon, route[i + 1].lat, route[i + 1].lon, route[i + 1].lat, route[i + 1].lon)
            if d > longest { longest = d; k = i }
        }
        let a = route[k], b = route[k + 1]
        let m = 111_320.0
        let cosine: Double = cos(a.lat * .pi / 180)
        let east: Double = (b.lon - a.lon) * m * cosine
        let north: Double = (b.lat - a.lat) * m
        let length: Double = hypot(east, north)
        // 20 m to the left of the segment's middle.
        let pointLat: Double = (a.lat + b.lat) / 2 + (east / length * 20) / m
        let pointLon: Double = (a.lon + b.lon) / 2 - (north / length * 20) / (m * cosine)
        let index = try TransitIndex(path: report.path)
        for radius in [30.0, 300.0] {
            let near = try index.shapesNear(latitude: pointLat, longitude: pointLon, meters: radius)
            var expected: Set<String> = []
            for (name, p) in shapes {
                var best = Double.infinity
                for i in 0..<p.count {
                    let j = min(i + 1, p.count - 1)
                    best = min(best, Self.distance(pointLat, pointLon, p[i].lat, p[i].lon, p[j].lat, p[j].lon))
                }
                if best <= radius { expected.insert(name) }
            }
            XCTAssertEqual(Set(near.map { $0.shapeID }), expected, "within \(radius) m")
            let hit = try XCTUnwrap(near.first { $0.shapeID == "shape804-I" })
            XCTAssertEqual(hit.meters, 20, accuracy: 0.5)
            let distances: [Double] = near.map { $0.meters }
            XCTAssertEqual(distances, distances.sorted())
        }
        XCTAssertEqual(try index.shapesNear(latitude: -3.60, longitude: -38.30, meters: 500), [])
    }

    struct Point {
        let sequence: Int
        let lat: Double
        let lon: Double
    }

    /// Point to segment, in metres on the plane tangent at the point.
    static func distance(_ lat: Double, _ lon: Double, _ aLat: Double, _ aLon: Double, _ bLat: Double, _ bLon: Double) -> Double {
        let m = 111_320.0, c = cos(lat * .pi / 180)
        let ax = (aLon - lon) * m * c, ay = (aLat - lat) * m, bx = (bLon - lon) * m * c, by = (bLat - lat) * m
        let dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy
        let t = l2 > 0 ? min(max(-(ax * dx + ay * dy) / l2, 0), 1) : 0
        return hypot(ax + t * dx, ay + t * dy)
    }

    /// A cache directory on a 1 MiB file system is refused before anything is written.
    func testFreeDiskIsCheckedFirst() throws {
        let directory = try TestEnvironment.temporaryDirectory("full")
        defer { try? FileManager.default.removeItem(at: directory) }
        let mount = try runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", directory.path])
        XCTAssertEqual(mount.status, 0, "mounting a 1 MiB tmpfs (needs root): \(mount.stderr)")
        defer { _ = try? runProgram("/bin/umount", [directory.path]) }
        let needed = try Feed(path: Self.feed).totalSize + 16 << 20
        XCTAssertThrowsError(try TransitImporter.importFeed(at: Self.feed, cacheDirectory: directory.path) { _ in }) { error in
            let tenths = (needed * 10 + (1 << 19)) >> 20
            XCTAssertEqual("\(error)", "\(directory.path): not enough free space to import the feed: \(tenths / 10).\(tenths % 10) MiB needed, 1.0 MiB free")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }
}
