import Synchronization

/// The process's one worker thread for slow work, started by whoever needs it first.
private let sharedWorker = Mutex<WorkerThread?>(nil)

extension WorkerThread {
    /// The process-wide worker: started on the first call, the same one after (a failed start is
    /// tried again on the next call). It is never closed, because a job that hangs (a DNS lookup
    /// with no answer) must not hold up the exit or a reload; it ends with the process.
    public static func shared() throws(SyscallError) -> WorkerThread {
        try sharedWorker.withLock { (worker: inout WorkerThread?) throws(SyscallError) -> WorkerThread in
            if let worker { return worker }
            let started = try WorkerThread(name: "pulsedot worker")
            worker = started
            return started
        }
    }
}
