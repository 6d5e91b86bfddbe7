import FeedFetch
import Foundation
import GTFSRealtime
import HTTPWire
import TestSupport
import XCTest

/// Fetches from feed_server.py over real TLS: feeds made by Google's bindings arrive whole,
/// plain, gzipped or chunked, revalidated with ETag and Last-Modified, through redirects.
final class FetchTests: FeedServerTestCase {
    func options(_ server: FeedServer) -> FetchOptions {
        var o = FetchOptions()
        o.caFile = server.caFile
        o.timeout = .seconds(5)
        o.stallTimeout = .seconds(2)
        return o
    }

    func fetch(_ url: String, _ options: FetchOptions, validators: Validators = Validators()) throws -> FetchedFeed {
        try FeedClient.fetch(HTTPURL(parsing: url), options: options, validators: validators)
    }

    func body(_ feed: FetchedFeed, file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
        guard case .fresh(let bytes) = feed.body else {
            XCTFail("no body (HTTP \(feed.status))", file: file, line: line)
            return []
        }
        return bytes
    }

    func testTheFeedArrivesWholeAndReadsAsTheBindingsWroteIt() throws {
        let server = try server()
        let feed = try fetch(server.url("/vehicles.pb"), options(server))
        XCTAssertEqual(feed.status, 200)
        XCTAssertEqual(body(feed), server.feed)
        let message = try FeedMessage(decoding: body(feed))
        XCTAssertEqual(message.entities.count, 40)
        XCTAssertEqual(message.entities.first?.vehicle?.vehicle?.id, "bus-1")
        XCTAssertEqual(feed.age, 3)
        let date = try XCTUnwrap(feed.serverDate)
        XCTAssertLessThan(abs(Double(date) - Date().timeIntervalSince1970), 5)
        XCTAssertEqual(feed.validators.etag, "\"feed-\(server.feed.count)\"")
        XCTAssertGreaterThan(feed.duration.seconds, 0)
    }

    func testByIPAddressTheCertificatesIPNameIsChecked() throws {
        let server = try server()
        let feed = try fetch(server.url("/vehicles.pb", host: "127.0.0.1"), options(server))
        XCTAssertEqual(body(feed), server.feed)
    }

    func testGzipAndChunkedBodiesAreDecoded() throws {
        let server = try server()
        let gz = try fetch(server.url("/gzip.pb"), options(server))
        XCTAssertEqual(body(gz), server.feed)
        XCTAssertLessThan(gz.wireBytes, Int64(server.feed.count), "the gzipped body is smaller on the wire")
        let chunked = try fetch(server.url("/chunked.pb"), options(server))
        XCTAssertEqual(body(chunked), server.feed)
        let plain = try fetch(server.url("/vehicles.pb", host: "127.0.0.1", port: "plain"), options(server))
        XCTAssertEqual(body(plain), server.feed)
    }

    func testAnUnchangedFeedIsA304WithoutABody() throws {
        let server = try server()
        let first = try fetch(server.url("/vehicles.pb"), options(server))
        let before = try server.stats()["304"] as? Int ?? 0
        let second = try fetch(server.url("/vehicles.pb"), options(server), validators: first.validators)
        XCTAssertEqual(second.status, 304)
        XCTAssertEqual(second.body, .notModified)
        XCTAssertEqual(second.validators, first.validators, "a 304 keeps the validators that earned it")
        XCTAssertEqual(try server.stats()["304"] as? Int, before + 1)
        let byDate = try fetch(server.url("/modified.pb"), options(server))
        XCTAssertEqual(byDate.validators.lastModified, "Tue, 01 Dec 2026 10:00:00 GMT")
        XCTAssertEqual(try fetch(server.url("/modified.pb"), options(server), validators: byDate.validators).body, .notModified)
    }

    func testRedirectsAreFollowedUpToTheLimit() throws {
        let server = try server()
        let feed = try fetch(server.url("/hop/3"), options(server))
        XCTAssertEqual(feed.redirects, 4)
        XCTAssertEqual(body(feed), server.feed)
        XCTAssertTrue(feed.url.hasSuffix("/vehicles.pb"), feed.url)
        var o = options(server)
        o.maxRedirects = 3
        XCTAssertThrowsError(try fetch(server.url("/hop/3"), o)) { error in
            let e = error as! FetchError
            XCTAssertEqual(e.kind, .protocolViolation)
            XCTAssertTrue(e.description.contains("more than 3 redirects"), e.description)
        }
    }

    func testTheAPIKeyGoesToTheFeedsHostOnlyAndIntoNoMessage() throws {
        let server = try server()
        let secret = "s3cret-\(UInt32.random(in: 1...UInt32.max))"
        let dir = try TestEnvironment.temporaryDirectory("cred")
        defer { try? FileManager.default.removeItem(at: dir) }
        try (secret + "\n").write(to: dir.appendingPathComponent("feedkey"), atomically: true, encoding: .utf8)
        setenv("CREDENTIALS_DIRECTORY", dir.path, 1)
        defer { unsetenv("CREDENTIALS_DIRECTORY") }
        var o = options(server)
        o.apiKey = try APIKey.load(credential: "feedkey", header: "X-Api-Key")
        XCTAssertFalse(String(describing: o.apiKey!).contains(secret))
        XCTAssertEqual(String(decoding: body(try fetch(server.url("/echo-key"), o)), as: UTF8.self), secret)
        // localhost redirects to 127.0.0.1: another origin, which must not see the key.
        XCTAssertEqual(String(decoding: body(try fetch(server.url("/elsewhere"), o)), as: UTF8.self), "none")
        for path in ["/status/500", "/loop/a", "/garbage", "/truncated"] {
            XCTAssertThrowsError(try fetch(server.url(path), o)) { error in
                XCTAssertFalse("\(error)".contains(secret), "\(error)")
            }
        }
        XCTAssertThrowsError(try APIKey.load(credential: "missing", header: "X-Api-Key")) { error in
            XCTAssertTrue("\(error)".contains("credential missing"), "\(error)")
        }
        try "two\nlines".write(to: dir.appendingPathComponent("bad"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try APIKey.load(credential: "bad", header: "X-Api-Key")) { error in
            XCTAssertFalse("\(error)".contains("two"), "\(error)")
            XCTAssertTrue("\(error)".contains("line break"), "\(error)")
        }
    }

    func testASilentClientHoldsUpNoOtherConnection() throws {
        let server = try server()
        // Connected and saying nothing: the server waits for its TLS hello in its own thread.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(server.ports["good"]!).bigEndian
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0)
        XCTAssertEqual(body(try fetch(server.url("/vehicles.pb"), options(server))), server.feed)
    }
}
