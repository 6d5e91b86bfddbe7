import Glibc
import Syscall

/// The two clocks a fetch runs against: the whole fetch's timeout, and the no-progress timeout
/// that restarts with every byte received (a server that stopped talking is given up long before
/// the whole timeout; one that trickles is cut off by the whole timeout).
struct Deadline {
    let started: MonotonicInstant
    let whole: Duration
    let stall: Duration
    private(set) var lastProgress: MonotonicInstant

    init(whole: Duration, stall: Duration, now: MonotonicInstant = .now()) {
        started = now
        self.whole = whole
        self.stall = min(stall, whole)
        lastProgress = now
    }

    mutating func progressed() { lastProgress = .now() }

    /// Waits until `fd` is ready for `events` (POLLIN or POLLOUT), or throws the timeout that ran
    /// out first, naming what was being waited for.
    func wait(_ fd: FileDescriptor, for events: Int16, doing: String, url: String) throws(FetchError) {
        while true {
            let now = MonotonicInstant.now()
            let end = started.advanced(by: whole), quiet = lastProgress.advanced(by: stall)
            if now >= end { throw FetchError(.timeout, url: url, "timed out after \(seconds(whole)) s (\(doing))") }
            if now >= quiet { throw FetchError(.timeout, url: url, "no progress for \(seconds(stall)) s (\(doing))") }
            var one = [pollfd(fd: fd.rawValue, events: events, revents: 0)]
            let ms = Poll.timeoutMilliseconds(until: min(end, quiet), now: now)
            let ready: Int
            do { ready = try Poll.wait(&one, timeoutMilliseconds: ms) } catch {
                throw FetchError(.connect, url: url, error.description)
            }
            // An error or hang-up is ready too: the call that follows reports it with its errno.
            if ready > 0 { return }
        }
    }
}

/// A duration as people write it in a message: "10", "0.5".
func seconds(_ d: Duration) -> String {
    let ms = d.nanoseconds / 1_000_000
    return ms % 1000 == 0 ? "\(ms / 1000)" : "\(Double(ms) / 1000)"
}
