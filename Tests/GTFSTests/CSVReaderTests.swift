import GTFS
import XCTest

/// RFC 4180 as feeds write it, read through every chunk size from one byte up, so each edge case is
/// also met split across two reads of the source.
final class CSVReaderTests: XCTestCase {
    /// Every record of `text`, or the error that ended the file, read `chunk` bytes at a time.
    static func read(_ bytes: [UInt8], chunk: Int = .max, bufferSize: Int = 64 << 10) -> (records: [[String]], lines: [Int], errors: [String]) {
        let reader = CSVReader(source: MemorySource(bytes, chunk: chunk), file: "t.txt", bufferSize: bufferSize)
        var records: [[String]] = [], lines: [Int] = [], errors: [String] = []
        while true {
            do throws(GTFSError) {
                guard try reader.next() else { break }
                records.append(reader.fields)
                lines.append(reader.line)
            } catch {
                errors.append(error.description + (error.skippable ? " [row]" : " [file]"))
            }
        }
        return (records, lines, errors)
    }

    /// The same result whatever the chunk size and however small the buffer.
    func assertRead(_ text: String, _ expected: [[String]], lines: [Int]? = nil, errors: [String] = [], file: StaticString = #filePath, line: UInt = #line) {
        assertRead(Array(text.utf8), expected, lines: lines, errors: errors, file: file, line: line)
    }

    func assertRead(_ bytes: [UInt8], _ expected: [[String]], lines: [Int]? = nil, errors: [String] = [], file: StaticString = #filePath, line: UInt = #line) {
        for chunk in [Int.max, 1, 2, 3, 5, 7] {
            for buffer in [64 << 10, 4, 5] {
                let got = Self.read(bytes, chunk: chunk, bufferSize: buffer)
                XCTAssertEqual(got.records, expected, "chunk \(chunk), buffer \(buffer)", file: file, line: line)
                XCTAssertEqual(got.errors, errors, "chunk \(chunk), buffer \(buffer)", file: file, line: line)
                if let lines { XCTAssertEqual(got.lines, lines, "chunk \(chunk), buffer \(buffer)", file: file, line: line) }
            }
        }
    }

    func testPlainRecordsWithLF() {
        assertRead("a,b,c\n1,2,3\n", [["a", "b", "c"], ["1", "2", "3"]], lines: [1, 2])
    }

    func testCRLFAndLoneCRAndMixedLineEnds() {
        assertRead("a,b\r\n1,2\r3,4\n5,6\r\n", [["a", "b"], ["1", "2"], ["3", "4"], ["5", "6"]], lines: [1, 2, 3, 4])
    }

    func testQuotedFieldsHoldCommasDoubledQuotesAndLineBreaks() {
        let text = "id,name,desc\r\n1,\"Praça, Centro\",\"say \"\"hi\"\"\"\r\n2,\"two\r\nlines\",\"three\nline\nbreaks\"\r\n3,\"\",x\r\n"
        assertRead(text, [["id", "name", "desc"], ["1", "Praça, Centro", "say \"hi\""], ["2", "two\r\nlines", "three\nline\nbreaks"], ["3", "", "x"]],
                   lines: [1, 2, 3, 7])
    }

    func testLastRecordWithoutLineBreakAndEmptyFields() {
        assertRead("a,b,c\n,,\n1,,\"\"", [["a", "b", "c"], ["", "", ""], ["1", "", ""]], lines: [1, 2, 3])
    }

    func testBlankLinesAreNoRecordsButCountAsLines() {
        assertRead("a,b\n\n1,2\r\n\r\n\n3,4\n\n", [["a", "b"], ["1", "2"], ["3", "4"]], lines: [1, 3, 6])
    }

    func testByteOrderMarkIsDroppedEvenBeforeAQuote() {
        assertRead([0xEF, 0xBB, 0xBF] + Array("\"stop_id\",b\n1,2\n".utf8), [["stop_id", "b"], ["1", "2"]])
        assertRead([0xEF, 0xBB, 0xBF], [])
        // Only at the very start: elsewhere it is the field's text.
        assertRead(Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b\n".utf8), [["a"], ["\u{FEFF}b"]])
    }

    func testNonLatinTextPassesThrough() {
        assertRead("name\nשלום\nمحطة\n東京駅\nŁódź Fabryczna\n", [["name"], ["שלום"], ["محطة"], ["東京駅"], ["Łódź Fabryczna"]])
    }

    func testEmptyInputHasNoRecords() {
        assertRead("", [])
        assertRead("\n\r\n", [])
    }

    func testQuoteInsideAnUnquotedFieldSkipsTheRowAndReadsOn() {
        assertRead("a,b\n1,x\"y\n2,z\n", [["a", "b"], ["2", "z"]],
                   errors: ["t.txt:2:2: a quote inside an unquoted field (quote the whole field and double the quote) [row]"])
    }

    func testTextAfterAClosingQuoteSkipsTheRow() {
        assertRead("a,b\n\"1\"x,y\n2,z\n", [["a", "b"], ["2", "z"]], errors: ["t.txt:2:1: text after the closing quote [row]"])
    }

    func testAQuoteNeverClosedEndsTheFileNamingWhereItOpened() {
        assertRead("a,b\n1,2\n3,\"open\nmore\n4,5\n", [["a", "b"], ["1", "2"]],
                   errors: ["t.txt:3:2: quoted field never closed: the file ends inside it (an unmatched quote) [file]"])
    }

    func testBytesThatAreNotUTF8SkipTheRow() {
        assertRead(Array("a,b\n1,".utf8) + [0xC3, 0x28] + Array("\n2,ok\n".utf8), [["a", "b"], ["2", "ok"]],
                   errors: ["t.txt:2:2: not UTF-8 text [row]"])
    }

    func testAFieldBeyondTheLimitEndsTheFile() {
        let long = String(repeating: "x", count: CSVReader.defaultMaximumFieldBytes + 1)
        let got = Self.read(Array("a\nok\n\(long)\nnext\n".utf8))
        XCTAssertEqual(got.records, [["a"], ["ok"]])
        XCTAssertEqual(got.errors, ["t.txt:3:1: field longer than 65536 bytes (an unmatched quote, or not a CSV file) [file]"])
    }

    func testTooManyFieldsEndTheFile() {
        let got = Self.read(Array((String(repeating: ",", count: CSVReader.maximumFields) + "\n").utf8))
        XCTAssertEqual(got.records, [])
        XCTAssertEqual(got.errors, ["t.txt:1: more than 1024 fields in one record (not a CSV file?) [file]"])
    }

    /// A large file through the 64 KiB buffer: every record back, in order, with its line.
    func testManyRecordsThroughTheBuffer() {
        var text = "trip_id,stop_id,stop_sequence\n"
        for i in 0..<20_000 { text += "T\(i / 40),\"S,\(i)\",\(i % 40)\r\n" }
        let got = Self.read(Array(text.utf8), chunk: 4093)
        XCTAssertEqual(got.errors, [])
        XCTAssertEqual(got.records.count, 20_001)
        XCTAssertEqual(got.records[12_346], ["T308", "S,12345", "25"])
        XCTAssertEqual(got.lines.last, 20_001)
    }
}
