import XCTest
@testable import GPSD

/// The framer's promise: the same lines whatever the chunking, CR LF or LF, and a fixed buffer
/// however long a line runs.
final class LineFramerTests: XCTestCase {
    enum Framed: Equatable {
        case line([UInt8])
        case oversize(Int)
    }

    func frame(_ chunks: [[UInt8]], limit: Int = LineFramer.defaultMaximumLineLength) -> [Framed] {
        var framer = LineFramer(maximumLineLength: limit)
        var out: [Framed] = []
        for chunk in chunks {
            chunk.withUnsafeBytes { bytes in
                framer.append(bytes) { event in
                    switch event {
                    case .line(let l): out.append(.line(Array(l)))
                    case .oversize(let n): out.append(.oversize(n))
                    }
                }
            }
            XCTAssertEqual(framer.capacity, limit + 2, "the buffer never grows")
        }
        return out
    }

    func lines(_ texts: String...) -> [Framed] { texts.map { .line(Array($0.utf8)) } }

    func testCRLFAndLFBothEndLinesAndCRIsDropped() {
        let stream = Array("{\"a\":1}\r\n{\"b\":2}\n\r\nlast\r".utf8)
        XCTAssertEqual(frame([stream]), lines("{\"a\":1}", "{\"b\":2}", ""))
        XCTAssertEqual(frame([stream, Array("\n".utf8)]), lines("{\"a\":1}", "{\"b\":2}", "", "last"))
    }

    func testACarriageReturnInsideALineIsKept() {
        XCTAssertEqual(frame([Array("a\rb\r\n".utf8)]), lines("a\rb"))
    }

    func testEverySplitPointOfASessionGivesTheSameLines() throws {
        let session = GPSDSamples.session.joined(separator: "\r\n") + "\r\n" + GPSDSamples.nmeaLine + "\n"
        let bytes = Array(session.utf8)
        let expected = frame([bytes])
        XCTAssertEqual(expected.count, GPSDSamples.session.count + 1)
        for split in 0...bytes.count {
            XCTAssertEqual(frame([Array(bytes[..<split]), Array(bytes[split...])]), expected, "split at byte \(split)")
        }
        for split in stride(from: 0, through: bytes.count, by: 7) {
            let second = min(bytes.count, split + 13)
            XCTAssertEqual(frame([Array(bytes[..<split]), Array(bytes[split..<second]), Array(bytes[second...])]), expected)
        }
        XCTAssertEqual(frame(bytes.map { [$0] }), expected, "one byte at a time")
    }

    func testATenKiBSkyLineAtEverySplitPoint() throws {
        let sky = GPSDSamples.skyLine(satellites: 95)
        XCTAssertGreaterThan(sky.utf8.count, 10 * 1024)
        let bytes = Array((sky + "\r\n").utf8)
        let expected: [Framed] = [.line(Array(sky.utf8))]
        for split in 0...bytes.count {
            XCTAssertEqual(frame([Array(bytes[..<split]), Array(bytes[split...])]), expected, "split at byte \(split)")
        }
    }

    func testLineOfExactlyTheLimitPassesOneMoreIsOversize() {
        let limit = 100
        let fits = [UInt8](repeating: UInt8(ascii: "x"), count: limit)
        let over = fits + [UInt8(ascii: "y")]
        XCTAssertEqual(frame([fits + Array("\r\n".utf8)], limit: limit), [.line(fits)])
        XCTAssertEqual(frame([fits + Array("\n".utf8)], limit: limit), [.line(fits)])
        XCTAssertEqual(frame([over + Array("\n".utf8), Array("ok\n".utf8)], limit: limit), [.oversize(limit + 1)] + lines("ok"))
        XCTAssertEqual(frame([over + Array("\r\n".utf8), Array("ok\n".utf8)], limit: limit), [.oversize(limit + 1)] + lines("ok"))
        // CR LF split across chunks right at the limit.
        XCTAssertEqual(frame([fits + [0x0D], [0x0A]], limit: limit), [.line(fits)])
    }

    func testOversizeLineIsDiscardedUpToItsNewlineAndReportedOnce() {
        let limit = 64
        let long = [UInt8](repeating: UInt8(ascii: "z"), count: 1000)
        let chunks = [Array("before\n".utf8)] + stride(from: 0, to: long.count, by: 37).map { Array(long[$0..<min($0 + 37, long.count)]) }
            + [Array("\nafter\n".utf8)]
        XCTAssertEqual(frame(chunks, limit: limit), lines("before") + [.oversize(1000)] + lines("after"))
    }

    func testAMebibyteLineKeepsTheBufferFixed() {
        var framer = LineFramer()
        let chunk = [UInt8](repeating: 0x41, count: 4096)
        var events = 0
        for _ in 0..<256 {
            chunk.withUnsafeBytes { framer.append($0) { _ in events += 1 } }
            XCTAssertEqual(framer.capacity, LineFramer.defaultMaximumLineLength + 2)
            XCTAssertLessThanOrEqual(framer.isDiscarding ? 0 : framer.pendingByteCount, LineFramer.defaultMaximumLineLength + 1)
        }
        XCTAssertEqual(events, 0, "nothing is reported before the line ends")
        XCTAssertTrue(framer.isDiscarding)
        var got: [Framed] = []
        Array("\n{}\n".utf8).withUnsafeBytes {
            framer.append($0) { e in
                if case .oversize(let n) = e { got.append(.oversize(n)) }
                if case .line(let l) = e { got.append(.line(Array(l))) }
            }
        }
        XCTAssertEqual(got, [.oversize(1 << 20), .line(Array("{}".utf8))])
    }

    func testBinaryGarbageWithNULsIsFramedLikeAnyBytes() {
        var garbage: [UInt8] = (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        garbage.removeAll { $0 == 0x0A }
        let out = frame([garbage + [0x00, 0x0A], Array("{\"class\":\"WATCH\"}\n".utf8)], limit: 4096)
        XCTAssertEqual(out, [.line(garbage + [0x00]), .line(Array("{\"class\":\"WATCH\"}".utf8))])
    }

    func testReceivePassesReadResultsThroughAndResetForgetsAPartialLine() {
        var framer = LineFramer(maximumLineLength: 32)
        var seen: [[UInt8]] = []
        XCTAssertNil(framer.receive({ _ in nil }, { _ in XCTFail("no bytes, no lines") }))
        XCTAssertEqual(framer.receive({ _ in 0 }, { _ in XCTFail("EOF, no lines") }), 0)
        let n = framer.receive(limit: 3, { room -> Int? in
            XCTAssertEqual(room.count, 3, "the limit caps the room offered")
            room.copyBytes(from: Array("par".utf8))
            return 3
        }, { _ in })
        XCTAssertEqual(n, 3)
        XCTAssertEqual(framer.pendingByteCount, 3)
        framer.reset()
        Array("new\n".utf8).withUnsafeBytes { framer.append($0) { if case .line(let l) = $0 { seen.append(Array(l)) } } }
        XCTAssertEqual(seen, [Array("new".utf8)])
    }
}
