import Glibc
import JSON
import Syscall

/// A gpsd client driven by its owner's poll loop, never blocking it: a host given by name is
/// looked up by a `HostResolver` (getaddrinfo on the worker thread), whose descriptor stands in
/// for the socket meanwhile. Each loop iteration the owner polls `descriptor` for `pollEvents`,
/// folds `deadline` into its timeout, then calls `handle(revents:now:)` and `tick(now:)`.
/// It reconnects forever with backoff; everything it learns arrives through `onEvent`.
public final class GPSDClient {
    public struct Configuration: Sendable {
        public var endpoint: GPSDEndpoint
        /// Watch only this receiver (gpsd's `device` watch flag); nil watches all.
        public var device: String?
        /// How long gpsd may stay silent while it reports an active receiver (and how long a
        /// connect or gpsd's first answer may take) before the client reconnects.
        public var silenceTimeout: Duration
        /// How long a name lookup may take. One that does not answer in time counts as a failed
        /// attempt (backoff, then a retry); while it still runs, no second lookup is started.
        public var resolveTimeout: Duration
        public var backoff: Backoff
        /// A connection that lasted this long counts as working: the backoff starts over.
        public var stableAfter: Duration
        public var maximumLineLength: Int
        /// Bytes read per `handleReadable` at most, so a flood cannot starve the rest of the loop.
        public var readBudget: Int

        public init(endpoint: GPSDEndpoint = .default, device: String? = nil, silenceTimeout: Duration = .seconds(10),
                    resolveTimeout: Duration = .seconds(5), backoff: Backoff = Backoff(), stableAfter: Duration = .seconds(10),
                    maximumLineLength: Int = LineFramer.defaultMaximumLineLength, readBudget: Int = 64 * 1024) {
            self.endpoint = endpoint
            self.device = device
            self.silenceTimeout = silenceTimeout
            self.resolveTimeout = resolveTimeout
            self.backoff = backoff
            self.stableAfter = stableAfter
            self.maximumLineLength = maximumLineLength
            self.readBudget = readBudget
        }
    }

    public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public let configuration: Configuration
    public private(set) var state: GPSDClientState = .stopped
    public internal(set) var statistics = GPSDStatistics()

    private var backoff: Backoff
    private let watchRequest: [UInt8]
    private let random: () -> Double
    let onEvent: (GPSDEvent) -> Void
    private var framer: LineFramer
    var phase = Phase.idle
    private let resolver: any HostResolver
    /// A lookup was started and its answer has not come, whether the client still waits for it or
    /// gave up on it: the resolver is occupied until then.
    private var lookupOutstanding = false

    enum Phase {
        case idle
        case waiting(until: MonotonicInstant)
        case resolving(since: MonotonicInstant)
        case connecting(FileDescriptor, addresses: [SocketAddress], index: Int, since: MonotonicInstant)
        case open(FileDescriptor, Session)
    }

    struct Session {
        var connectedAt: MonotonicInstant
        var lastLineAt: MonotonicInstant
        var gotVersion = false
        /// gpsd has said which receivers it has (DEVICES, DEVICE or a TPV).
        var knowsDevices = false
        var activeDevices: [String] = []
        var warned: Set<Int> = []
    }

    /// `random` yields values in [0, 1) for jitter; tests pass a fixed sequence. `resolver` looks
    /// host names up (numeric addresses never reach it).
    public init(configuration: Configuration, resolver: any HostResolver = WorkerResolver(),
                random: @escaping () -> Double = { Double.random(in: 0..<1) },
                onEvent: @escaping (GPSDEvent) -> Void) throws(ConfigurationError) {
        self.configuration = configuration
        self.resolver = resolver
        self.backoff = configuration.backoff
        self.random = random
        self.onEvent = onEvent
        self.framer = LineFramer(maximumLineLength: configuration.maximumLineLength)
        self.watchRequest = try Self.watchRequest(device: configuration.device)
    }

    deinit { closeDescriptor() }

    /// The watch request, sent in one write. gpsd reads requests of at most 80 characters.
    public static func watchRequest(device: String?) throws(ConfigurationError) -> [UInt8] {
        var text = "?WATCH={\"enable\":true,\"json\":true"
        if let device { text += ",\"device\":" + JSONWriter.quoted(device) }
        text += "}\n"
        guard text.utf8.count <= 80 else {
            throw ConfigurationError(description: "receiver path \"\(device ?? "")\" is too long for gpsd's 80-character watch request")
        }
        return Array(text.utf8)
    }

    // MARK: What the poll loop reads

    /// The descriptor to poll: the resolver's while a name is looked up, then the socket; nil
    /// while waiting to retry.
    public var descriptor: Int32? {
        switch phase {
        case .resolving: resolver.descriptor
        case .connecting(let fd, _, _, _), .open(let fd, _): fd.rawValue
        case .idle, .waiting: nil
        }
    }

    /// POLLIN for the resolver's answer, POLLOUT while a connect is under way, POLLIN once connected.
    public var pollEvents: Int16 {
        switch phase {
        case .resolving: Int16(POLLIN)
        case .connecting: Int16(POLLOUT)
        case .open: Int16(POLLIN)
        case .idle, .waiting: 0
        }
    }

    /// When `tick` next has work: a retry, the lookup timeout, a connect timeout or the silence timeout.
    public var deadline: MonotonicInstant? {
        switch phase {
        case .idle: return nil
        case .waiting(let until): return until
        case .resolving(let since): return since.advanced(by: configuration.resolveTimeout)
        case .connecting(_, _, _, let since): return since.advanced(by: configuration.silenceTimeout)
        case .open(_, let s):
            // A gpsd without a receiver is silent by design: no timeout then.
            guard !s.knowsDevices || !s.activeDevices.isEmpty else { return nil }
            return s.lastLineAt.advanced(by: configuration.silenceTimeout)
        }
    }

    public var health: GPSDHealth {
        guard case .open(_, let s) = phase, s.gotVersion || s.knowsDevices else { return .unreachable }
        return s.activeDevices.isEmpty ? .noReceiver : .receiving
    }

    /// The framer's fixed buffer size: what the client holds for a line, whatever the peer sends.
    public var lineBufferCapacity: Int { framer.capacity }

    // MARK: Driving

    /// Starts connecting (a no-op when already started).
    public func start(now: MonotonicInstant) {
        guard case .idle = phase else { return }
        report(.connecting, "connecting to gpsd at \(configuration.endpoint)")
        attempt(now: now)
    }

    /// Closes the connection and stops retrying.
    public func stop() {
        closeDescriptor()
        phase = .idle
        state = .stopped
    }

    /// Hands over the poll result for `descriptor`.
    public func handle(revents: Int16, now: MonotonicInstant) {
        guard revents != 0 else { return }
        switch phase {
        case .resolving: takeAnswers(now: now)
        case .connecting: handleWritable(now: now)
        case .open: handleReadable(now: now)
        case .idle, .waiting: break
        }
    }

    /// A pending connect finished (POLLOUT, POLLERR or POLLHUP).
    public func handleWritable(now: MonotonicInstant) {
        guard case .connecting(let fd, let addresses, let index, _) = phase else { return }
        do throws(SyscallError) {
            let code = try fd.pendingSocketError()
            if code != 0 { throw SyscallError(call: "connect", object: fd.name, errno: code) }
        } catch {
            fd.close()
            phase = .idle
            tryAddresses(addresses, from: index + 1, lastError: error.description, now: now)
            return
        }
        established(fd, now: now)
    }

    /// Reads what gpsd sent (at most `readBudget` bytes) and acts on every complete line.
    public func handleReadable(now: MonotonicInstant) {
        guard case .open(let fd, _) = phase else { return }
        var budget = configuration.readBudget
        while budget > 0 {
            let count: Int?
            do {
                count = try framer.receive(limit: budget, { (room) throws(SyscallError) -> Int? in
                    try fd.read(into: room)
                }, { event in self.process(event, now: now) })
            } catch {
                lose(error.description, now: now)
                return
            }
            // An event handler may have stopped the client mid-read.
            guard case .open(let current, _) = phase, current == fd, let count else { return }
            if count == 0 {
                lose("gpsd closed the connection", now: now)
                return
            }
            statistics.bytesReceived += count
            budget -= count
        }
    }

    /// Fires whatever is due: a retry, the lookup timeout, a connect timeout, the silence timeout.
    public func tick(now: MonotonicInstant) {
        guard let due = deadline, due <= now else { return }
        switch phase {
        case .idle: break
        case .waiting: attempt(now: now)
        case .resolving:
            // An answer that came just in time may not have been polled yet.
            takeAnswers(now: now)
            guard case .resolving = phase else { return }
            phase = .idle
            failed("resolving \(configuration.endpoint.host): timed out after \(formatSeconds(configuration.resolveTimeout))", now: now)
        case .connecting(let fd, let addresses, let index, _):
            fd.close()
            phase = .idle
            let error = "connect \(addresses[index]): no answer within \(formatSeconds(configuration.silenceTimeout))"
            tryAddresses(addresses, from: index + 1, lastError: error, now: now)
        case .open(_, let s):
            let silence = formatSeconds(configuration.silenceTimeout)
            lose(s.gotVersion ? "no data from gpsd for \(silence)" : "no answer from gpsd within \(silence)", now: now)
        }
    }

    // MARK: Connection life cycle

    private func attempt(now: MonotonicInstant) {
        statistics.connectionAttempts += 1
        let host = configuration.endpoint.host, port = configuration.endpoint.port
        if let addresses = SocketAddress.numeric(host: host, port: port) {
            tryAddresses(addresses, from: 0, lastError: nil, now: now)
            return
        }
        // A lookup given up on may have answered meanwhile; its answer is stale and dropped.
        takeAnswers(now: now)
        // A second lookup would only queue behind the hung one on the one worker thread.
        if lookupOutstanding {
            failed("resolving \(host): the previous lookup has still not returned; no second one until it does", now: now)
            return
        }
        do {
            try resolver.startLookup(host: host, port: port)
        } catch {
            failed(error.description, now: now)
            return
        }
        lookupOutstanding = true
        phase = .resolving(since: now)
    }

    /// Acts on the lookup's answer if the client still waits for it; drops answers to lookups it
    /// gave up on.
    private func takeAnswers(now: MonotonicInstant) {
        for answer in resolver.takeAnswers() {
            lookupOutstanding = false
            guard case .resolving = phase else { continue }
            phase = .idle
            switch answer {
            case .success(let addresses): tryAddresses(addresses, from: 0, lastError: nil, now: now)
            case .failure(let error): failed(error.description, now: now)
            }
        }
    }

    /// Tries each resolved address in turn (gpsd may listen on ::1 but not 127.0.0.1, or the reverse).
    private func tryAddresses(_ addresses: [SocketAddress], from start: Int, lastError: String?, now: MonotonicInstant) {
        var lastError = lastError
        var index = start
        while index < addresses.count {
            let address = addresses[index]
            do throws(SyscallError) {
                let fd = try FileDescriptor.tcpSocket(family: address.family, name: "gpsd \(address)")
                do {
                    if try fd.connect(to: address) {
                        established(fd, now: now)
                    } else {
                        phase = .connecting(fd, addresses: addresses, index: index, since: now)
                    }
                    return
                } catch {
                    fd.close()
                    throw error
                }
            } catch {
                lastError = error.description
            }
            index += 1
        }
        failed(lastError ?? "no address", now: now)
    }

    private func established(_ fd: FileDescriptor, now: MonotonicInstant) {
        // A self-connected socket would hold gpsd's port and keep gpsd from ever starting there.
        if (try? fd.isConnectedToItself()) == true {
            fd.close()
            phase = .idle
            failed("connect \(fd.name): nothing listening (the socket connected to itself)", now: now)
            return
        }
        statistics.connections += 1
        framer.reset()
        let sent: Int?
        do throws(SyscallError) {
            sent = try watchRequest.withBytes { (bytes) throws(SyscallError) in try fd.send(bytes) }
        } catch {
            phase = .open(fd, Session(connectedAt: now, lastLineAt: now))
            lose(error.description, now: now)
            return
        }
        phase = .open(fd, Session(connectedAt: now, lastLineAt: now))
        // gpsd applies each received chunk as a whole request: a split watch would be half-applied.
        if sent != watchRequest.count { lose("could not send the watch request in one write", now: now) }
    }

    /// A connect attempt failed: wait, then try again.
    private func failed(_ reason: String, now: MonotonicInstant) {
        let delay = scheduleRetry(now: now)
        report(.unreachable(reason: reason),
               "gpsd at \(configuration.endpoint) unreachable (\(reason)); retrying in \(formatSeconds(delay))")
    }

    /// A connection that was up ended.
    func lose(_ reason: String, now: MonotonicInstant) {
        if case .open(_, let s) = phase, s.gotVersion || s.knowsDevices,
           s.connectedAt.duration(to: now) >= configuration.stableAfter {
            backoff.reset()
        }
        closeDescriptor()
        let delay = scheduleRetry(now: now)
        report(.lost(reason: reason), "lost gpsd at \(configuration.endpoint) (\(reason)); reconnecting in \(formatSeconds(delay))")
    }

    private func scheduleRetry(now: MonotonicInstant) -> Duration {
        let delay = backoff.nextDelay(random: random())
        phase = .waiting(until: now.advanced(by: delay))
        return delay
    }

    private func closeDescriptor() {
        switch phase {
        case .connecting(let fd, _, _, _), .open(let fd, _): fd.close()
        case .idle, .waiting, .resolving: break
        }
        phase = .idle
    }

    func report(_ new: GPSDClientState, _ message: String) {
        guard new != state, state != .stopped || new == .connecting else { return }
        state = new
        onEvent(.stateChanged(new, message: message))
    }
}
