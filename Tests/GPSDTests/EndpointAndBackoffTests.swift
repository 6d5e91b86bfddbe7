import Syscall
import XCTest
@testable import GPSD

final class EndpointTests: XCTestCase {
    func testForms() throws {
        XCTAssertEqual(try GPSDEndpoint(parsing: "127.0.0.1:2947"), GPSDEndpoint(host: "127.0.0.1", port: 2947))
        XCTAssertEqual(try GPSDEndpoint(parsing: "gps.local"), GPSDEndpoint(host: "gps.local", port: 2947))
        XCTAssertEqual(try GPSDEndpoint(parsing: "[::1]:3000"), GPSDEndpoint(host: "::1", port: 3000))
        XCTAssertEqual(try GPSDEndpoint(parsing: "[fe80::1%eth0]"), GPSDEndpoint(host: "fe80::1%eth0", port: 2947))
        XCTAssertEqual(try GPSDEndpoint(parsing: "[::1]:3000").description, "[::1]:3000")
        XCTAssertEqual(GPSDEndpoint.default.description, "127.0.0.1:2947")
    }

    func testErrorsNameTheTextAndTheProblem() {
        let cases = ["::1": "needs brackets", "[::1": "missing ']'", "[::1]x": "expected ':'", "[gps]:1": "IPv6",
                     ":2947": "empty host", "host:0": "port", "host:65536": "port", "host:x": "port", "a b:1": "not a host"]
        for (text, problem) in cases {
            XCTAssertThrowsError(try GPSDEndpoint(parsing: text), text) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains("\"\(text)\"") && message.contains(problem), message)
            }
        }
    }

    func testResolvesNumericAndNamedHosts() throws {
        XCTAssertEqual(try SocketAddress.resolve(host: "127.0.0.1", port: 2947).map(\.description), ["127.0.0.1:2947"])
        XCTAssertEqual(try SocketAddress.resolve(host: "::1", port: 2947).map(\.description), ["[::1]:2947"])
        XCTAssertTrue(try SocketAddress.resolve(host: "localhost", port: 5).contains { $0.description == "127.0.0.1:5" })
        XCTAssertThrowsError(try SocketAddress.resolve(host: "no-such-host.invalid", port: 1)) { error in
            XCTAssertTrue("\(error)".hasPrefix("resolve no-such-host.invalid: "), "\(error)")
        }
    }
}

final class BackoffTests: XCTestCase {
    func testDoublesFromAQuarterSecondToThirtySeconds() {
        var b = Backoff()
        let delays = (0..<12).map { _ in b.nextDelay(random: 0.5).seconds }
        XCTAssertEqual(delays, [0.25, 0.5, 1, 2, 4, 8, 16, 30, 30, 30, 30, 30])
        b.reset()
        XCTAssertEqual(b.nextDelay(random: 0.5), .milliseconds(250))
    }

    func testJitterStaysWithinTwentyPercentAndUnderTheCap() {
        var low = Backoff(), high = Backoff()
        for _ in 0..<10 {
            let l = low.nextDelay(random: 0).seconds, h = high.nextDelay(random: 0.999_999).seconds
            XCTAssertLessThan(l, h)
            XCTAssertGreaterThanOrEqual(l, 0.2 - 1e-9)
            XCTAssertLessThanOrEqual(h, 30)
        }
        var b = Backoff()
        XCTAssertEqual(b.nextDelay(random: 0).seconds, 0.2, accuracy: 1e-9)
        XCTAssertEqual(b.nextDelay(random: 1).seconds, 0.6, accuracy: 1e-9)
    }

    func testDelayTextIsShort() {
        XCTAssertEqual(formatSeconds(.milliseconds(250)), "0.25 s")
        XCTAssertEqual(formatSeconds(.milliseconds(60)), "0.06 s")
        XCTAssertEqual(formatSeconds(.milliseconds(998)), "1.0 s")
        XCTAssertEqual(formatSeconds(.milliseconds(1_300)), "1.3 s")
        XCTAssertEqual(formatSeconds(.seconds(30)), "30 s")
    }
}
