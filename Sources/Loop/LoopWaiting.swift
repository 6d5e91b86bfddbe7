import Syscall

/// What woke the loop.
public struct Wakeup: Sendable, Equatable {
    /// The frame timer ticked (at least once since the last wait).
    public var frameDue = false
    /// The display's descriptor is readable (flip events).
    public var displayReady = false
    /// The source's descriptor's returned events; 0: nothing.
    public var sourceEvents: Int16 = 0
    /// Signals that arrived, in order.
    public var signals: [Int32] = []
    /// Kernel uevents are waiting (a display plugged, unplugged or changed).
    public var hotplugReady = false

    public init(frameDue: Bool = false, displayReady: Bool = false, sourceEvents: Int16 = 0, signals: [Int32] = [],
                hotplugReady: Bool = false) {
        self.frameDue = frameDue
        self.displayReady = displayReady
        self.sourceEvents = sourceEvents
        self.signals = signals
        self.hotplugReady = hotplugReady
    }
}

/// How the loop waits: for its frame timer, the display, the source, signals and deadlines, and
/// what time it is. The daemon's is one `poll` on the monotonic clock (`PollWaiting`); tests run
/// the same loop on virtual time, where waiting is advancing the clock.
public protocol LoopWaiting: AnyObject {
    /// The current monotonic time.
    func now() -> MonotonicInstant
    /// Ticks the frame timer `fps` times a second from now.
    func setFrameRate(_ fps: Double) throws(SyscallError)
    /// Blocks until the frame timer ticks (only when `frames`), `display` is readable, `source`
    /// is ready for `sourceEvents`, `hotplug` (kernel uevents) is readable, a signal arrives, or
    /// `deadline` passes.
    func wait(frames: Bool, display: Int32?, source: Int32, sourceEvents: Int16, hotplug: Int32?,
              deadline: MonotonicInstant?) throws(SyscallError) -> Wakeup
    /// Stops the timer and lets go of descriptors.
    func close()
}
