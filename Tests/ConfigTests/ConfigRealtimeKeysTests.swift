@testable import Config
import Foundation
import TestSupport
import XCTest

/// `[realtime]`: the feeds' URLs, their timing, the CA file and the API key's credential, read,
/// shown back, and refused in one line naming the file, the line and the key.
final class ConfigRealtimeKeysTests: XCTestCase, ConfigFileTesting {
    let file = "/etc/pulsedot/realtime.conf"

    func testDefaultsAndURLs() throws {
        let d = Settings().realtime
        XCTAssertTrue(d.feeds.isEmpty)
        XCTAssertEqual([d.every, d.timeout, d.staleAfter], [15, 10, 120])
        XCTAssertNil(d.caFile)
        XCTAssertNil(d.apiKeyCredential)
        XCTAssertEqual(d.apiKeyHeader, "x-api-key")
        let c = try Configuration.parse("""
            [realtime]
            vehiclePositions = https://API.example.org/rt/vp?format=pb
            tripUpdates = http://10.0.0.2:8080/tu
            every = 30s
            apiKeyCredential = feed-key
            apiKeyHeader = Authorization
            """, file: file, overrides: [])
        let r = c.settings.realtime
        XCTAssertEqual(r.vehiclePositions?.description, "https://api.example.org/rt/vp?format=pb")
        XCTAssertEqual(r.feeds.map { $0.name }, ["vehiclePositions", "tripUpdates"])
        XCTAssertEqual(r.every, 30)
        XCTAssertEqual(r.apiKeyCredential, "feed-key")
        XCTAssertEqual(r.apiKeyHeader, "Authorization")
        try assertShownValuesReadBack(c.settings)
        XCTAssertNil(try settings("realtime.alerts=none").realtime.alerts)
    }

    func testBadValuesNameFileLineAndKey() {
        assertError("[realtime]\n\nvehiclePositions = ftp://x/vp\n", "\(file):3: realtime.vehiclePositions = ftp://x/vp: URL must start with https:// or http://")
        assertError("[realtime]\nalerts = https://user:pw@x/a\n",
                    "\(file):2: realtime.alerts = https://user:pw@x/a: URL carries credentials (user@): give them as the API key credential instead")
        assertError("[realtime]\nevery = 1\n", "\(file):2: realtime.every = 1: out of range (5 ≤ value ≤ 3600, in seconds)")
        assertError("[realtime]\ntimeout = soon\n", "\(file):2: realtime.timeout = soon: not a duration (allowed: 1 ≤ value ≤ 120, in seconds)")
        assertError("[realtime]\ncaFile = /nonexistent/ca.pem\n",
                    "\(file):2: realtime.caFile = /nonexistent/ca.pem: cannot be read (No such file or directory; a PEM file of certificates is expected here)")
        assertError("[realtime]\napiKeyCredential = ../key\n",
                    "\(file):2: realtime.apiKeyCredential = ../key: not a credential name (letters, digits, '-', '_', '.'; the name given to LoadCredential=)")
        assertError("[realtime]\napiKeyHeader = X Key\n",
                    "\(file):2: realtime.apiKeyHeader = X Key: not a header name (RFC 9110: letters, digits and !#$%&'*+-.^_`|~ only)")
        assertError("[realtime]\napiKeyHeader = Host\n", "\(file):2: realtime.apiKeyHeader = Host: Host frames or routes the request itself: it cannot carry a key")
        assertError("[realtime]\napiKeyHeader = transfer-encoding\n",
                    "\(file):2: realtime.apiKeyHeader = transfer-encoding: transfer-encoding frames or routes the request itself: it cannot carry a key")
    }

    func testACAFileIsRelativeToTheConfiguration() throws {
        let dir = try TestEnvironment.temporaryDirectory("realtime-ca")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: dir.appendingPathComponent("ca.pem"))
        let c = try Configuration.parse("[realtime]\ncaFile = ca.pem\n", file: dir.appendingPathComponent("site.conf").path, overrides: [])
        XCTAssertEqual(c.settings.realtime.caFile, dir.appendingPathComponent("ca.pem").path)
        XCTAssertNil(try settings("realtime.caFile=system").realtime.caFile)
    }
}
