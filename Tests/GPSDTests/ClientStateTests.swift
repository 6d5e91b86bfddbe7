import Glibc
import Syscall
import XCTest
@testable import GPSD

/// The client's state machine over real loopback sockets, with a fake clock for every deadline.
final class ClientStateTests: XCTestCase {
    func connected(_ harness: ClientHarness, _ server: LoopbackServer) throws -> FileDescriptor {
        harness.start()
        let peer = try server.accept()
        XCTAssertTrue(harness.pump { harness.client.pollEvents == Int16(POLLIN) }, "connect completes")
        return peer
    }

    func testSendsTheWatchInOneWriteThenReportsConnectedAndNoReceiver() throws {
        let server = try LoopbackServer()
        let h = try ClientHarness.local(port: server.port)
        let peer = try connected(h, server)
        XCTAssertEqual(try LoopbackServer.receive(from: peer), "?WATCH={\"enable\":true,\"json\":true}\n")
        try LoopbackServer.send(GPSDSamples.version + "\r\n" + GPSDSamples.noDevices + "\r\n" + GPSDSamples.watch + "\r\n", to: peer)
        XCTAssertTrue(h.pump { h.states.count == 3 })
        XCTAssertEqual(h.states, [.connecting, .connected(release: "3.22"), .noReceiver])
        XCTAssertEqual(h.stateMessages.last, "gpsd at 127.0.0.1:\(server.port) is reachable, no receiver")
        XCTAssertEqual(h.client.health, .noReceiver)
        // gpsd without a receiver is silent by design: no timeout, no reconnect, nothing more said.
        XCTAssertNil(h.client.deadline)
        h.advance(.seconds(3600))
        h.pump()
        XCTAssertEqual(h.states.count, 3)
        XCTAssertEqual(h.client.statistics.connectionAttempts, 1)
        XCTAssertFalse(try server.hasPendingConnection())
    }

    func testWatchForOneReceiverNamesItAndLongPathsAreRefused() throws {
        XCTAssertEqual(String(decoding: try GPSDClient.watchRequest(device: "/dev/ttyACM0"), as: UTF8.self),
                       "?WATCH={\"enable\":true,\"json\":true,\"device\":\"/dev/ttyACM0\"}\n")
        XCTAssertEqual(String(decoding: try GPSDClient.watchRequest(device: "/dev/\"a\\b\tc"), as: UTF8.self),
                       #"?WATCH={"enable":true,"json":true,"device":"/dev/\"a\\b\tc"}"# + "\n", "the path is a JSON string")
        XCTAssertThrowsError(try GPSDClient.watchRequest(device: "/dev/serial/by-id/" + String(repeating: "x", count: 40))) { error in
            XCTAssertTrue("\(error)".contains("too long for gpsd's 80-character watch request"), "\(error)")
        }
        let server = try LoopbackServer()
        let h = try ClientHarness.local(port: server.port, device: "/dev/ttyACM0")
        let peer = try connected(h, server)
        XCTAssertEqual(try LoopbackServer.receive(from: peer), "?WATCH={\"enable\":true,\"json\":true,\"device\":\"/dev/ttyACM0\"}\n")
        // Another receiver's messages are ignored; ours count.
        try LoopbackServer.send(#"{"class":"DEVICES","devices":[{"path":"/dev/other","activated":"x"}]}"# + "\n"
            + #"{"class":"TPV","device":"/dev/other","mode":3,"lat":1,"lon":1}"# + "\n"
            + #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"lat":2,"lon":2}"# + "\n", to: peer)
        XCTAssertTrue(h.pump { !h.fixes.isEmpty })
        XCTAssertEqual(h.fixes.map(\.latitude), [2])
        XCTAssertEqual(h.states.suffix(2), [.noReceiver, .receiving(devices: ["/dev/ttyACM0"])])
    }

    func testAWatchedReceiverGpsdLacksIsNoReceiverUntilItAppears() throws {
        let server = try LoopbackServer()
        let h = try ClientHarness.local(port: server.port, device: "/dev/ttyUSB0")
        let peer = try connected(h, server)
        try LoopbackServer.send(GPSDSamples.version + "\r\n" + #"{"class":"ERROR","message":"No such device as /dev/ttyUSB0"}"# + "\r\n", to: peer)
        XCTAssertTrue(h.pump { h.states.last == .noReceiver })
        XCTAssertNil(h.client.deadline, "no silence timeout while gpsd has no receiver for us")
        // Plugged in later: gpsd announces it; if no data follows, the silence timeout re-watches.
        try LoopbackServer.send(#"{"class":"DEVICE","path":"/dev/ttyUSB0","activated":"2024-06-01T12:00:00.000Z"}"# + "\r\n", to: peer)
        XCTAssertTrue(h.pump { h.states.last == .receiving(devices: ["/dev/ttyUSB0"]) })
        XCTAssertEqual(h.client.deadline, h.now.advanced(by: .seconds(10)))
    }

    func testActiveReceiverSilenceReconnectsAndEachFixMovesTheDeadline() throws {
        let server = try LoopbackServer()
        let h = try ClientHarness.local(port: server.port)
        let peer = try connected(h, server)
        try LoopbackServer.send([GPSDSamples.version, GPSDSamples.devices, GPSDSamples.deviceActivated, GPSDSamples.tpv3D].joined(separator: "\r\n") + "\r\n", to: peer)
        XCTAssertTrue(h.pump { h.fixes.count == 1 })
        XCTAssertEqual(h.states.last, .receiving(devices: ["/dev/pts/2"]))
        XCTAssertEqual(h.client.health, .receiving)
        XCTAssertEqual(h.client.deadline, h.now.advanced(by: .seconds(10)))
        h.advance(.milliseconds(9_900))
        try LoopbackServer.send(GPSDSamples.tpv3D + "\r\n", to: peer)
        XCTAssertTrue(h.pump { h.fixes.count == 2 })
        XCTAssertEqual(h.fixes[1].receivedAt, h.now, "arrival is stamped with the loop's clock")
        h.advance(.milliseconds(9_999))
        XCTAssertNotNil(h.client.descriptor, "still within 10 s of the last line")
        h.advance(.milliseconds(1))
        XCTAssertNil(h.client.descriptor)
        XCTAssertEqual(h.states.last, .lost(reason: "no data from gpsd for 10 s"))
        XCTAssertEqual(h.stateMessages.last, "lost gpsd at 127.0.0.1:\(server.port) (no data from gpsd for 10 s); reconnecting in 0.25 s")
        XCTAssertTrue(try LoopbackServer.isClosedByClient(peer))
        XCTAssertEqual(h.advanceToDeadline(), .milliseconds(250))
        let second = try server.accept()
        XCTAssertTrue(h.pump { h.client.pollEvents == Int16(POLLIN) })
        XCTAssertEqual(try LoopbackServer.receive(from: second), "?WATCH={\"enable\":true,\"json\":true}\n", "the watch is sent again")
    }

    func testReceiverGoingAwayMeansNoReceiverAndNoTimeout() throws {
        let server = try LoopbackServer()
        let h = try ClientHarness.local(port: server.port)
        let peer = try connected(h, server)
        try LoopbackServer.send([GPSDSamples.version, GPSDSamples.devices, GPSDSamples.deviceGone].joined(separator: "\n") + "\n", to: peer)
        XCTAssertTrue(h.pump { h.states.last == .noReceiver })
        XCTAssertEqual(h.states, [.connecting, .connected(release: "3.22"), .receiving(devices: ["/dev/pts/2"]), .noReceiver])
        XCTAssertNil(h.client.deadline)
    }

    func testUnreachableIsSaidOnceWhileTheBackoffDoublesToThirtySeconds() throws {
        let port = try closedPort()
        let h = try ClientHarness.local(port: port)
        h.start()
        var delays: [Duration] = []
        for _ in 0..<11 {
            XCTAssertTrue(h.pump { h.client.descriptor == nil }, "the attempt fails")
            delays.append(h.now.duration(to: h.client.deadline!))
            h.advance(delays.last!)
        }
        XCTAssertEqual(delays.map(\.seconds), [0.25, 0.5, 1, 2, 4, 8, 16, 30, 30, 30, 30])
        XCTAssertEqual(h.client.statistics.connectionAttempts, 12)
        XCTAssertEqual(h.states, [.connecting, .unreachable(reason: "connect gpsd 127.0.0.1:\(port): Connection refused (errno 111)")])
        XCTAssertEqual(h.stateMessages.last, "gpsd at 127.0.0.1:\(port) unreachable (connect gpsd 127.0.0.1:\(port): Connection refused (errno 111)); retrying in 0.25 s")
        XCTAssertEqual(h.client.health, .unreachable)
        XCTAssertTrue(h.pump { h.client.descriptor == nil }, "the last attempt failed too")
        // gpsd appears: the next attempt connects.
        let server = try LoopbackServer(port: port)
        _ = h.advanceToDeadline()
        let peer = try server.accept()
        try LoopbackServer.send(GPSDSamples.version + "\n", to: peer)
        XCTAssertTrue(h.pump { h.states.last == .connected(release: "3.22") })
    }

    func testOnlyAConnectionThatLastedResetsTheBackoff() throws {
        let server = try LoopbackServer()
        let h = try ClientHarness.local(port: server.port)
        var peer = try connected(h, server)
        // A gpsd that answers and drops at once, three times: the backoff keeps growing.
        var delays: [Double] = []
        for _ in 0..<3 {
            XCTAssertTrue(h.pump { h.client.pollEvents == Int16(POLLIN) })
            _ = try LoopbackServer.receive(from: peer)  // unread data would turn the close into a reset
            try LoopbackServer.send(GPSDSamples.version + "\n", to: peer)
            peer.close()
            XCTAssertTrue(h.pump { h.client.descriptor == nil })
            delays.append(h.advanceToDeadline()!.seconds)
            peer = try server.accept()
        }
        XCTAssertEqual(delays, [0.25, 0.5, 1])
        // One that worked for 10 s: the next retry starts over at 0.25 s.
        XCTAssertTrue(h.pump { h.client.pollEvents == Int16(POLLIN) })
        try LoopbackServer.send(GPSDSamples.version + "\n" + GPSDSamples.noDevices + "\n", to: peer)
        XCTAssertTrue(h.pump { h.states.last == .noReceiver })
        h.advance(.seconds(10))
        _ = try LoopbackServer.receive(from: peer)
        peer.close()
        XCTAssertTrue(h.pump { h.client.descriptor == nil })
        XCTAssertEqual(h.states.last, .lost(reason: "gpsd closed the connection"))
        XCTAssertEqual(h.advanceToDeadline(), .milliseconds(250))
    }

    func testServerThatNeverSpeaksTimesOutAndTheLossIsSaidOnce() throws {
        let server = try LoopbackServer()
        let h = try ClientHarness.local(port: server.port)
        h.start()
        for round in 0..<3 {
            let peer = try server.accept()
            XCTAssertTrue(h.pump { h.client.pollEvents == Int16(POLLIN) })
            _ = h.advanceToDeadline()
            XCTAssertTrue(try LoopbackServer.isClosedByClient(peer), "round \(round)")
            _ = h.advanceToDeadline()
        }
        XCTAssertEqual(h.states, [.connecting, .lost(reason: "no answer from gpsd within 10 s")])
        XCTAssertEqual(h.client.statistics.connections, 3)
    }

    func testAPartialLineBeforeEOFIsNotGluedToTheNextConnection() throws {
        let server = try LoopbackServer()
        let h = try ClientHarness.local(port: server.port)
        let first = try connected(h, server)
        _ = try LoopbackServer.receive(from: first)
        try LoopbackServer.send(GPSDSamples.version + "\n{\"class\":\"TPV\",\"mode\":3,\"la", to: first)
        first.close()
        XCTAssertTrue(h.pump { h.client.descriptor == nil })
        XCTAssertEqual(h.states.last, .lost(reason: "gpsd closed the connection"))
        _ = h.advanceToDeadline()
        let second = try server.accept()
        try LoopbackServer.send("t\":1,\"lon\":2}\n" + GPSDSamples.version + "\n", to: second)
        XCTAssertTrue(h.pump { h.states.last == .connected(release: "3.22") })
        XCTAssertEqual(h.fixes, [])
        XCTAssertEqual(h.client.statistics.skipped[.notJSON], 1, "the tail of the old line is a line of its own")
    }

    func testBadLinesAreCountedByReasonAndWarnedOncePerConnection() throws {
        let server = try LoopbackServer()
        var configuration = GPSDClient.Configuration(endpoint: GPSDEndpoint(host: "127.0.0.1", port: server.port))
        configuration.maximumLineLength = 512
        let h = try ClientHarness(configuration)
        let peer = try connected(h, server)
        var stream = [GPSDSamples.version, GPSDSamples.devices]
        for _ in 0..<2 {
            stream += [GPSDSamples.nmeaLine, GPSDSamples.att, "\u{1}\u{2}garbage", "{\"class\":\"TPV\",", #"{"class":"TPV","lat":"1"}"#,
                       #"{"class":"TPV","mode":3,"lat":95,"lon":0}"#, #"{"class":"TPV","mode":3,"lat":0,"lon":1e999}"#,
                       #"{"class":"TPV","eph":-1}"#, String(repeating: "x", count: 2000), GPSDSamples.tpvNoFix, GPSDSamples.tpv3D]
        }
        try LoopbackServer.send(stream.joined(separator: "\r\n") + "\r\n", to: peer)
        XCTAssertTrue(h.pump { h.fixes.count == 2 })
        let s = h.client.statistics
        XCTAssertEqual(s.linesReceived, stream.count)
        XCTAssertEqual(s.fixes, 2)
        XCTAssertEqual(s.tpvsWithoutFix, 2)
        for reason in [SkipReason.nmeaSentence, .unknownClass, .notJSON, .malformedJSON, .wrongType, .latitudeOutOfRange,
                       .nonFiniteNumber, .negativeErrorEstimate, .oversizeLine] {
            XCTAssertEqual(s.skipped[reason], 2, "\(reason)")
        }
        XCTAssertEqual(s.skipped.total, 18)
        XCTAssertEqual(h.warnings.count, 7, "one per bad-input reason, none for NMEA or unknown classes:\n\(h.warnings.joined(separator: "\n"))")
        XCTAssertTrue(h.warnings.contains { $0.contains("line of 2000 bytes is longer than 512") })
        XCTAssertTrue(h.warnings.contains { $0.contains("TPV lat 95.0 is outside -90...90") })
        XCTAssertEqual(s.skipped.description, "oversize line 2, NMEA sentence 2, not JSON 2, malformed JSON 2, unknown class 2, "
                       + "wrong JSON type 2, non-finite number 2, latitude out of range 2, negative error estimate 2")
    }

    func testGpsdErrorIsAWarningAndStopFromAHandlerIsSafe() throws {
        let server = try LoopbackServer()
        var stopped = false
        var client: GPSDClient?
        client = try GPSDClient(configuration: .init(endpoint: GPSDEndpoint(host: "127.0.0.1", port: server.port)), random: { 0.5 }) { event in
            if case .warning(let text) = event {
                XCTAssertTrue(text.hasSuffix("says: No such device as /dev/nonexist"), text)
                client?.stop()
                stopped = true
            }
        }
        let c = try XCTUnwrap(client)
        var now = MonotonicInstant.now()
        c.start(now: now)
        let peer = try server.accept()
        try LoopbackServer.send(GPSDSamples.error + "\n" + GPSDSamples.tpv3D + "\n", to: peer)
        for _ in 0..<200 where !stopped {
            var fds: [pollfd] = c.descriptor.map { [pollfd(fd: $0, events: c.pollEvents, revents: 0)] } ?? []
            _ = try Poll.wait(&fds, timeoutMilliseconds: 20)
            now = MonotonicInstant.now()
            if let f = fds.first { c.handle(revents: f.revents, now: now) }
        }
        XCTAssertTrue(stopped)
        XCTAssertEqual(c.state, .stopped)
        XCTAssertNil(c.descriptor)
        XCTAssertEqual(c.statistics.fixes, 0, "nothing is handled after stop")
        client = nil
    }
}
