import Syscall

/// What every output that scans out of buffers of its own keeps about them, in one place: one
/// presentation in flight at a time (a page flip, an atomic commit, a pan waiting for its vblank),
/// frames whose damage waits behind it, refusals, the frames that really reached the screen and
/// the time spent waiting for them, and the bounded wait for the last one when the output closes.
/// Legacy KMS, atomic KMS and fbdev keep it; the metrics file exports its counters.
public struct ScanoutQueue: Sendable {
    public struct Statistics: Equatable, Sendable {
        /// Frames handed over (`present` calls).
        public var presents = 0
        /// Presentations queued to the controller: page flips, atomic commits, pans.
        public var queued = 0
        /// Frames whose damage waited because the presentation before was still in flight.
        public var deferred = 0
        /// Presentations the driver refused with EBUSY (the damage kept for the next frame).
        public var busy = 0
        /// Scan-out pixels written after the first whole frame.
        public var pixelsCopied = 0

        public init() {}
    }

    public private(set) var statistics = Statistics()
    public private(set) var presentation = PresentationCount()
    /// When the presentation in flight was queued; nil when none is.
    public private(set) var inFlightSince: MonotonicInstant?

    /// How long closing (or a modeset) waits for the presentation in flight: a SIGTERM must end
    /// the process within a second even on a panel that stopped completing flips.
    public static let finishLimit: Duration = .milliseconds(100)

    public init() {}

    public var inFlight: Bool { inFlightSince != nil }

    /// A frame handed over. False while a presentation is in flight: the frame's damage waits
    /// (kept by the caller) and is counted as deferred.
    public mutating func begin() -> Bool {
        statistics.presents += 1
        if inFlight {
            statistics.deferred += 1
            return false
        }
        return true
    }

    /// A frame handed over to an output that decides itself whether it waits (`deferFrame`).
    public mutating func handedOver() { statistics.presents += 1 }

    /// A frame that waits for a reason of the output's own (a vblank not yet passed).
    public mutating func deferFrame() { statistics.deferred += 1 }

    public mutating func copied(_ pixels: Int) { statistics.pixelsCopied += pixels }

    public mutating func refusedBusy() { statistics.busy += 1 }

    /// A presentation queued at `now`; it is in flight until `completed`.
    public mutating func queued(at now: MonotonicInstant) {
        statistics.queued += 1
        inFlightSince = now
    }

    /// A presentation queued that sends no completion event (a pan: the output waits for the
    /// vblank itself, or takes the pan as shown).
    public mutating func queuedWithoutEvent() { statistics.queued += 1 }

    /// A frame on the screen as soon as it was written (no event to wait for).
    public mutating func shown() { presentation.presented += 1 }

    /// Time waited for the screen outside a queued presentation (a vblank wait).
    public mutating func waited(_ nanoseconds: Int64) { presentation.add(waited: nanoseconds) }

    /// `count` completion events read at `now`: what was in flight is on the screen.
    public mutating func completed(_ count: Int, at now: MonotonicInstant) {
        guard count > 0 else { return }
        if let since = inFlightSince { presentation.add(waited: since.duration(to: now).nanoseconds) }
        presentation.presented &+= UInt64(count)
        inFlightSince = nil
    }

    /// What was in flight will not be waited for any more (it may never complete).
    public mutating func abandon() { inFlightSince = nil }

    /// How `finish` ended.
    public enum Finish: Equatable, Sendable {
        case done
        case timedOut
        case failed(SyscallError)
    }

    /// Waits for the presentation in flight, `finishLimit` at most on `clock` (a signal or a stray
    /// event ends one wait early, so the bound is on the clock): `waitAndRead` waits up to the
    /// given milliseconds for the device's events and reads them, which ends the flight. Static
    /// so that reading the events may update the output's queue while this waits.
    public static func finish(clock: () -> MonotonicInstant, inFlight: () -> Bool,
                              waitAndRead: (Int32) throws(SyscallError) -> Void) -> Finish {
        let deadline = clock().advanced(by: finishLimit)
        while inFlight() {
            let timeout = Poll.timeoutMilliseconds(until: deadline, now: clock())
            if timeout == 0 { return .timedOut }
            do { try waitAndRead(timeout) } catch { return .failed(error) }
        }
        return .done
    }
}
