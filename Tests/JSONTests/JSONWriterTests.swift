import JSON
import XCTest

/// The writer's text, character for character: what RFC 8259 asks of strings, numbers and nesting.
final class JSONWriterTests: XCTestCase {
    private func quoted(_ text: String) -> String { JSONWriter.quoted(text) }

    /// Every character below U+0020, against the escapes RFC 8259 names, written out here rather
    /// than computed the writer's way.
    func testEveryControlCharacterIsEscaped() {
        let expected = [
            #"\u0000"#, #"\u0001"#, #"\u0002"#, #"\u0003"#, #"\u0004"#, #"\u0005"#, #"\u0006"#, #"\u0007"#,
            #"\b"#, #"\t"#, #"\n"#, #"\u000b"#, #"\f"#, #"\r"#, #"\u000e"#, #"\u000f"#,
            #"\u0010"#, #"\u0011"#, #"\u0012"#, #"\u0013"#, #"\u0014"#, #"\u0015"#, #"\u0016"#, #"\u0017"#,
            #"\u0018"#, #"\u0019"#, #"\u001a"#, #"\u001b"#, #"\u001c"#, #"\u001d"#, #"\u001e"#, #"\u001f"#,
        ]
        for code in 0..<0x20 {
            let character = String(UnicodeScalar(UInt8(code)))
            XCTAssertEqual(quoted(character), "\"" + expected[code] + "\"", "U+\(String(code, radix: 16))")
            XCTAssertEqual(quoted("a" + character + "b"), "\"a" + expected[code] + "b\"", "U+\(String(code, radix: 16)) inside")
        }
    }

    func testQuoteAndBackslash() {
        XCTAssertEqual(quoted("\""), #""\"""#)
        XCTAssertEqual(quoted("\\"), #""\\""#)
        XCTAssertEqual(quoted(#"C:\dir\"name""#), #""C:\\dir\\\"name\"""#)
        XCTAssertEqual(quoted("\\\\\"\""), #""\\\\\"\"""#, "escapes back to back")
        XCTAssertEqual(quoted(""), #""""#)
        XCTAssertEqual(quoted("/"), #""/""#, "the solidus may stay as it is")
    }

    /// Only what RFC 8259 requires is escaped: DEL, Latin-1, line separators and astral characters
    /// go out as their UTF-8, unchanged.
    func testNonASCIIAndDELPassThrough() {
        for text in ["\u{7F}", "é", "Grüße, Zoë", "\u{2028}\u{2029}", "€", "日本語", "😀", "e\u{301}", "\u{FEFF}", "\u{10FFFF}"] {
            XCTAssertEqual(quoted(text), "\"" + text + "\"", text)
            XCTAssertEqual(Array(quoted(text).utf8), [0x22] + Array(text.utf8) + [0x22], text)
        }
        XCTAssertEqual(quoted("ü\n😀\t\u{7F}"), "\"ü\\n😀\\t\u{7F}\"")
    }

    func testKeysAreEscapedLikeValues() {
        let text = JSONWriter.object { w in w.field("a\"b\n", "c") }
        XCTAssertEqual(text, #"{"a\"b\n":"c"}"#)
    }

    func testNestedStructures() {
        let text = JSONWriter.object { w in
            w.field("name", "dot")
            w.object("empty") { _ in }
            w.array("none") { _ in }
            w.array("rows") { w in
                w.array { w in
                    w.value(1)
                    w.value(2)
                }
                w.object { w in
                    w.array("deep") { w in
                        w.object { w in w.null("x") }
                        w.array { _ in }
                        w.value("s")
                    }
                }
                w.null()
                w.value(true)
            }
            w.field("after", 0)
        }
        XCTAssertEqual(text, #"{"name":"dot","empty":{},"none":[],"rows":[[1,2],{"deep":[{"x":null},[],"s"]},null,true],"after":0}"#)
        XCTAssertEqual(JSONWriter.array { _ in }, "[]")
        XCTAssertEqual(JSONWriter.object { _ in }, "{}")
        XCTAssertEqual(JSONWriter.array { w in w.value("a"); w.value(1.5); w.value(false) }, #"["a",1.5,false]"#)
    }

    func testIntegersOfEveryWidth() {
        let text = JSONWriter.array { w in
            w.value(0)
            w.value(-1)
            w.value(Int.min)
            w.value(Int.max)
            w.value(Int8.min)
            w.value(UInt8.max)
            w.value(Int32.min)
            w.value(UInt32.max)
            w.value(UInt64.max)
            w.value(nil as Int?)
        }
        XCTAssertEqual(text, "[0,-1,-9223372036854775808,9223372036854775807,-128,255,-2147483648,4294967295,18446744073709551615,null]")
        XCTAssertEqual(JSONWriter.object { w in w.field("n", UInt32(7)); w.field("m", Int16(-3)); w.field("o", nil as UInt?) },
                       #"{"n":7,"m":-3,"o":null}"#)
    }

    func testDoubles() {
        let cases: [(Double?, String)] = [
            (0, "0.0"), (-0.0, "-0.0"), (1, "1.0"), (0.1, "0.1"), (-121.314191667, "-121.314191667"),
            (1e-05, "1e-05"), (1e16, "1e+16"), (123456789.125, "123456789.125"), (1.0 / 3, "0.3333333333333333"),
            (Double.leastNonzeroMagnitude, "5e-324"), (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (Double.nan, "null"), (Double.infinity, "null"), (-Double.infinity, "null"), (nil, "null"),
        ]
        for (value, text) in cases {
            XCTAssertEqual(JSONWriter.array { w in w.value(value) }, "[\(text)]", "\(String(describing: value))")
            XCTAssertEqual(JSONWriter.object { w in w.field("v", value) }, "{\"v\":\(text)}", "\(String(describing: value))")
            XCTAssertEqual(JSONWriter<String>.number(value), text)
        }
    }

    /// The shortest form is still exact: every printed number reads back as the same bits.
    func testDoublesReadBackExactly() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            let text = JSONWriter<String>.number(value)
            XCTAssertEqual(Double(text)?.bitPattern, value.bitPattern, text)
        }
    }

    func testBoolsAndNull() {
        XCTAssertEqual(JSONWriter.object { w in
            w.field("yes", true)
            w.field("no", false)
            w.field("unknown", nil as Bool?)
            w.field("text", nil as String?)
            w.null("null")
        }, #"{"yes":true,"no":false,"unknown":null,"text":null,"null":null}"#)
        XCTAssertEqual(JSONWriter.array { w in w.value(true); w.value(nil as Bool?); w.value(nil as String?) }, "[true,null,null]")
    }

    /// A caller's own output (here bytes) gets the same text, in pieces, with no String built for
    /// the whole.
    func testWritesIntoAnyTextOutputStream() {
        struct Bytes: TextOutputStream {
            var bytes: [UInt8] = []
            var writes = 0
            mutating func write(_ string: String) {
                bytes += string.utf8
                writes += 1
            }
        }
        var w = JSONWriter(into: Bytes())
        w.object { w in
            w.field("lat", 52.5)
            w.array("tags") { w in w.value("a\tb") }
        }
        XCTAssertEqual(String(decoding: w.output.bytes, as: UTF8.self), #"{"lat":52.5,"tags":["a\tb"]}"#)
        XCTAssertGreaterThan(w.output.writes, 1)
    }
}
