import Glibc
import Loop
import Syscall

/// The daemon's waiting: one `poll` over the signalfd, the frame timerfd, the display's and the
/// source's descriptors and the uevent socket, with the earliest deadline as its timeout. The descriptor array is
/// edited in place each time, so waiting allocates nothing (signals aside).
public final class PollWaiting: LoopWaiting {
    private let signals: SignalDescriptor
    private var timer: FrameTimer?
    private var descriptors: [pollfd]

    /// `signals` must already block the handled signals (before any thread exists).
    public init(signals: SignalDescriptor) {
        self.signals = signals
        descriptors = [pollfd](repeating: pollfd(fd: -1, events: Int16(POLLIN), revents: 0), count: 5)
    }

    public func now() -> MonotonicInstant { .now() }

    public func setFrameRate(_ fps: Double) throws(SyscallError) {
        let new = try FrameTimer(rate: fps)
        timer?.close()
        timer = new
    }

    public func wait(frames: Bool, display: Int32?, source: Int32, sourceEvents: Int16, hotplug: Int32?,
                     deadline: MonotonicInstant?) throws(SyscallError) -> Wakeup {
        descriptors[0].fd = signals.descriptor.rawValue
        // While nothing is drawn the timer is not polled: its expirations pile up harmlessly and
        // are read as one.
        descriptors[1].fd = frames ? (timer?.descriptor.rawValue ?? -1) : -1
        descriptors[2].fd = display ?? -1
        descriptors[3].fd = source
        descriptors[3].events = sourceEvents
        descriptors[4].fd = hotplug ?? -1
        for i in 0..<5 { descriptors[i].revents = 0 }
        _ = try Poll.wait(&descriptors, timeoutMilliseconds: Poll.timeoutMilliseconds(until: deadline, now: .now()))
        var wakeup = Wakeup()
        if descriptors[0].revents != 0 {
            while let signal = try signals.next() { wakeup.signals.append(signal) }
        }
        if descriptors[1].revents != 0, let timer { wakeup.frameDue = try timer.expirations() > 0 }
        wakeup.displayReady = descriptors[2].revents != 0
        wakeup.sourceEvents = descriptors[3].revents
        wakeup.hotplugReady = descriptors[4].revents != 0
        return wakeup
    }

    public func close() {
        timer?.close()
        timer = nil
    }
}
