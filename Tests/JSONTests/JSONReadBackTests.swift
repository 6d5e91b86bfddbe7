import Foundation
import TestSupport
import XCTest
import JSON

/// The writer's text as other programs read it, and the target's promise to stay plain Swift.
final class JSONReadBackTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("json").path
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Python's json module (a decoder that shares nothing with this one) reads the text back to the
    /// same strings and numbers. It prints the document again in its own canonical form, so the
    /// comparison is of what it decoded, not of how it was spelled; the random doubles come back
    /// as Python's repr, each of which must be the same bits.
    func testPythonsJSONModuleReadsItBack() throws {
        var generator = SystemRandomNumberGenerator()
        let randoms = (0..<500).map { _ in Double(bitPattern: generator.next()) }.filter(\.isFinite)
        let control = String(String.UnicodeScalarView((0..<0x20).map { UnicodeScalar(UInt8($0)) }))
        let text = JSONWriter.object { w in
            w.field("control", control)
            w.field("specials", "\"\\/")
            w.field("unicode", "é😀\u{2028}\u{7F}")
            w.array("numbers") { w in
                for n in [0, -0.0, 0.1, 1e-05, 1e16, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, -121.314191667] { w.value(n) }
                w.value(Double.nan)
            }
            w.array("integers") { w in
                w.value(Int.min)
                w.value(UInt64.max)
            }
            w.object("nested") { w in
                w.array("a") { w in
                    w.array { _ in }
                    w.object { _ in }
                    w.null()
                    w.value(true)
                    w.value(false)
                }
            }
            w.array("random") { w in for r in randoms { w.value(r) } }
        }
        let path = dir + "/document.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let script = """
            import json, sys
            d = json.load(open(sys.argv[1], encoding="utf-8"))
            randoms = d.pop("random")
            print(json.dumps(d, ensure_ascii=True, sort_keys=True, separators=(",", ":")))
            for r in randoms: print(repr(r))
            """
        let run = try runProgram("/usr/bin/env", ["python3", "-c", script, path], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        var lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.popLast(), "")
        XCTAssertEqual(lines.first, #"{"control":"\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f","integers":[-9223372036854775808,18446744073709551615],"nested":{"a":[[],{},null,true,false]},"numbers":[0.0,-0.0,0.1,1e-05,1e+16,5e-324,1.7976931348623157e+308,-121.314191667,null],"specials":"\"\\/","unicode":"\u00e9\ud83d\ude00\u2028\u007f"}"#)
        let back = lines.dropFirst()
        XCTAssertEqual(back.count, randoms.count)
        for (line, value) in zip(back, randoms) {
            XCTAssertEqual(Double(line)?.bitPattern, value.bitPattern, "\(value) came back as \(line)")
        }
    }

    /// The target must build as Embedded Swift (no existentials, no key paths, no runtime
    /// reflection) and import nothing, Foundation and Glibc included: compiled here the way an
    /// embedded build would, so a change that breaks that fails a test rather than a later port.
    func testTheTargetCompilesAsEmbeddedSwiftAndImportsNothing() throws {
        let sources = TestEnvironment.packageRoot.appendingPathComponent("Sources/JSON")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("import ") }
            XCTAssertEqual(imports, [], "\(file) imports something")
        }
        // Embedded Swift compiles generic code only where it is used with concrete types: this use
        // makes every part of the writer be compiled for String.
        let use = dir + "/Use.swift"
        try Data("""
            public func everyPart() -> String {
                JSONWriter.object { w in
                    w.field("s", "a\\n"); w.field("d", 1.5); w.field("i", UInt32(3)); w.field("b", true); w.null("n")
                    w.object("o") { _ in }
                    w.array("a") { w in w.value(-1); w.value(0.5); w.value("x"); w.value(false); w.null(); w.object { _ in }; w.array { _ in } }
                } + JSONWriter.array { _ in } + JSONWriter.quoted("q")
            }
            """.utf8).write(to: URL(fileURLWithPath: use))
        let object = dir + "/JSON.o"
        let run = try runProgram("/usr/bin/env", ["swiftc", "-enable-experimental-feature", "Embedded", "-wmo", "-parse-as-library",
                                                  "-module-name", "JSON", "-c", "-o", object, use]
                                                 + files.map { sources.appendingPathComponent($0).path }, timeout: 300)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: object))
    }
}
