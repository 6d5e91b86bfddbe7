import Glibc
import Synchronization

/// Outputs of background jobs on their way back to the poll loop: any thread `post`s, the loop
/// polls `descriptor` for POLLIN and calls `takeResults` when it is readable. The lock is held
/// only to append or to swap the list out, never while the loop works on what it took.
public final class ResultQueue<Output: Sendable>: Sendable {
    private struct Pending {
        var outputs: [Output] = []
        var closed = false
    }

    private let events: EventFD
    private let pending = Mutex(Pending())

    public init(name: String = "results") throws(SyscallError) {
        events = try EventFD(name: name)
    }

    deinit { close() }

    /// Readable while results are waiting (now and then also just after they were taken: the
    /// loop then finds none, which is harmless).
    public var descriptor: FileDescriptor { events.descriptor }

    /// Hands `output` to the loop; from any thread. After `close`, it is dropped.
    public func post(_ output: sending Output) {
        pending.withLock { (p: inout Pending) in
            guard !p.closed else { return }
            p.outputs.append(output)
            // Under the lock, so `close` cannot close the descriptor between the check and the
            // write (its number could already belong to another file).
            do throws(SyscallError) {
                try events.signal()
            } catch {
                preconditionFailure("result queue \(events.descriptor.name): \(error)")
            }
        }
    }

    /// Everything posted since the last call, oldest first; never blocks.
    public func takeResults() -> [Output] {
        // Drained first: a result posted after the swap below signals again, so none is left
        // waiting without the descriptor readable. The drain fails only after `close`, and the
        // results live in the list, not in the counter.
        _ = try? events.drain()
        return pending.withLock { (p: inout Pending) -> [Output] in
            defer { p.outputs = [] }
            return p.outputs
        }
    }

    /// Moves everything posted since the last call into `results` (emptied first), keeping both
    /// lists' storage: for a caller that takes a result every frame and must not allocate.
    public func takeResults(into results: inout [Output]) {
        _ = try? events.drain()
        results.removeAll(keepingCapacity: true)
        pending.withLock { (p: inout Pending) in
            results.append(contentsOf: p.outputs)
            p.outputs.removeAll(keepingCapacity: true)
        }
    }

    /// Closes the descriptor; later posts are dropped. A job still running may post safely.
    public func close() {
        pending.withLock { (p: inout Pending) in
            guard !p.closed else { return }
            p.closed = true
            p.outputs = []
            events.close()
        }
    }
}
