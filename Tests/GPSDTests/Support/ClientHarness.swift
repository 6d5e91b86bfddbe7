import Glibc
import Location
import Syscall
import XCTest
@testable import GPSD

/// Runs a GPSDClient the way the daemon's loop does (poll its descriptor, hand over revents,
/// tick), with events recorded. Time is either a fake clock the test moves (`advance`) or the real
/// monotonic clock (`realTime: true`, for tests against real gpsd).
final class ClientHarness {
    private(set) var events: [GPSDEvent] = []
    private(set) var client: GPSDClient!
    let realTime: Bool
    private var fakeNow = MonotonicInstant(nanoseconds: 1_000_000_000_000)

    init(_ configuration: GPSDClient.Configuration, resolver: any HostResolver = WorkerResolver(), realTime: Bool = false,
         random: @escaping () -> Double = { 0.5 }) throws {
        self.realTime = realTime
        client = try GPSDClient(configuration: configuration, resolver: resolver, random: random) { [unowned self] in
            self.events.append($0)
        }
    }

    static func local(port: UInt16, silenceTimeout: Duration = .seconds(10), device: String? = nil,
                      realTime: Bool = false) throws -> ClientHarness {
        try ClientHarness(.init(endpoint: GPSDEndpoint(host: "127.0.0.1", port: port), device: device,
                                silenceTimeout: silenceTimeout), realTime: realTime)
    }

    var now: MonotonicInstant { realTime ? MonotonicInstant.now() : fakeNow }

    func start() { client.start(now: now) }

    /// Moves the fake clock and lets the client act on what fell due.
    func advance(_ duration: Duration) {
        precondition(!realTime)
        fakeNow = fakeNow.advanced(by: duration)
        client.tick(now: fakeNow)
    }

    /// Moves the fake clock exactly to the client's deadline and ticks.
    func advanceToDeadline(file: StaticString = #filePath, line: UInt = #line) -> Duration? {
        guard let deadline = client.deadline else {
            XCTFail("the client has no deadline", file: file, line: line)
            return nil
        }
        let step = fakeNow.duration(to: deadline)
        advance(step)
        return step
    }

    /// One loop iteration: poll the client's descriptor for up to `wait` ms (never past its
    /// deadline in real time), then hand over the result and tick.
    func pump(wait: Int32 = 20) {
        var fds: [pollfd] = []
        if let fd = client.descriptor { fds.append(pollfd(fd: fd, events: client.pollEvents, revents: 0)) }
        var timeout = wait
        if realTime { timeout = min(wait, max(0, Poll.timeoutMilliseconds(until: client.deadline, now: now))) }
        if fds.isEmpty { usleep(UInt32(timeout) * 1000) } else { _ = try? Poll.wait(&fds, timeoutMilliseconds: timeout) }
        if let first = fds.first { client.handle(revents: first.revents, now: now) }
        client.tick(now: now)
    }

    /// Pumps until `condition` holds or `timeout` seconds of real time pass; false on timeout.
    @discardableResult
    func pump(until condition: () -> Bool, timeout: Double = 5) -> Bool {
        let end = MonotonicInstant.now().advanced(by: .nanoseconds(Int64(timeout * 1e9)))
        while !condition() {
            if MonotonicInstant.now() >= end { return false }
            pump()
        }
        return true
    }

    var states: [GPSDClientState] {
        events.compactMap { if case .stateChanged(let s, _) = $0 { s } else { nil } }
    }

    var stateMessages: [String] {
        events.compactMap { if case .stateChanged(_, let m) = $0 { m } else { nil } }
    }

    var fixes: [Fix] { events.compactMap { if case .fix(let f) = $0 { f } else { nil } } }

    var warnings: [String] { events.compactMap { if case .warning(let w) = $0 { w } else { nil } } }

    func clearEvents() { events.removeAll() }
}
