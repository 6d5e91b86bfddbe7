import Syscall

/// The resolver the client uses unless given another: getaddrinfo runs on a worker thread
/// (`WorkerThread.shared()` unless one is passed in), and the answer comes back through a result
/// queue whose eventfd is `descriptor`. The worker and the queue are made on the first lookup.
public final class WorkerResolver: HostResolver {
    private let givenWorker: WorkerThread?
    private var answers: ResultQueue<ResolveAnswer>?

    public init(worker: WorkerThread? = nil) {
        givenWorker = worker
    }

    public var descriptor: Int32? { answers?.descriptor.rawValue }

    public func startLookup(host: String, port: UInt16) throws(ResolveError) {
        let answers: ResultQueue<ResolveAnswer>
        let worker: WorkerThread
        do throws(SyscallError) {
            if let made = self.answers {
                answers = made
            } else {
                answers = try ResultQueue(name: "gpsd resolver")
                self.answers = answers
            }
            if let givenWorker { worker = givenWorker } else { worker = try WorkerThread.shared() }
        } catch {
            throw ResolveError(host: host, message: "cannot look it up off the poll loop: \(error)")
        }
        do throws(WorkerThread.Closed) {
            try worker.submit({ Result { () throws(ResolveError) in try SocketAddress.resolve(host: host, port: port) } },
                              replyingTo: answers)
        } catch {
            throw ResolveError(host: host, message: "\(error)")
        }
    }

    public func takeAnswers() -> [ResolveAnswer] { answers?.takeResults() ?? [] }
}
