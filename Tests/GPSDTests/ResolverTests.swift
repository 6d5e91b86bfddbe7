import Glibc
import Syscall
import XCTest
@testable import GPSD

/// A gpsd host given by name is looked up off the poll loop. The client's clock is the harness's
/// fake one throughout; real waits are polls on an eventfd with a generous timeout.
final class ResolverTests: XCTestCase {
    private static let generousMilliseconds: Int32 = 20_000

    private func named(_ host: String, port: UInt16 = 2947) -> GPSDClient.Configuration {
        GPSDClient.Configuration(endpoint: GPSDEndpoint(host: host, port: port))
    }

    private func loopback(_ port: UInt16) throws -> [SocketAddress] {
        try SocketAddress.resolve(host: "127.0.0.1", port: port)
    }

    private func waitReadable(_ descriptor: Int32?, file: StaticString = #filePath, line: UInt = #line) throws {
        let fd = try XCTUnwrap(descriptor, "no descriptor to wait on", file: file, line: line)
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        XCTAssertEqual(try Poll.wait(&fds, timeoutMilliseconds: Self.generousMilliseconds), 1,
                       "readable within \(Self.generousMilliseconds) ms", file: file, line: line)
    }

    /// A job that keeps the worker busy until the test opens `gate`.
    private static func hold(until gate: EventFD) -> Bool {
        var fds = [pollfd(fd: gate.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        return ((try? Poll.wait(&fds, timeoutMilliseconds: generousMilliseconds)) ?? 0) == 1
    }

    func testALookupThatNeverAnswersLeavesTheLoopTurningThenTimesOutIntoTheBackoff() throws {
        let resolver = try ScriptedResolver()
        let h = try ClientHarness(named("gpsd.example"), resolver: resolver)
        h.start()
        let started = h.now
        XCTAssertEqual(resolver.lookups, ["gpsd.example:2947"])
        XCTAssertEqual(h.client.descriptor, resolver.descriptor, "the loop polls the resolver meanwhile")
        XCTAssertEqual(h.client.pollEvents, Int16(POLLIN))
        XCTAssertEqual(h.client.deadline, started.advanced(by: .seconds(5)), "the lookup timeout")
        XCTAssertEqual(h.client.health, .unreachable)

        // The loop's turns while the lookup hangs: poll, handle, tick, each returning at once.
        var turns = 0
        for _ in 0..<1000 {
            var fds = [pollfd(fd: try XCTUnwrap(h.client.descriptor), events: h.client.pollEvents, revents: 0)]
            _ = try Poll.wait(&fds, timeoutMilliseconds: 0)
            h.client.handle(revents: fds[0].revents, now: h.now)
            h.client.handle(revents: Int16(POLLIN), now: h.now)  // a spurious wake-up is harmless too
            h.advance(.milliseconds(4))
            turns += 1
        }
        XCTAssertEqual(turns, 1000)
        XCTAssertEqual(started.duration(to: h.now), .seconds(4))
        XCTAssertEqual(h.client.deadline, started.advanced(by: .seconds(5)), "the deadline stays the lookup timeout")
        XCTAssertEqual(h.states, [.connecting])

        XCTAssertEqual(h.advanceToDeadline(), .seconds(1))
        let timedOut = "resolving gpsd.example: timed out after 5.0 s"
        XCTAssertEqual(h.states, [.connecting, .unreachable(reason: timedOut)])
        XCTAssertEqual(h.stateMessages.last, "gpsd at gpsd.example:2947 unreachable (\(timedOut)); retrying in 0.25 s")
        XCTAssertNil(h.client.descriptor, "nothing to poll while waiting to retry")

        // The hung lookup still occupies the worker: retries with the usual backoff, no new lookup.
        XCTAssertEqual(h.advanceToDeadline(), .milliseconds(250))
        let busy = "resolving gpsd.example: the previous lookup has still not returned; no second one until it does"
        XCTAssertEqual(h.states.last, .unreachable(reason: busy))
        XCTAssertEqual(h.stateMessages.last, "gpsd at gpsd.example:2947 unreachable (\(busy)); retrying in 0.50 s")
        XCTAssertEqual(h.advanceToDeadline(), .milliseconds(500))
        XCTAssertEqual(h.advanceToDeadline(), .seconds(1))
        XCTAssertEqual(resolver.lookups.count, 1, "exactly one lookup while the first is hung")
        XCTAssertEqual(h.client.statistics.connectionAttempts, 4)
        XCTAssertEqual(h.states.count, 3, "the same reason is said once")
    }

    func testALateAnswerIsDroppedAndTheNextLookupsAnswerConnects() throws {
        let server = try LoopbackServer()
        let resolver = try ScriptedResolver()
        let h = try ClientHarness(named("gpsd.example", port: server.port), resolver: resolver)
        h.start()
        h.advance(.seconds(5))
        XCTAssertEqual(h.states.last, .unreachable(reason: "resolving gpsd.example: timed out after 5.0 s"))

        try resolver.answer(.success(try loopback(server.port)))
        XCTAssertEqual(h.advanceToDeadline(), .milliseconds(250))
        XCTAssertFalse(try server.hasPendingConnection(), "the answer to the abandoned lookup was not used")
        XCTAssertEqual(resolver.lookups.count, 2, "the worker is free again: a fresh lookup")
        XCTAssertEqual(h.client.descriptor, resolver.descriptor)
        XCTAssertEqual(h.client.statistics.connections, 0)

        try resolver.answer(.success(try loopback(server.port)))
        XCTAssertTrue(h.pump { h.client.statistics.connections == 1 }, "the answer arrives through the loop's poll")
        let peer = try server.accept()
        XCTAssertEqual(try LoopbackServer.receive(from: peer), "?WATCH={\"enable\":true,\"json\":true}\n")
        try LoopbackServer.send(GPSDSamples.version + "\n", to: peer)
        XCTAssertTrue(h.pump { h.states.last == .connected(release: "3.22") })
        XCTAssertEqual(h.stateMessages.last, "connected to gpsd 3.22 at gpsd.example:\(server.port)")
    }

    func testAFailedLookupIsAnUnreachableAttemptWithGetaddrinfosReason() throws {
        let resolver = try ScriptedResolver()
        let h = try ClientHarness(named("gpsd.example"), resolver: resolver)
        h.start()
        try resolver.answer(.failure(ResolveError(host: "gpsd.example", message: "Name or service not known")))
        XCTAssertTrue(h.pump { h.client.descriptor == nil })
        XCTAssertEqual(h.states.last, .unreachable(reason: "resolve gpsd.example: Name or service not known"))
        XCTAssertEqual(h.stateMessages.last, "gpsd at gpsd.example:2947 unreachable (resolve gpsd.example: Name or service not known); retrying in 0.25 s")
        _ = h.advanceToDeadline()
        XCTAssertEqual(resolver.lookups.count, 2, "an answered lookup frees the worker for the retry")
    }

    func testNumericAddressesNeverReachTheResolver() throws {
        let server = try LoopbackServer()
        for text in ["127.0.0.1:\(server.port)", "[::1]:\(server.port)"] {
            let resolver = try ScriptedResolver()
            let h = try ClientHarness(.init(endpoint: try GPSDEndpoint(parsing: text)), resolver: resolver)
            h.start()
            XCTAssertEqual(resolver.lookups, [], text)
            XCTAssertNotEqual(h.client.descriptor, resolver.descriptor, text)
            XCTAssertEqual(h.client.statistics.connectionAttempts, 1, text)
            h.client.stop()
        }
        XCTAssertNil(SocketAddress.numeric(host: "localhost", port: 1), "a name is not an address")
        XCTAssertEqual(SocketAddress.numeric(host: "::1", port: 1)?.map(\.description), ["[::1]:1"])
    }

    func testTheWorkerResolverLooksUpLocalhostOffTheLoopAndTheClientConnects() throws {
        let server = try LoopbackServer()
        let h = try ClientHarness(named("localhost", port: server.port))
        h.start()
        // A lookup on the loop would have gone straight on to connecting.
        XCTAssertEqual(h.client.pollEvents, Int16(POLLIN))
        XCTAssertNotNil(h.client.descriptor)
        XCTAssertEqual(h.client.statistics.connections, 0)
        XCTAssertEqual(h.client.deadline, h.now.advanced(by: .seconds(5)))
        XCTAssertTrue(h.pump { h.client.statistics.connections == 1 })
        let peer = try server.accept()
        try LoopbackServer.send(GPSDSamples.version + "\n", to: peer)
        XCTAssertTrue(h.pump { h.states.last == .connected(release: "3.22") })
        XCTAssertEqual(h.stateMessages.last, "connected to gpsd 3.22 at localhost:\(server.port)")
    }

    func testTheWorkerResolversAnswersComeBackOnePerLookupInOrder() throws {
        let worker = try WorkerThread(name: "resolver test")
        defer { worker.close() }
        let resolver = WorkerResolver(worker: worker)
        XCTAssertNil(resolver.descriptor, "nothing is made before the first lookup")
        try resolver.startLookup(host: "localhost", port: 7)
        try resolver.startLookup(host: "no-such-host.invalid", port: 8)
        var answers: [ResolveAnswer] = []
        while answers.count < 2 {
            try waitReadable(resolver.descriptor)
            answers += resolver.takeAnswers()
        }
        XCTAssertEqual(answers.count, 2)
        XCTAssertTrue(try answers[0].get().contains { $0.description == "127.0.0.1:7" }, "\(answers[0])")
        guard case .failure(let error) = answers[1] else { return XCTFail("\(answers[1])") }
        XCTAssertTrue(error.description.hasPrefix("resolve no-such-host.invalid: "), error.description)
    }

    func testALookupStuckBehindABusyWorkerTimesOutAndItsLateAnswerIsDropped() throws {
        let server = try LoopbackServer()
        let worker = try WorkerThread(name: "busy worker")
        defer { worker.close() }
        let gate = try EventFD(name: "gate")
        defer { gate.close() }
        let held = try ResultQueue<Bool>(name: "held")
        try worker.submit({ Self.hold(until: gate) }, replyingTo: held)

        let resolver = WorkerResolver(worker: worker)
        let h = try ClientHarness(named("localhost", port: server.port), resolver: resolver)
        h.start()
        h.advance(.seconds(5))
        XCTAssertEqual(h.states.last, .unreachable(reason: "resolving localhost: timed out after 5.0 s"))
        XCTAssertEqual(h.advanceToDeadline(), .milliseconds(250))
        XCTAssertEqual(h.states.last, .unreachable(reason: "resolving localhost: the previous lookup has still not returned; no second one until it does"))

        try gate.signal()
        try waitReadable(resolver.descriptor)
        XCTAssertEqual(held.takeResults(), [true], "the worker was held until the gate opened")
        XCTAssertFalse(try server.hasPendingConnection(), "the late answer is not acted on while waiting")
        XCTAssertEqual(h.advanceToDeadline(), .milliseconds(500))
        XCTAssertEqual(h.client.statistics.connections, 0, "the late answer was dropped; a new lookup runs")
        XCTAssertEqual(h.client.pollEvents, Int16(POLLIN))
        XCTAssertTrue(h.pump { h.client.statistics.connections == 1 })
        _ = try server.accept()
    }
}
