import Glibc
import Synchronization

/// One thread for work that may take long or block (a name lookup, decoding an image), so the
/// poll loop never waits for it. Jobs run one at a time, in the order submitted; a job hands its
/// output back through a `ResultQueue`, whose eventfd the loop polls.
///
/// The thread starts with every signal blocked: the loop reads SIGTERM and SIGHUP from a signalfd,
/// and a signal delivered to this thread instead would be lost to it (or, unblocked, kill the
/// process with its default action). The price: a fault inside a job (a Swift trap, a bad
/// access) finds its signal blocked, so the kernel resets it to the default action and the
/// process dies without `FatalSignalGuard` or the Swift backtracer running.
public final class WorkerThread: Sendable {
    /// For error messages.
    public let name: String
    private let core: WorkerCore
    /// Cleared by whichever of `close` and `deinit` lets go of the thread, so it is joined or
    /// detached exactly once.
    private let thread: Mutex<pthread_t?>

    public struct Closed: Error, CustomStringConvertible, Sendable {
        public let name: String
        public var description: String { "worker thread \(name) is closed: the job was not run" }
    }

    public init(name: String = "worker") throws(SyscallError) {
        self.name = name
        let core = try WorkerCore(name: name)
        self.core = core
        var everything = sigset_t(), previous = sigset_t()
        sigfillset(&everything)
        // A new thread inherits the creating thread's mask: block all for the creation only.
        let masked = pthread_sigmask(SIG_SETMASK, &everything, &previous)
        guard masked == 0 else { throw SyscallError(call: "pthread_sigmask SIG_SETMASK", object: name, errno: masked) }
        var handle = pthread_t()
        let context = Unmanaged.passRetained(core).toOpaque()
        let status = pthread_create(&handle, nil, workerThreadEntry, context)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        guard status == 0 else {
            Unmanaged<WorkerCore>.fromOpaque(context).release()
            throw SyscallError(call: "pthread_create", object: name, errno: status)
        }
        thread = Mutex(handle)
    }

    /// Queues `job`; it runs after the jobs submitted before it. Throws once `close` has begun.
    public func submit(_ job: @escaping @Sendable () -> Void) throws(Closed) {
        guard core.enqueue(job) else { throw Closed(name: name) }
    }

    /// Queues `job` and posts what it returns to `results`, where the loop takes it.
    public func submit<Output: Sendable>(_ job: @escaping @Sendable () -> Output,
                                         replyingTo results: ResultQueue<Output>) throws(Closed) {
        try submit { results.post(job()) }
    }

    /// Whether `close` has begun: a long job may check it to give up early.
    public var isClosing: Bool { core.isClosing }

    /// Stops the thread and waits for it to end: the job under way finishes, jobs not yet started
    /// are dropped. Must not be called from one of this worker's own jobs.
    public func close() {
        core.requestClose()
        guard let handle = thread.withLock({ (held: inout pthread_t?) -> pthread_t? in
            defer { held = nil }
            return held
        }) else { return }
        precondition(pthread_equal(handle, pthread_self()) == 0, "worker thread \(name): a job cannot close its own worker")
        let status = pthread_join(handle, nil)
        precondition(status == 0, "pthread_join \(name): \(String(cString: strerror(status)))")
    }

    /// Without `close`, the thread is told to stop but not waited for: letting go of a worker
    /// must not freeze the loop behind a job that hangs. It ends on its own after that job.
    deinit {
        core.requestClose()
        if let handle = thread.withLock({ $0 }) { pthread_detach(handle) }
    }
}

/// What the worker thread and its owner share; the thread keeps it alive until it returns, so a
/// detached thread never touches freed memory.
final class WorkerCore: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        var closing = false
    }

    let name: String
    private let wake: EventFD
    private let state = Mutex(State())

    init(name: String) throws(SyscallError) {
        self.name = name
        wake = try EventFD(name: "\(name) wake-up")
    }

    deinit { wake.close() }

    var isClosing: Bool { state.withLock { $0.closing } }

    func enqueue(_ job: @escaping Job) -> Bool {
        let accepted = state.withLock { (s: inout State) -> Bool in
            guard !s.closing else { return false }
            s.jobs.append(job)
            return true
        }
        if accepted { wakeThread() }
        return accepted
    }

    func requestClose() {
        // The dropped jobs are handed out of the lock and released after it: what they captured
        // may have deinits that take locks of their own.
        let dropped = state.withLock { (s: inout State) -> [Job] in
            s.closing = true
            defer { s.jobs = [] }
            return s.jobs
        }
        wakeThread()
        _ = dropped
    }

    private enum Next {
        case run(Job)
        case wait
        case stop
    }

    /// The thread's life: take the next job, run it with no lock held, sleep while there is none.
    func run() {
        while true {
            let next = state.withLock { (s: inout State) -> Next in
                if s.closing { return .stop }
                if s.jobs.isEmpty { return .wait }
                return .run(s.jobs.removeFirst())
            }
            switch next {
            case .stop: return
            case .run(let job): job()
            case .wait: sleepUntilWoken()
            }
        }
    }

    private func sleepUntilWoken() {
        var fds = [pollfd(fd: wake.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        do throws(SyscallError) {
            _ = try Poll.wait(&fds, timeoutMilliseconds: -1)
            try wake.drain()
        } catch {
            // Only a closed or invalid descriptor fails here, which would be a bug in this file;
            // a worker that cannot wait would spin instead.
            preconditionFailure("worker thread \(name): \(error)")
        }
    }

    private func wakeThread() {
        do throws(SyscallError) {
            try wake.signal()
        } catch {
            preconditionFailure("worker thread \(name): \(error)")
        }
    }
}

/// The thread's start routine: a plain function, so it belongs to no actor (a closure written in
/// main-actor code would be main-actor isolated, and trap when this thread runs it).
private nonisolated func workerThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let core = Unmanaged<WorkerCore>.fromOpaque(context!).takeRetainedValue()
    core.run()
    return nil
}
