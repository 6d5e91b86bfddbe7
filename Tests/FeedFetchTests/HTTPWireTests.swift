import HTTPWire
import XCTest

/// HTTP/1.1's wire format as the client reads it: URLs, heads, framing, chunks, dates.
final class HTTPWireTests: XCTestCase {
    func testURLsSplitIntoWhereToConnectAndWhatToAsk() throws {
        let u = try HTTPURL(parsing: "HTTPS://Api.Example.org/gtfs-rt/vp?key=1#frag")
        XCTAssertEqual([u.host, u.target, u.hostHeader, u.description], ["api.example.org", "/gtfs-rt/vp?key=1", "api.example.org", "https://api.example.org/gtfs-rt/vp?key=1"])
        XCTAssertEqual(u.port, 443)
        let v6 = try HTTPURL(parsing: "http://[::1]:8080")
        XCTAssertEqual([v6.host, v6.target, v6.hostHeader], ["::1", "/", "[::1]:8080"])
        XCTAssertFalse(v6.isTLS)
        XCTAssertEqual(try HTTPURL(parsing: "https://h?q").target, "/?q")
        for (bad, words) in [("ftp://h/", "https:// or http://"), ("https://user:pw@h/", "credentials"), ("https:///x", "no host"),
                             ("https://h:0/", "port"), ("https://h:65536/", "port"), ("https://h:x/", "port"), ("https://h /", "space"),
                             ("https://[::1/", "]"), ("https://h_é/", "non-ASCII"), ("https://a%2Fb/", "host")] {
            XCTAssertThrowsError(try HTTPURL(parsing: bad), bad) { XCTAssertTrue("\($0)".contains(words), "\(bad): \($0)") }
        }
    }

    func testRedirectLocationsResolveAgainstTheURL() throws {
        let base = try HTTPURL(parsing: "https://a.example:8443/feeds/rt/vp.pb?x=1")
        XCTAssertEqual(try base.resolving("other.pb").description, "https://a.example:8443/feeds/rt/other.pb")
        XCTAssertEqual(try base.resolving("/root.pb").description, "https://a.example:8443/root.pb")
        XCTAssertEqual(try base.resolving("?y=2").description, "https://a.example:8443/feeds/rt/vp.pb?y=2")
        XCTAssertEqual(try base.resolving("//b.example/z").description, "https://b.example/z")
        XCTAssertEqual(try base.resolving("http://c.example:80/").description, "http://c.example/")
        XCTAssertTrue(base.sameOrigin(try base.resolving("/x")))
        XCTAssertFalse(base.sameOrigin(try base.resolving("https://a.example/x")))
    }

    func head(_ text: String) throws -> ResponseHead {
        var reader = HeadReader()
        let bytes = Array(text.utf8)
        guard let found = try bytes.withUnsafeBytes({ try reader.take($0) }) else { throw HTTPWireError(.protocolViolation, "incomplete") }
        return found.head
    }

    func testHeadsAreReadByteByByteAsWhole() throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: application/x-protobuf\r\nETag:  \"abc\"  \r\nContent-Length: 5\r\n\r\nhello"
        let bytes = Array(text.utf8)
        var reader = HeadReader()
        var found: (head: ResponseHead, used: Int)?
        for i in bytes.indices where found == nil {
            found = try [bytes[i]].withUnsafeBytes { try reader.take($0) }
            if let f = found { XCTAssertEqual(i, bytes.count - 6); XCTAssertEqual(f.used, 1) }
        }
        let h = try XCTUnwrap(found).head
        XCTAssertEqual(h.status, 200)
        XCTAssertEqual(h.reason, "OK")
        XCTAssertEqual(h.value("etag"), "\"abc\"")
        XCTAssertEqual(try BodyFraming(for: h), BodyFraming(length: .exactly(5), coding: .identity))
        XCTAssertEqual(try head("HTTP/1.0 304\n\n").status, 304)
        XCTAssertEqual(try head("\r\nHTTP/1.1 204 No Content\r\n\r\n").reason, "No Content")
    }

    func testMalformedHeadsAreRefusedInOneLine() {
        let cases = [("HTTP/2 200 OK\r\n\r\n", "not an HTTP/1.x status line"), ("HTTP/1.1 2000 OK\r\n\r\n", "three digits"),
                     ("HTTP/1.1 099 X\r\n\r\n", "below 100"), ("HTTP/1.1 200 OK\r\nNo colon\r\n\r\n", "without a name"),
                     ("HTTP/1.1 200 OK\r\nA: b\r\n folded\r\n\r\n", "folded"), ("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", "header name"),
                     ("HTTP/1.1 200 OK\r\nX: a\u{1}b\r\n\r\n", "control character")]
        for (text, words) in cases {
            XCTAssertThrowsError(try head(text), text) { error in
                XCTAssertTrue("\(error)".contains(words), "\(text.debugDescription): \(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
        var reader = HeadReader(limit: 100)
        let long = Array(("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 200)).utf8)
        XCTAssertThrowsError(try long.withUnsafeBytes { try reader.take($0) }) { XCTAssertTrue("\($0)".contains("longer than 100")) }
    }

    func testFramingFollowsRFC9112() throws {
        XCTAssertEqual(try BodyFraming(for: head("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\nContent-Length: 9\r\n\r\n")).length, .chunked)
        XCTAssertEqual(try BodyFraming(for: head("HTTP/1.1 200 OK\r\n\r\n")).length, .untilClose)
        XCTAssertEqual(try BodyFraming(for: head("HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n")).length, BodyFraming.Length.none)
        XCTAssertEqual(try BodyFraming(for: head("HTTP/1.1 200 OK\r\nContent-Length: 7, 7\r\nContent-Encoding: gzip\r\n\r\n")),
                       BodyFraming(length: .exactly(7), coding: .gzip))
        for (text, words) in [("Content-Length: 7\r\nContent-Length: 8", "not one decimal number"), ("Content-Length: -1", "not one decimal"),
                              ("Content-Length: 99999999999999999999", "not one decimal"), ("Transfer-Encoding: gzip, chunked", "only chunked"),
                              ("Content-Encoding: br", "only gzip")] {
            XCTAssertThrowsError(try BodyFraming(for: head("HTTP/1.1 200 OK\r\n\(text)\r\n\r\n"))) { XCTAssertTrue("\($0)".contains(words), "\(text): \($0)") }
        }
    }

    /// The body a chunked stream carries, fed in pieces of `size` bytes.
    func dechunk(_ wire: [UInt8], pieces size: Int) throws -> (body: [UInt8], done: Bool) {
        var decoder = ChunkedDecoder()
        var body: [UInt8] = []
        var start = 0
        while start < wire.count {
            let end = min(start + size, wire.count)
            var at = start
            while at < end {
                let step = try wire[at..<end].withUnsafeBytes { try decoder.step($0) }
                if step.consumed == 0 { break }
                body += wire[(at + step.data.lowerBound)..<(at + step.data.upperBound)]
                at += step.consumed
            }
            start = end
        }
        return (body, decoder.isDone)
    }

    func testChunksDecodeTheSameInPiecesOfEverySize() throws {
        let wire = Array("5;name=value\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nTrailer: x\r\n\r\n".utf8)
        for size in 1...wire.count {
            let (body, done) = try dechunk(wire, pieces: size)
            XCTAssertEqual(String(decoding: body, as: UTF8.self), "helloabcdefghijklmnopqrstuvwxyz", "pieces of \(size)")
            XCTAssertTrue(done)
        }
        XCTAssertFalse(try dechunk(Array("5\r\nhello\r\n".utf8), pieces: 3).done, "no last chunk yet")
        XCTAssertTrue(try dechunk(Array("3\nabc\n0\n\n".utf8), pieces: 1).done, "bare LF line ends")
    }

    func testBadChunksAreRefused() {
        for (text, words) in [("zz\r\n", "not a hex number"), ("5\r\nhelloX\r\n", "not followed by CRLF"),
                              ("1000000000000000\r\n", "more than 15 hex digits"), ("5 x\r\n", "not a hex number"),
                              (String(repeating: "0", count: 5000), "longer than 4096")] {
            XCTAssertThrowsError(try dechunk(Array(text.utf8), pieces: 7), text) { XCTAssertTrue("\($0)".contains(words), "\(text.prefix(20)): \($0)") }
        }
    }

    func testDatesInAllThreeFormsAndRequestsWithoutInjectedLines() throws {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), 784111777)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), 784111777)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), 784111777)
        XCTAssertEqual(HTTPDate.format(784111777), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.format(1796083200), "Tue, 01 Dec 2026 00:00:00 GMT")
        XCTAssertEqual(HTTPDate.parse("Tue, 01 Dec 2026 10:00:00 GMT"), 1796083200 + 36000)
        XCTAssertNil(HTTPDate.parse("yesterday"))
        XCTAssertNil(HTTPDate.parse("Sun, 36 Nov 1994 08:49:37 GMT"))
        let url = try HTTPURL(parsing: "https://h.example:8443/a?b")
        XCTAssertEqual(String(decoding: try HTTPRequest.get(url, fields: [("Accept", "*/*")]), as: UTF8.self),
                       "GET /a?b HTTP/1.1\r\nHost: h.example:8443\r\nAccept: */*\r\n\r\n")
        XCTAssertThrowsError(try HTTPRequest.get(url, fields: [("X-Api-Key", "secret\r\nEvil: 1")])) { error in
            XCTAssertFalse("\(error)".contains("secret"))
            XCTAssertTrue("\(error)".contains("X-Api-Key"))
        }
    }
}
