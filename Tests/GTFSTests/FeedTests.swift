import Foundation
import GTFS
import TestSupport
import XCTest

/// The same feed as a zip and as a folder gives the same rows; a folder's hash follows its bytes.
final class FeedTests: XCTestCase {
    func testAFolderAndItsZipGiveTheSameRows() throws {
        let dir = try TestEnvironment.temporaryDirectory("feed")
        defer { try? FileManager.default.removeItem(at: dir) }
        try ZipArchiveTests.shell("cd \(dir.path) && unzip -q \(ZipArchiveTests.fortaleza)")
        let zip = try Feed(path: ZipArchiveTests.fortaleza), folder = try Feed(path: dir.path)
        XCTAssertEqual(zip.files, folder.files)
        XCTAssertEqual(zip.totalSize, folder.totalSize)
        for name in ["stop_times.txt", "stops.txt", "shapes.txt"] {
            let a = try zip.table(name), b = try folder.table(name)
            XCTAssertEqual(a.header, b.header)
            var rows = 0, differing = 0
            while try a.next() {
                XCTAssertTrue(try b.next())
                if a.line != b.line || (0..<a.header.count).contains(where: { a.value($0) != b.value($0) }) { differing += 1 }
                rows += 1
            }
            XCTAssertFalse(try b.next())
            XCTAssertEqual(differing, 0, name)
            if name == "stop_times.txt" { XCTAssertEqual(rows, 44_646) }
        }
        let before = try folder.hash()
        XCTAssertEqual(before.count, 64)
        XCTAssertEqual(try Feed(path: dir.path).hash(), before)
        try "x".write(to: dir.appendingPathComponent("feed_info.txt"), atomically: true, encoding: .utf8)
        XCTAssertNotEqual(try Feed(path: dir.path).hash(), before)
    }

    func testAFeedThatIsNotThereIsSaid() {
        XCTAssertThrowsError(try Feed(path: "/nonexistent/feed.zip")) { error in
            XCTAssertEqual("\(error)", "/nonexistent/feed.zip: cannot open the feed: No such file or directory")
        }
        XCTAssertThrowsError(try Feed(path: ZipArchiveTests.fortaleza).table("frequencies.txt")) { error in
            XCTAssertEqual("\(error)", "\(ZipArchiveTests.fortaleza)/frequencies.txt: no such file in the feed")
        }
    }
}
