import Foundation
import TestSupport
import Transit
import XCTest

/// `TransitImporter.lookUp`: what a check (check-config, run by the unit's ExecReload) learns about
/// a feed without importing it — the feed's files and hash, and the daemon's index when the cache
/// already holds it — writing nothing.
final class CacheLookupTests: XCTestCase {
    func testNothingIsBuiltAndTheIndexIsFoundOnceTheImportHasRun() throws {
        let feed = try SmallFeed()
        defer { feed.remove() }
        let cache = feed.directory.appendingPathComponent("cache").path

        let before = try TransitImporter.lookUp(feedAt: feed.feed, cacheDirectory: cache)
        XCTAssertNil(before.info, "not built yet")
        XCTAssertEqual(before.path, TransitImporter.cachePath(directory: cache, feedHash: before.feedHash))
        XCTAssertEqual(try feed.leftovers(), [], "a lookup writes nothing, not even the cache folder")

        let report = try TransitImporter.importFeed(at: feed.feed, cacheDirectory: cache) { _ in }
        XCTAssertEqual(report.path, before.path, "the daemon's import builds the index where the lookup said")
        let after = try TransitImporter.lookUp(feedAt: feed.feed, cacheDirectory: cache)
        XCTAssertEqual(after.feedHash, before.feedHash)
        XCTAssertEqual(after.info?.trips, report.info.trips)
        XCTAssertEqual(after.info?.service, report.info.service)

        // Another feed's bytes: another hash, and no index for it yet.
        try Data("agency_name,agency_timezone\nOther,Europe/Warsaw\n".utf8)
            .write(to: URL(fileURLWithPath: feed.feed).appendingPathComponent("agency.txt"))
        let changed = try TransitImporter.lookUp(feedAt: feed.feed, cacheDirectory: cache)
        XCTAssertNotEqual(changed.feedHash, before.feedHash)
        XCTAssertNil(changed.info)
    }

    /// A feed the import would refuse for a missing file is refused by the lookup, in the same line.
    func testAFeedWithoutARequiredFileIsRefusedWithoutAnImport() throws {
        for (changes, message) in [
            (["stop_times.txt": nil], "stop_times.txt: missing: every feed must have it"),
            (["calendar.txt": nil, "calendar_dates.txt": nil], "calendar.txt: missing, and so is calendar_dates.txt: a feed needs one of them"),
        ] as [([String: String?], String)] {
            let feed = try SmallFeed(changes)
            defer { feed.remove() }
            let cache = feed.directory.appendingPathComponent("cache").path
            XCTAssertThrowsError(try TransitImporter.lookUp(feedAt: feed.feed, cacheDirectory: cache)) { error in
                XCTAssertEqual("\(error)", "\(feed.feed)/\(message)")
            }
            XCTAssertThrowsError(try TransitImporter.importFeed(at: feed.feed, cacheDirectory: cache) { _ in }) { error in
                XCTAssertEqual("\(error)", "\(feed.feed)/\(message)")
            }
            XCTAssertEqual(try feed.leftovers(), [])
        }
        XCTAssertThrowsError(try TransitImporter.lookUp(feedAt: "/nonexistent/feed.zip", cacheDirectory: "/nonexistent/cache"))
    }
}
