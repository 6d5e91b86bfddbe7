import XCTest
@testable import GPSD

final class JSONParserTests: XCTestCase {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    func rejects(_ text: String, _ problem: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try JSONParser.parse(text), "\(text)", file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(problem), "\(text): \(error)", file: file, line: line)
        }
    }

    func testValuesOfEveryType() throws {
        let v = try parse(#" { "s" : "x", "n" : -12.5e1, "t" : true, "f" : false, "z" : null, "a" : [1, [], {}], "o" : {"k":0} } "#)
        XCTAssertEqual(v["s"], .string("x"))
        XCTAssertEqual(v["n"], .number(-125))
        XCTAssertEqual(v["t"], .bool(true))
        XCTAssertEqual(v["f"], .bool(false))
        XCTAssertEqual(v["z"], .null)
        XCTAssertEqual(v["a"], .array([.number(1), .array([]), .object([:])]))
        XCTAssertEqual(v["o"]?["k"], .number(0))
        XCTAssertNil(v["missing"])
    }

    func testNumbersFollowTheGrammarAndRoundCorrectly() throws {
        XCTAssertEqual(try parse("44.068843333"), .number(44.068843333))
        XCTAssertEqual(try parse("-121.314191667"), .number(-121.314191667))
        XCTAssertEqual(try parse("0"), .number(0))
        XCTAssertEqual(try parse("-0.0"), .number(-0.0))
        XCTAssertEqual(try parse("1E+2"), .number(100))
        XCTAssertEqual(try parse("123456789012345678901234567890"), .number(1.2345678901234568e29))
        XCTAssertEqual(try parse("1e400"), .number(.infinity), "overflow reads as infinity; field checks reject it")
        XCTAssertEqual(try parse("-1e400"), .number(-.infinity))
        XCTAssertEqual(try parse("1e-400"), .number(0))
        for bad in ["01", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "1.2.3", "--1"] {
            XCTAssertThrowsError(try parse(bad), bad)
        }
    }

    func testNaNAndInfinityWordsAreNotJSON() {
        for word in ["NaN", "nan", "Infinity", "-Infinity", "inf"] {
            XCTAssertThrowsError(try parse(#"{"lat":\#(word)}"#), word)
        }
    }

    func testStringsWithEscapesAndSurrogatePairs() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\b\f\n\r\t""#), .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        XCTAssertEqual(try parse(#""\u00e9\u20AC\ud83d\ude00""#), .string("é€😀"))
        XCTAssertEqual(try parse("\"é😀\""), .string("é😀"), "raw UTF-8 passes through")
        rejects(#""\ud83d""#, "lone surrogate")
        rejects(#""\ude00""#, "lone surrogate")
        rejects(#""\ud83dx""#, "lone surrogate")
        rejects(#""\u12""#, "\\u escape")
        rejects(#""\uzzzz""#, "hex digit")
        rejects(#""\q""#, "invalid escape")
        rejects("\"tab\there\"", "control character")
        rejects("\"open", "unterminated")
    }

    func testInvalidUTF8IsReplacedNotFatal() throws {
        let bytes: [UInt8] = [0x22, 0xFF, 0xFE, 0x41, 0x22]
        let v = try bytes.withUnsafeBytes { try JSONParser.parse($0) }
        XCTAssertEqual(v, .string("\u{FFFD}\u{FFFD}A"))
    }

    func testStructureErrorsNameTheirPlace() {
        rejects("{\"a\":1,}", "expected a key string at byte 7")
        rejects("{\"a\" 1}", "expected ':'")
        rejects("{\"a\":1 \"b\":2}", "expected ',' or '}'")
        rejects("[1 2]", "expected ',' or ']'")
        rejects("{\"a\":1} x", "trailing characters")
        rejects("{\"a\":", "unexpected end")
        rejects("", "unexpected end")
        rejects("tru", "unexpected end")
        rejects("trUe", "unexpected character")
    }

    func testNestingIsCapped() throws {
        let ok = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        XCTAssertNoThrow(try parse(ok))
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        rejects(deep, "nesting deeper than \(JSONParser.maximumDepth)")
        rejects(String(repeating: "{\"a\":", count: 50) + "1" + String(repeating: "}", count: 50), "nesting")
    }

    func testRepeatedKeyKeepsTheLastValue() throws {
        XCTAssertEqual(try parse(#"{"lat":1,"lat":2}"#)["lat"], .number(2))
    }
}
