import Config
import DisplayCore
import Outputs
import Positioning
import Raster
import Scene
import Syscall
import Systemd

/// Displays that come and go while the daemon runs. A uevent for the driven card makes it look at
/// its connector again (cheaply: the kernel has probed it already). Unplugged, the display is
/// held but not drawn on — said once, STATUS and the metrics saying `disconnected`, the watchdog
/// still fed; plugged in again, its mode is set again and the whole frame drawn, or, when the
/// monitor there now lacks that mode, it is opened anew (the mode chosen as at start, and said).
/// A failed link gets its mode set again. Any DRM uevent while no display is driven is a chance
/// that one came. Lost uevents (an overflowing socket) count as a change of everything. While
/// the screen is off for the night nothing is acted on: monitors drop hot-plug detect in standby,
/// and lighting the screen is the schedule's to do; the connector is looked at when it ends.
extension RunDaemon {
    func hotplugEvents(now: MonotonicInstant) {
        guard let hotplug = environment.hotplug else { return }
        let received = hotplug.take()
        guard !received.isEmpty, !blanking.blanked else { return }
        guard let d = display.driven ?? display.parked else {
            reconnect(now: now)
            return
        }
        guard let device = d.display.hotplug?.hotplugDevice else { return }
        let concerned = received.contains {
            if case .event(let e) = $0 { return e.concerns(device: device) }
            return true
        }
        guard concerned else { return }
        if display.isDisconnected { reconnect(now: now) } else { recheck(d, now: now) }
    }

    /// The driven display's connector, looked at again.
    func recheck(_ d: DrivenDisplay, now: MonotonicInstant) {
        guard let check = connectorCheck(d, now: now) else { return }
        switch check {
        case .connected:
            break
        case .disconnected:
            display.disconnect("\(d.displayName) disconnected", retryAt: now.advanced(by: Self.unpluggedLook))
            log.warning("display \(d.displayName) disconnected: frames stop until it is plugged in again", topic: "display")
            sendStatus()
        case .modesetAgain:
            log.notice("display \(d.displayName): link-status BAD, the mode was set again")
            presentWhole(d, now: now)
        case .modeGone:
            reopen(d, now: now)
        }
    }

    /// How often an unplugged connector is looked at without a uevent, in case one was lost.
    static var unpluggedLook: Duration { .seconds(2) }

    /// A display may have been plugged in: the held one looked at, or one opened.
    func reconnect(now: MonotonicInstant) {
        guard let d = display.parked else {
            open(now: now)
            return
        }
        guard let check = connectorCheck(d, now: now) else { return }
        switch check {
        case .disconnected:
            display.disconnect("\(d.displayName) disconnected", retryAt: now.advanced(by: Self.unpluggedLook))
        case .connected, .modesetAgain:
            display.drive(d)
            log.clear(topic: "display")
            log.notice("display \(d.displayName) connected again: the mode set again, the whole frame drawn")
            presentWhole(d, now: now)
            sendStatus()
        case .modeGone:
            reopen(d, now: now)
        }
    }

    /// The display's connector looked at; nil when that failed (the display is lost, said).
    private func connectorCheck(_ d: DrivenDisplay, now: MonotonicInstant) -> ConnectorCheck? {
        do {
            return try d.display.hotplug?.recheckConnector() ?? .connected
        } catch {
            lose("\(error)", now: now)
            return nil
        }
    }

    /// Another monitor without the mode driven: the display is opened anew.
    private func reopen(_ d: DrivenDisplay, now: MonotonicInstant) {
        log.notice("display \(d.displayName): the monitor there now does not offer \(d.display.modeDescription); opening it again")
        display.lose("another monitor", retryAt: now)
        open(now: now)
    }

    /// Opens the configured display; one that does not offer the configured mode (another monitor
    /// than the one unplugged) is driven in its own, as `mode = auto` would at start, and that is
    /// said.
    private func open(now: MonotonicInstant) {
        guard let why = tryDisplay(now: now), let wanted = settings.display.mode, why.contains("is not offered") else { return }
        var own = settings.display
        own.mode = nil
        if tryDisplay(now: now, with: own) == nil, let d = display.driven {
            log.notice("the display plugged in does not offer mode \(wanted): driving it in its own, \(d.display.modeDescription)")
        }
    }

    /// Draws and shows the whole frame (after a modeset, a reconnect, the night); false when the
    /// display failed and was lost.
    @discardableResult
    func presentWhole(_ d: DrivenDisplay, now: MonotonicInstant) -> Bool {
        let whole = DamageRegion(Rect(x: 0, y: 0, width: d.canvasWidth, height: d.canvasHeight))
        _ = d.view.draw(at: now.seconds)
        do {
            try d.present(whole, frame: d.view.last.stamp(sinceStart: started.duration(to: now).seconds, monotonic: now.seconds))
            return true
        } catch {
            lose("\(error)", now: now)
            return false
        }
    }
}
