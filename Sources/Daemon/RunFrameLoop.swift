import DisplayCore
import Loop
import Outputs
import Positioning
import Raster
import Scene
import Syscall
import Systemd

/// What `run` plugs into the frame loop: the display as its lifecycle holds it (not drawn while
/// blanked, not looked for either: that would light the screen), the source, hot-plug, systemd's
/// watchdog, metrics, the summary, brightness, the transit trip, and the view's frame stamped with
/// the truth it showed.
extension RunDaemon: FrameLoopClient {
    public var loopDisplay: (any Display)? { display.driven?.display }
    public var drawsFrames: Bool { display.driven != nil && !blanking.blanked }
    public var displayRetryAt: MonotonicInstant? { blanking.blanked ? nil : display.retryAt }
    public var sourceDescriptor: Int32 { source.descriptor }
    public var sourceEvents: Int16 { source.pollEvents }
    public var hotplugDescriptor: Int32? { environment.hotplug?.descriptor }

    public func nextDeadline() -> MonotonicInstant? {
        var next = Poll.earliest(source.deadline, counters.nextSummary)
        // A withheld ping's deadline is past: folded in, it would only spin the loop.
        if let watchdog, !watchdogWithheld { next = Poll.earliest(next, watchdog.nextDue) }
        for component in components { next = Poll.earliest(next, component.deadline) }
        return next
    }

    public func displayEventsHandled(now: MonotonicInstant) throws(DisplayFailure) {
        counters.displayEventsTook(now.duration(to: waiting.now()).nanoseconds)
    }

    public func woke(_ wakeup: Wakeup, now: MonotonicInstant) {
        if wakeup.hotplugReady { hotplugEvents(now: now) }
        if wakeup.sourceEvents != 0 { source.handle(revents: wakeup.sourceEvents, now: now) }
        source.tick(now: now)
        for component in components { component.woke(now: now) }
    }

    public func drawFrame(now: MonotonicInstant) -> FrameLoop.Frame {
        let d = display.driven!
        kioskFrame(now: now.seconds)
        let damage = d.draw(at: now.seconds)
        if d.view.hasNotes { for note in d.view.takeNotes() { log.warning(note) } }
        var stamp = d.view.last.stamp(sinceStart: started.duration(to: now).seconds, monotonic: now.seconds)
        stamp.transit = transit.stamp
        stamp.kiosk = kiosk.stamp
        return FrameLoop.Frame(damage: damage, stamp: stamp)
    }

    /// Measures the frame and acts on a change of the truth.
    public func framePresented(drawnAt now: MonotonicInstant, end: MonotonicInstant) {
        guard let d = display.driven else { return }
        if snapshotRequested { writeSnapshot(d, now: now) }
        counters.frameDone(took: now.duration(to: end).nanoseconds, at: end)
        if d.view.last.phase != shownPhase { phaseChanged(to: d.view.last.phase, now: now) }
        if let max = options.maxFrames, counters.frames >= max {
            log.info("\(counters.frames) frames drawn (--frames): stopping")
            running = false
        }
    }

    public func displayFailed(_ failure: DisplayFailure, now: MonotonicInstant) { lose("\(failure)", now: now) }

    public func turnDone(now: MonotonicInstant) {
        presentation.observe(display.driven?.display, now: waiting.now(), counters: counters)
        metricsDue(now: now)
    }

    public func retryDisplay(now: MonotonicInstant) {
        if display.isDisconnected { reconnect(now: now) } else { tryDisplay(now: now) }
    }

    public func turnEnded(now: MonotonicInstant) {
        for component in components { component.turnEnded(now: now) }
        if let due = counters.nextSummary, now >= due { summary(now: now) }
        pingWatchdog(now: now)
    }
}
