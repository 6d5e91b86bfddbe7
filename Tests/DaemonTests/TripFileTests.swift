@testable import Daemon
import Foundation
import Glibc
import TestSupport
import Transit
import XCTest

/// A trip file names any trip_id as the feed writes it: `#` begins a comment only at the start of
/// a line or after a blank, so ids holding `#`, `@`, `/`, quotes and any letters are read whole.
final class TripFileTests: XCTestCase {
    func testIdsAreReadWholeAndCommentsStillWork() throws {
        let dir = try TestEnvironment.temporaryDirectory("trip-file-ids")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("trip").path
        let cases: [(String, TripFileChoice)] = [
            ("A12-3@1#0815\n", .trip(TripChoice(tripID: "A12-3@1#0815"))),
            ("# from the IBIS computer\nA12-3@1#0815   # its trip\n", .trip(TripChoice(tripID: "A12-3@1#0815"))),
            ("line/7 \"north\" Łódź\n", .trip(TripChoice(tripID: "line/7 \"north\" Łódź"))),
            ("\tT2@06:10:00 # a run\n", .trip(try TripChoice.parse("T2@06:10:00"))),
            ("block B#7\n", .block("B#7")),
        ]
        for (text, expected) in cases {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            XCTAssertEqual(try TripFile.read(path).get(), expected, text)
        }
        try "# only a comment\n#T1\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try TripFile.read(path).get())
    }

    /// A FIFO as the trip file is refused at once, in one line: read, it would hold the transit
    /// worker for good, and every later trip change would wait behind it.
    func testAFIFOIsRefusedWithoutBlocking() throws {
        let dir = try TestEnvironment.temporaryDirectory("trip-file-fifo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("trip").path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let started = Date()
        XCTAssertEqual(TripFile.read(path), .failure(TripFileProblem(path: path, line: nil, message: "a FIFO, not a regular file")))
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
    }
}
