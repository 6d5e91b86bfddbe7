import DisplayCore
import Raster
import Syscall

/// What `run`, `show` and `bench` plug into the one frame loop: the display frames go to and whether
/// they are drawn now, what else the loop waits for (the position source, hot-plug uevents,
/// deadlines), the signals, the frame drawn, what follows a presented frame, and the display
/// lost and looked for again. `show` plugs in a fixed dot and its clock; `run` fixes, reloads,
/// blanking, metrics and systemd.
public protocol FrameLoopClient: AnyObject {
    /// False once the loop is to end (a termination signal, `--frames`, a failure).
    var running: Bool { get }
    /// The display whose events are read; nil: none held.
    var loopDisplay: (any Display)? { get }
    /// Whether the frame timer drives frames to `loopDisplay` now (not while the screen is off).
    var drawsFrames: Bool { get }
    /// When to look for the display again (open it, look at its connector); nil: not waiting.
    var displayRetryAt: MonotonicInstant? { get }
    /// The position source's descriptor and the events it waits for; -1: none.
    var sourceDescriptor: Int32 { get }
    var sourceEvents: Int16 { get }
    var hotplugDescriptor: Int32? { get }
    /// The client's own deadlines (the display's retry aside).
    func nextDeadline() -> MonotonicInstant?
    func handle(signal: Int32, now: MonotonicInstant)
    /// The display's events were handled without failing.
    func displayEventsHandled(now: MonotonicInstant) throws(DisplayFailure)
    /// After the signals and the display's events, before the frame: the source, hot-plug.
    func woke(_ wakeup: Wakeup, now: MonotonicInstant)
    /// Draws the frame of `now` into `loopDisplay`'s canvas: its damage and stamp.
    func drawFrame(now: MonotonicInstant) -> FrameLoop.Frame
    /// The frame drawn at `now` was handed to the display by `end`.
    func framePresented(drawnAt now: MonotonicInstant, end: MonotonicInstant)
    /// The display failed (drawing, events): it is let go and looked for again, or given up.
    func displayFailed(_ failure: DisplayFailure, now: MonotonicInstant)
    /// After the frame, each turn: what settled, what is due.
    func turnDone(now: MonotonicInstant)
    /// `displayRetryAt` has come.
    func retryDisplay(now: MonotonicInstant)
    /// Last in each turn.
    func turnEnded(now: MonotonicInstant)
}

/// The one frame loop of `run`, `show` and `bench`: one wait over the frame timer, the display's events,
/// the source, hot-plug, signals and deadlines, then the display's events handled, the frame
/// drawn and presented, a failed display let go and looked for again at its retry time.
public final class FrameLoop {
    /// A drawn frame: what changed in the canvas, and what the frame record says of it.
    public struct Frame {
        public var damage: DamageRegion
        public var stamp: FrameStamp

        public init(damage: DamageRegion, stamp: FrameStamp) {
            self.damage = damage
            self.stamp = stamp
        }
    }

    public let waiting: any LoopWaiting

    public init(waiting: any LoopWaiting) { self.waiting = waiting }

    /// Turns until the client stops running; throws when waiting itself fails (poll, signals, timer).
    public func run(_ client: some FrameLoopClient) throws(SyscallError) {
        while client.running {
            let held = client.loopDisplay
            let wakeup = try waiting.wait(frames: held != nil && client.drawsFrames, display: held?.pollDescriptor,
                                          source: client.sourceDescriptor, sourceEvents: client.sourceEvents,
                                          hotplug: client.hotplugDescriptor,
                                          deadline: Poll.earliest(client.nextDeadline(), client.displayRetryAt))
            let now = waiting.now()
            for signal in wakeup.signals { client.handle(signal: signal, now: now) }
            if wakeup.displayReady, let display = client.loopDisplay {
                do throws(DisplayFailure) {
                    try display.handleEvents()
                    try client.displayEventsHandled(now: now)
                } catch {
                    client.displayFailed(error, now: now)
                }
            }
            client.woke(wakeup, now: now)
            if wakeup.frameDue, client.drawsFrames, let display = client.loopDisplay { frame(display, client) }
            client.turnDone(now: now)
            if let retryAt = client.displayRetryAt, now >= retryAt { client.retryDisplay(now: now) }
            client.turnEnded(now: now)
        }
    }

    private func frame(_ display: any Display, _ client: some FrameLoopClient) {
        // What the frame shows is of the moment it is drawn, after the source had its turn.
        let now = waiting.now()
        let frame = client.drawFrame(now: now)
        do throws(DisplayFailure) {
            display.recorder?.stamp(frame.stamp)
            try display.present(damage: frame.damage)
        } catch {
            client.displayFailed(error, now: now)
            return
        }
        client.framePresented(drawnAt: now, end: waiting.now())
    }
}
