import FeedFetch
import Foundation
import GTFSRealtime
import HTTPWire
import TestSupport
import XCTest

/// Every fault a feed's server or the network can cause ends the fetch in one line naming the
/// URL and what went wrong, of the kind the metrics count, within the time and size allowed.
final class FaultTests: FeedServerTestCase {
    func options(_ server: FeedServer, timeout: Duration = .seconds(3), stall: Duration = .seconds(1)) -> FetchOptions {
        var o = FetchOptions()
        o.caFile = server.caFile
        o.timeout = timeout
        o.stallTimeout = stall
        o.maxBytes = 1 << 20
        return o
    }

    /// The fetch fails with `kind`, in one line holding the URL and `words`; returns how long it took.
    @discardableResult
    func refused(_ url: String, _ options: FetchOptions, _ kind: FetchError.Kind, _ words: String,
                 file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        try refusal(url, options, kind, words, file: file, line: line).took
    }

    func refusal(_ url: String, _ options: FetchOptions, _ kind: FetchError.Kind, _ words: String,
                 file: StaticString = #filePath, line: UInt = #line) throws -> (took: Double, text: String) {
        let started = Date()
        var said = ""
        do {
            let feed = try FeedClient.fetch(HTTPURL(parsing: url), options: options)
            XCTFail("\(url) was fetched (HTTP \(feed.status)) instead of failing", file: file, line: line)
        } catch let error as FetchError {
            let text = error.description
            XCTAssertEqual(error.kind, kind, text, file: file, line: line)
            XCTAssertFalse(text.contains("\n"), "more than one line: \(text)", file: file, line: line)
            XCTAssertTrue(text.hasPrefix(url.components(separatedBy: "/").prefix(3).joined(separator: "/")), "no URL: \(text)", file: file, line: line)
            XCTAssertTrue(text.contains(words), "'\(words)' not in: \(text)", file: file, line: line)
            print("fault: \(text)")
            said = text
        }
        return (Date().timeIntervalSince(started), said)
    }

    func testStatusesAreSaidWithTheirReason() throws {
        let server = try server()
        try refused(server.url("/status/500"), options(server), .httpStatus, "HTTP 500 Internal Server Error")
        try refused(server.url("/status/404"), options(server), .httpStatus, "HTTP 404 Not Found")
    }

    func testASilentServerIsGivenUpAtTheNoProgressTimeout() throws {
        let server = try server()
        let took = try refused(server.url("/slow"), options(server), .timeout, "no progress for 1 s (waiting for the response)")
        XCTAssertLessThan(took, 1.8)
        let stalled = try refused(server.url("/stall"), options(server), .timeout, "no progress for 1 s (reading the body)")
        XCTAssertLessThan(stalled, 1.8)
    }

    func testATricklingBodyIsCutOffByTheWholeTimeout() throws {
        let server = try server()
        // A byte every 0.2 s never trips the 1 s no-progress timeout; the whole fetch's 2 s does.
        let took = try refused(server.url("/trickle"), options(server, timeout: .seconds(2)), .timeout, "timed out after 2 s (reading the body)")
        XCTAssertGreaterThanOrEqual(took, 2)
        XCTAssertLessThan(took, 2.8)
    }

    func testTruncatedAndGarbageAnswersAreRefused() throws {
        let server = try server()
        try refused(server.url("/truncated"), options(server), .protocolViolation, "body truncated: \(server.feed.count / 2) of \(server.feed.count) bytes")
        try refused(server.url("/truncated-gzip"), options(server), .protocolViolation, "gzip body ends before its last block")
        try refused(server.url("/garbage"), options(server), .protocolViolation, "not an HTTP/1.x status line")
        try refused(server.url("/close"), options(server), .protocolViolation, "closed the connection without a response")
        // Garbage as a body is HTTP's success and the protobuf reader's refusal, in one line too.
        let fetched = try FeedClient.fetch(HTTPURL(parsing: server.url("/garbage-feed")), options: options(server))
        guard case .fresh(let bytes) = fetched.body else { return XCTFail("no body") }
        XCTAssertThrowsError(try FeedMessage(decoding: bytes)) { error in
            XCTAssertFalse("\(error)".contains("\n"))
            XCTAssertTrue("\(error)".contains("GTFS-realtime"), "\(error)")
        }
    }

    func testA50MBChunkedBodyStopsAtTheLimit() throws {
        let server = try server()
        let before = try server.stats()["/huge-chunked"] as? Int ?? 0
        let text = try refusal(server.url("/huge-chunked"), options(server), .tooLarge, "body larger than the limit of 1048576 bytes").text
        let received = Int(text.components(separatedBy: "stopped after ").last?.components(separatedBy: " ").first ?? "") ?? -1
        XCTAssertTrue(((1 << 20)...((1 << 20) + (80 << 10))).contains(received), "decoded bytes past the limit by at most a read: \(text)")
        // The server stops sending once the connection is gone: what it sent beyond the limit is
        // what the socket buffers held, far from 50 MB.
        _ = ChildProcess.waitUntil(timeout: 5) { ((try? server.stats()["/huge-chunked"] as? Int) ?? nil) != nil }
        usleep(500_000)
        let sent = (try server.stats()["/huge-chunked"] as? Int ?? 0) - before
        print("huge-chunked: the server sent \(sent) bytes of 52428800 before the client hung up")
        XCTAssertLessThan(sent, 16 << 20)
    }

    func testAGzipBombStopsAtTheLimitDecoded() throws {
        let server = try server()
        // The server deflates its bomb when it starts: the first answer may wait for that.
        let text = try refusal(server.url("/bomb"), options(server, timeout: .seconds(10), stall: .seconds(8)), .tooLarge, "body larger than the limit of 1048576 bytes").text
        // 1 MiB of zeros takes about 1 KiB gzipped: the client stopped within the first reads.
        let received = Int(text.components(separatedBy: "stopped after ").last?.components(separatedBy: " ").first ?? "") ?? -1
        XCTAssertTrue((1...(64 << 10)).contains(received), text)
        var o = options(server)
        o.maxBytes = 256 << 20
        // With room for it the same body inflates whole: the limit is what stopped it above.
        let whole = try FeedClient.fetch(HTTPURL(parsing: server.url("/bomb")), options: o)
        guard case .fresh(let bytes) = whole.body else { return XCTFail("no body") }
        XCTAssertEqual(bytes.count, 256 << 20)
        XCTAssertLessThan(whole.wireBytes, 1 << 20, "256 MB of zeros, gzipped")
        print("gzip bomb: \(whole.wireBytes) bytes on the wire inflate to \(bytes.count); with a 1 MiB limit the client stopped after the first of them")
    }

    func testARedirectLoopIsSaid() throws {
        let server = try server()
        try refused(server.url("/loop/a"), options(server), .protocolViolation, "redirect loop: \(server.url("/loop/a")) -> \(server.url("/loop/b")) -> \(server.url("/loop/a"))")
    }

    func testAWrongHostOrExpiredCertificateIsRefused() throws {
        let server = try server()
        try refused(server.url("/vehicles.pb", port: "wrong"), options(server), .tls, "certificate refused: hostname mismatch")
        try refused(server.url("/vehicles.pb", host: "127.0.0.1", port: "wrong"), options(server), .tls, "certificate refused: IP address mismatch")
        try refused(server.url("/vehicles.pb", port: "expired"), options(server), .tls, "certificate refused: certificate has expired")
        // Without the test CA, the system's store does not know it.
        var system = options(server)
        system.caFile = nil
        try refused(server.url("/vehicles.pb"), system, .tls, "certificate refused: unable to get local issuer certificate")
        var missing = options(server)
        missing.caFile = "/nonexistent/ca.pem"
        try refused(server.url("/vehicles.pb"), missing, .setup, "cannot load the CA file: open /nonexistent/ca.pem: No such file or directory")
    }

    func testNobodyListeningIsAConnectError() throws {
        let port = try TestEnvironment.freeTCPPort()
        try refused("https://127.0.0.1:\(port)/feed.pb", options(try server()), .connect, "Connection refused")
        try refused("https://no-such-host.invalid/feed.pb", options(try server()), .connect, "resolve no-such-host.invalid")
    }
}
