import GTFS
import XCTest

/// Columns by header name, unknown columns ignored, short and long rows reported with their line.
final class CSVTableTests: XCTestCase {
    func table(_ text: String) throws -> CSVTable { try CSVTable(source: MemorySource(text), file: "stops.txt") }

    func testColumnsAreFoundByNameInAnyOrderAndUnknownOnesIgnored() throws {
        let t = try table("extra_thing, stop_lat ,stop_id,stop_name,wheelchair_boarding\r\nz,-3.7,S1,\"Centro, Praça\",1\r\n")
        XCTAssertEqual(t.header, ["extra_thing", "stop_lat", "stop_id", "stop_name", "wheelchair_boarding"])
        let id = try t.require("stop_id"), name = try t.require("stop_name"), lat = try t.require("stop_lat")
        XCTAssertNil(t.column("stop_code"))
        XCTAssertTrue(try t.next())
        XCTAssertEqual(t.value(id), "S1")
        XCTAssertEqual(t.value(name), "Centro, Praça")
        XCTAssertEqual(t.value(lat), "-3.7")
        XCTAssertNil(t.value(t.column("stop_code")))
        XCTAssertFalse(try t.next())
    }

    func testEmptyFieldsAreAbsentAndSpacesTrimmed() throws {
        let t = try table("stop_id,stop_code\n S1 ,   \n")
        XCTAssertTrue(try t.next())
        XCTAssertEqual(t.value(0), "S1")
        XCTAssertNil(t.value(1))
        XCTAssertThrowsError(try t.required(1)) { error in
            XCTAssertEqual("\(error)", "stops.txt:2:2 (stop_code): empty, and the field is required")
        }
    }

    func testShortAndLongRowsAreReportedAndReadingGoesOn() throws {
        let t = try table("stop_id,stop_name,stop_lat\nS1,One,1\nS2,Two\nS3,Three,3,extra\nS4,Four,4\n")
        var seen: [String] = [], errors: [String] = []
        while true {
            do throws(GTFSError) {
                guard try t.next() else { break }
                seen.append(t.value(0)!)
            } catch {
                XCTAssertTrue(error.skippable)
                errors.append(error.description)
            }
        }
        XCTAssertEqual(seen, ["S1", "S4"])
        XCTAssertEqual(errors, ["stops.txt:3:3 (stop_lat): short row: 2 fields where the header names 3",
                                "stops.txt:4:4: long row: 4 fields where the header names 3"])
    }

    func testAMissingRequiredColumnNamesItAndTheHeader() throws {
        let t = try table("stop_name,stop_lat\n")
        XCTAssertThrowsError(try t.require("stop_id")) { error in
            XCTAssertEqual("\(error)", "stops.txt:1 (stop_id): required column missing (the header has: stop_name, stop_lat)")
        }
    }

    func testAnEmptyFileHasNoHeader() {
        XCTAssertThrowsError(try table("")) { error in
            XCTAssertEqual("\(error)", "stops.txt:1: empty file: no header line naming the columns")
        }
    }

    /// A value with a line break (a quoted field may hold one), or a zip member named with one,
    /// still makes a one-line error.
    func testAnErrorIsOneLineWhateverItQuotes() throws {
        let t = try table("stop_id,stop_lat\nS1,\"1\r\n2\"\n")
        XCTAssertTrue(try t.next())
        XCTAssertEqual(t.value(1), "1\r\n2")
        XCTAssertEqual(t.problem(1, "not a number: '\(t.value(1)!)'").description, "stops.txt:2:2 (stop_lat): not a number: '1\\r\\n2'")
        XCTAssertEqual(GTFSError(file: "f.zip/a\u{1}\tb.txt", message: "m").description, "f.zip/a\\x01\\tb.txt: m")
    }
}
