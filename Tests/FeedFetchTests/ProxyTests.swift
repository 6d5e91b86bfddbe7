import FeedFetch
import Foundation
import HTTPWire
import TestSupport
import XCTest

/// `[realtime] proxy`: every fetch tunnels through an HTTP proxy with CONNECT (feed_server.py's
/// proxy port), TLS verified end to end; a proxy that refuses the tunnel is said in one line.
final class ProxyTests: FeedServerTestCase {
    func options(_ server: FeedServer) throws -> FetchOptions {
        var o = FetchOptions()
        o.caFile = server.caFile
        o.timeout = .seconds(5)
        o.stallTimeout = .seconds(2)
        o.proxy = try HTTPURL(parsing: server.proxyURL)
        return o
    }

    func testTheFeedComesThroughTheTunnelWithTheCertificateChecked() throws {
        let server = try server()
        let feed = try FeedClient.fetch(HTTPURL(parsing: server.url("/vehicles.pb")), options: options(server))
        XCTAssertEqual(feed.status, 200)
        guard case .fresh(let bytes) = feed.body else { return XCTFail("no body") }
        XCTAssertEqual(bytes, server.feed)
        let stats = try server.stats()
        XCTAssertEqual(stats["proxy CONNECT localhost:\(server.ports["good"]!)"] as? Int, 1, "\(stats)")
        // Plain http goes through the tunnel too.
        let plain = try FeedClient.fetch(HTTPURL(parsing: server.url("/vehicles.pb", port: "plain")), options: options(server))
        XCTAssertEqual(plain.status, 200)
        // The certificate is still the server's to prove: the one for another host is refused
        // (the proxy lets that port through only after a refusal of its own: see below).
    }

    func testARefusedTunnelIsSaidInOneLine() throws {
        let server = try server()
        let url = server.url("/vehicles.pb", port: "expired")
        do {
            _ = try FeedClient.fetch(HTTPURL(parsing: url), options: options(server))
            XCTFail("the proxy does not tunnel to the expired port")
        } catch let error as FetchError {
            XCTAssertEqual(error.kind, .connect)
            XCTAssertEqual(error.description, "\(url): the proxy refused the tunnel to localhost:\(server.ports["expired"]!): HTTP 403 Forbidden by the test proxy")
        }
    }

    func testAProxyThatIsNotThereIsAConnectError() throws {
        let server = try server()
        var o = try options(server)
        o.proxy = try HTTPURL(parsing: "http://127.0.0.1:\(try TestEnvironment.freeTCPPort())")
        do {
            _ = try FeedClient.fetch(HTTPURL(parsing: server.url("/vehicles.pb")), options: o)
            XCTFail("no proxy listens there")
        } catch let error as FetchError {
            XCTAssertEqual(error.kind, .connect, error.description)
        }
    }
}
