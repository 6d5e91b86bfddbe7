import HTTPWire
import Synchronization
import Syscall

/// One feed the fetcher keeps fresh.
public struct FeedSource: Sendable, Equatable {
    /// For messages and metrics: `vehiclePositions`, `tripUpdates`, `alerts`.
    public var name: String
    public var url: HTTPURL

    public init(name: String, url: HTTPURL) {
        self.name = name
        self.url = url
    }
}

/// What one fetch of a source came to, handed to the loop.
public struct FeedResult: Sendable {
    public var source: Int
    public var outcome: Result<FetchedFeed, FetchError>
    /// The fetch's time, connect to last byte or to the failure.
    public var duration: Duration
    /// When the fetch ended (wall clock, seconds since the epoch).
    public var finishedAt: Double
}

/// Results on their way from the fetch thread to the frame loop. The loop looks every iteration
/// with one atomic load; the lock is taken only to append a result or to move them out, never
/// held across a frame.
public final class FeedHandover: Sendable {
    private let waiting = Atomic<Int>(0)
    private let results = Mutex<[FeedResult]>([])

    public init() {}

    func post(_ result: FeedResult) {
        results.withLock { (r: inout [FeedResult]) in
            r.append(result)
            waiting.add(1, ordering: .releasing)
        }
    }

    public var hasResults: Bool { waiting.load(ordering: .acquiring) > 0 }

    /// Moves the results into `out` (emptied first, its storage kept); never blocks for long.
    public func take(into out: inout [FeedResult]) {
        out.removeAll(keepingCapacity: true)
        results.withLock { (r: inout [FeedResult]) in
            out.append(contentsOf: r)
            waiting.subtract(r.count, ordering: .releasing)
            r.removeAll(keepingCapacity: true)
        }
    }
}

/// Counts for the metrics, written by the fetch thread, read by anyone at any time.
public final class FetchCounters: Sendable {
    /// An atomic in a box: `Atomic` cannot be copied into an array.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    private let fetchCount = Atomic<Int>(0)
    private let unchangedCount = Atomic<Int>(0)
    private let errorCounts: [Counter]
    private let lastMilliseconds = Atomic<Int>(0)

    public init() { errorCounts = FetchError.Kind.allCases.map { _ in Counter() } }

    /// Fetches finished, failed or not.
    public var fetches: Int { fetchCount.load(ordering: .relaxed) }
    /// Of them, 304s.
    public var notModified: Int { unchangedCount.load(ordering: .relaxed) }
    public func errors(_ kind: FetchError.Kind) -> Int { errorCounts[kind.rawValue].value.load(ordering: .relaxed) }
    /// The last fetch's duration, failed or not, in milliseconds.
    public var lastDurationMilliseconds: Int { lastMilliseconds.load(ordering: .relaxed) }

    func record(_ outcome: Result<FetchedFeed, FetchError>, took: Duration) {
        // One writer (the fetch thread): a load and an add make the store the Embedded stand-in lacks.
        let ms = Int(took.nanoseconds / 1_000_000)
        lastMilliseconds.add(ms - lastMilliseconds.load(ordering: .relaxed), ordering: .relaxed)
        switch outcome {
        case .success(let feed): if feed.body == .notModified { unchangedCount.add(1, ordering: .relaxed) }
        case .failure(let error): errorCounts[error.kind.rawValue].value.add(1, ordering: .relaxed)
        }
        fetchCount.add(1, ordering: .relaxed)
    }
}

/// A thread that fetches every source every `every`, one after the other, and hands each outcome
/// to the loop through `handover`. The caller never waits on the network: `start` and `stop`
/// return at once; a fetch under way when stopped ends within its timeout, and its result is
/// dropped. Letting go of the fetcher stops it.
public final class FeedFetcher: Sendable {
    private let shared: FetchShared
    private let worker: WorkerThread
    private let started = Atomic<Int>(0)

    public var sources: [FeedSource] { shared.sources }
    public var handover: FeedHandover { shared.handover }
    public var counters: FetchCounters { shared.counters }

    public init(sources: [FeedSource], every: Duration, options: FetchOptions) throws(SyscallError) {
        shared = try FetchShared(sources: sources, every: every, options: options)
        do { worker = try WorkerThread(name: "feeds") } catch {
            shared.finish()
            throw error
        }
    }

    deinit {
        stop()
        if started.load(ordering: .acquiring) == 0 { shared.finish() }
    }

    public func start() {
        guard started.load(ordering: .acquiring) == 0 else { return }
        started.add(1, ordering: .releasing)
        let shared = self.shared
        do { try worker.submit { FetchLoop.run(shared) } } catch {
            // Only a closed worker refuses, and only `stopAndWait` closes it.
            shared.finish()
        }
    }

    /// Tells the thread to end after the fetch under way; returns at once.
    public func stop() { shared.stop() }

    /// Waits for the thread to end (tests, a command that fetched once): at most one fetch's timeout.
    public func stopAndWait() {
        stop()
        worker.close()
    }
}

/// What the fetcher and its thread share; the thread keeps it alive until it returns.
final class FetchShared: Sendable {
    let sources: [FeedSource]
    let every: Duration
    let options: FetchOptions
    let handover = FeedHandover()
    let counters = FetchCounters()
    private let wake: EventFD
    private let stopping = Atomic<Int>(0)
    private let closed = Mutex(false)

    init(sources: [FeedSource], every: Duration, options: FetchOptions) throws(SyscallError) {
        self.sources = sources
        self.every = every
        self.options = options
        wake = try EventFD(name: "feed fetcher wake-up")
    }

    var isStopping: Bool { stopping.load(ordering: .acquiring) != 0 }

    func stop() {
        closed.withLock { (done: inout Bool) in
            guard !done, stopping.load(ordering: .acquiring) == 0 else { return }
            stopping.add(1, ordering: .releasing)
            _ = try? wake.signal()
        }
    }

    /// Sleeps until `deadline` or `stop`; false once stopping.
    func sleep(until deadline: MonotonicInstant) -> Bool {
        while !isStopping {
            let ms = Poll.timeoutMilliseconds(until: deadline, now: .now())
            if ms == 0 { return true }
            _ = try? wake.descriptor.waitUntilReadable(timeoutMilliseconds: ms)
        }
        return false
    }

    /// Closes the wake-up descriptor once, under the lock `stop` signals it under.
    func finish() {
        closed.withLock { (done: inout Bool) in
            guard !done else { return }
            done = true
            wake.close()
        }
    }
}

/// The fetch thread's life: each source's next time and validators, kept on its own stack.
enum FetchLoop {
    static func run(_ shared: FetchShared) {
        let sources = shared.sources
        var due = [MonotonicInstant](repeating: .now(), count: sources.count)
        var validators = [Validators](repeating: Validators(), count: sources.count)
        defer { shared.finish() }
        while !shared.isStopping {
            for i in sources.indices where due[i] <= .now() {
                if shared.isStopping { return }
                let started = MonotonicInstant.now()
                let outcome: Result<FetchedFeed, FetchError>
                do throws(FetchError) {
                    let feed = try FeedClient.fetch(sources[i].url, options: shared.options, validators: validators[i])
                    validators[i] = feed.validators
                    outcome = .success(feed)
                } catch {
                    outcome = .failure(error)
                }
                let took = started.duration(to: .now())
                shared.counters.record(outcome, took: took)
                if shared.isStopping { return }
                shared.handover.post(FeedResult(source: i, outcome: outcome, duration: took, finishedAt: WallClock.now()))
                // Counted from the start, so a feed is fetched every `every` whatever a fetch takes;
                // one that overran its turn waits a whole period rather than going again at once.
                var next = started.advanced(by: shared.every)
                if next <= .now() { next = MonotonicInstant.now().advanced(by: shared.every) }
                due[i] = next
            }
            guard let soonest = due.min(), shared.sleep(until: soonest) else { return }
        }
    }
}
