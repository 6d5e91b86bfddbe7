import Glibc
import Syscall

/// FBIO_WAITFORVSYNC off the loop. The ioctl has no timeout, and a driver that never signals a
/// vblank would freeze a loop that called it (the watchdog would then restart the daemon into the
/// same hang). So the wait runs on a thread of its own — never the shared worker, which a hung
/// wait would take from the name lookups — and its end comes back through a result queue the loop
/// polls. One wait at a time; a wait that overruns is abandoned with its thread, which is let go
/// without being joined.
final class VSyncWaiter {
    /// How a wait ended.
    enum Outcome: Sendable {
        case vblank
        case failed(SyscallError)
    }

    /// The device as the wait's thread uses it: only `waitForVSync`, an ioctl on the descriptor,
    /// which the kernel serialises against the loop's own calls on it.
    private final class Waiting: @unchecked Sendable {
        let device: FramebufferDevice
        init(_ device: FramebufferDevice) { self.device = device }
    }

    private let worker: WorkerThread
    private let results: ResultQueue<Outcome>
    /// The one job, made once: asking for a wait each frame allocates nothing.
    private let job: @Sendable () -> Void
    /// Taken results, its storage kept from frame to frame.
    private var taken: [Outcome] = []
    /// When the wait under way was asked for (the output's clock); nil: none.
    private(set) var outstandingSince: Int64?
    private(set) var abandoned = false

    init(device: FramebufferDevice, name: String) throws(SyscallError) {
        worker = try WorkerThread(name: "\(name) vsync")
        let results = try ResultQueue<Outcome>(name: "\(name) vsync results")
        self.results = results
        let waiting = Waiting(device)
        job = {
            do throws(SyscallError) { try waiting.device.waitForVSync() } catch {
                results.post(.failed(error))
                return
            }
            results.post(.vblank)
        }
        taken.reserveCapacity(4)
    }

    /// Readable when a wait has ended.
    var descriptor: Int32 { results.descriptor.rawValue }

    /// Asks for one wait; false when one is under way or the waiter was abandoned.
    @discardableResult
    func begin(at now: Int64) -> Bool {
        guard outstandingSince == nil, !abandoned else { return false }
        do {
            try worker.submit(job)
        } catch {
            return false
        }
        outstandingSince = now
        return true
    }

    /// The end of the wait under way, once it has come; nil while it has not (never blocks).
    func finished() -> Outcome? {
        guard outstandingSince != nil else { return nil }
        results.takeResults(into: &taken)
        guard let last = taken.last else { return nil }
        outstandingSince = nil
        return last
    }

    /// Waits on the loop's thread, at most `timeoutMilliseconds` of real time, for the wait under
    /// way: for start-up, which must know whether the driver waits before the first frame. nil:
    /// not within the time (the caller abandons the waiter).
    func awaitFinished(timeoutMilliseconds: Int32) -> Outcome? {
        let deadline = MonotonicInstant.now().advanced(by: .milliseconds(Int64(timeoutMilliseconds)))
        while outstandingSince != nil {
            if let outcome = finished() { return outcome }
            let left = Poll.timeoutMilliseconds(until: deadline, now: MonotonicInstant.now())
            if left == 0 { return nil }
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            _ = try? Poll.wait(&fds, timeoutMilliseconds: left)
        }
        return nil
    }

    /// Gives up on the wait under way and on waiting at all: its thread may never come back.
    func abandon() {
        abandoned = true
        outstandingSince = nil
    }

    /// Ends the thread: joined when it is idle, let go when a wait may still hold it.
    func close() {
        results.close()
        if outstandingSince == nil && !abandoned { worker.close() }
    }
}
