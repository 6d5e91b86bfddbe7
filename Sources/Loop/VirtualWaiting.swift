import Syscall

/// The loop's waiting on virtual time, the way swift-nio's EmbeddedEventLoop advances time: a
/// wait jumps the clock to the earliest of the next frame tick, the loop's deadline and the next
/// scripted action, runs the actions that are due, and reports what woke the loop. Nothing sleeps:
/// the loop tests script a day in seconds, and `pulsedot bench` counts a frame's instructions and
/// nothing of the wait.
public final class VirtualWaiting: LoopWaiting {
    public private(set) var current = MonotonicInstant(nanoseconds: 1_000_000_000_000)
    public let start: MonotonicInstant
    private var period: Int64 = 0
    private var nextTick: MonotonicInstant?
    /// Ticks stop (a frozen timer or frame path) while false.
    public var ticking = true
    private var script: [(at: MonotonicInstant, action: () -> Void)] = []
    private var signals: [(at: MonotonicInstant, signal: Int32)] = []
    private var pendingSignals: [Int32] = []
    private var displayReadyAt: [MonotonicInstant] = []
    /// The loop is stopped with SIGTERM when virtual time reaches this, so no test runs forever.
    public var limit: Double = 600
    public private(set) var waits = 0
    public private(set) var closed = false
    /// Called as each wait begins, at the time the loop's last iteration ran.
    public var onWait: (() -> Void)?

    public init() { start = current }

    /// Seconds of virtual time since the test began.
    public var elapsed: Double { start.duration(to: current).seconds }

    public func instant(_ seconds: Double) -> MonotonicInstant { start.advanced(by: .nanoseconds(Int64((seconds * 1e9).rounded()))) }

    /// Runs `action` when virtual time reaches `seconds`.
    public func at(_ seconds: Double, _ action: @escaping () -> Void) {
        script.append((instant(seconds), action))
        script.sort { $0.at < $1.at }
    }

    /// Delivers `signal` when virtual time reaches `seconds`.
    public func signal(_ signal: Int32, at seconds: Double) {
        signals.append((instant(seconds), signal))
        signals.sort { $0.at < $1.at }
    }

    public func now() -> MonotonicInstant { current }

    /// Moves the clock on by `seconds` from inside the loop (time a frame's work takes).
    public func spend(_ seconds: Double) { current = current.advanced(by: .nanoseconds(Int64((seconds * 1e9).rounded()))) }

    public func setFrameRate(_ fps: Double) throws(SyscallError) {
        period = Int64((1e9 / fps).rounded())
        nextTick = current.advanced(by: .nanoseconds(period))
    }

    /// Uevents are waiting (a scripted action sets it; the wait that reports them clears it).
    public var hotplugPending = false

    public func wait(frames: Bool, display: Int32?, source: Int32, sourceEvents: Int16, hotplug: Int32?,
              deadline: MonotonicInstant?) throws(SyscallError) -> Wakeup {
        waits += 1
        onWait?()
        if pendingSignals.isEmpty {
            var target = instant(limit)
            if frames, ticking, let nextTick { target = min(target, nextTick) }
            if let deadline { target = min(target, max(deadline, current)) }
            if let first = script.first { target = min(target, max(first.at, current)) }
            if let first = signals.first { target = min(target, max(first.at, current)) }
            current = max(current, target)
            while let first = script.first, first.at <= current {
                script.removeFirst()
                first.action()
            }
            while let first = signals.first, first.at <= current {
                signals.removeFirst()
                pendingSignals.append(first.signal)
            }
            if current >= instant(limit) { pendingSignals.append(15) }
        }
        var wakeup = Wakeup(signals: pendingSignals)
        pendingSignals = []
        if hotplugPending, hotplug != nil {
            wakeup.hotplugReady = true
            hotplugPending = false
        }
        // A frozen timer (ticking false) keeps its tick pending while frames are wanted.
        if let tick = nextTick, current >= tick, !frames || ticking {
            // Missed ticks are read as one, like a timerfd's expiration count; unpolled ones pile up.
            wakeup.frameDue = frames
            var next = tick
            while next <= current { next = next.advanced(by: .nanoseconds(period)) }
            nextTick = next
        }
        return wakeup
    }

    public func close() { closed = true }
}
