import Config
import Display
import Outputs
import Raster
import Syscall

/// Displays that come and go while the daemon runs. A uevent for the driven card makes it look at
/// its connector again (cheaply: the kernel has probed it already): unplugged, the display is let
/// go and waited for, said once, with STATUS and the metrics saying `disconnected` and the watchdog
/// still fed; a failed link gets its mode set again. Any DRM uevent while no display is driven is
/// a chance that one came: it is tried at once (the mode chosen as at start). Lost uevents
/// (an overflowing socket) count as a change of everything. While the screen is off for the
/// night nothing is acted on: monitors drop hot-plug detect in standby, and lighting the screen
/// is the schedule's to do; the connector is looked at again when it ends.
extension RunDaemon {
    func hotplugEvents(now: MonotonicInstant) {
        guard let hotplug = environment.hotplug else { return }
        let received = hotplug.take()
        guard !received.isEmpty, !blanking.blanked else { return }
        if let d = display.driven {
            guard let device = d.display.hotplugDevice else { return }
            let concerned = received.contains {
                if case .event(let e) = $0 { return e.concerns(device: device) }
                return true
            }
            if concerned { recheck(d, now: now) }
        } else {
            reconnect(now: now)
        }
    }

    /// A display may have been plugged in. One that does not offer the configured mode (another
    /// monitor than the one unplugged) is driven in its own mode, as `mode = auto` would at start,
    /// and that is said.
    func reconnect(now: MonotonicInstant) {
        guard let why = tryDisplay(now: now), let wanted = settings.display.mode, why.contains("is not offered") else { return }
        var own = settings.display
        own.mode = nil
        if tryDisplay(now: now, with: own) == nil, let d = display.driven {
            log.notice("the display plugged in does not offer mode \(wanted): driving it in its own, \(d.display.modeDescription)")
        }
    }

    /// The driven display's connector, looked at again.
    func recheck(_ d: DrivenDisplay, now: MonotonicInstant) {
        let check: ConnectorCheck
        do {
            check = try d.display.recheckConnector()
        } catch {
            lose("\(error)", now: now)
            return
        }
        switch check {
        case .connected:
            break
        case .disconnected:
            let name = d.displayName
            display.disconnect("\(name) disconnected", retryAt: now.advanced(by: .seconds(2)))
            log.warning("display \(name) disconnected: frames stop until it is plugged in again", topic: "display")
            sendStatus()
        case .modesetAgain:
            log.notice("display \(d.displayName): link-status BAD, the mode was set again")
            let whole = Rect(x: 0, y: 0, width: d.canvasWidth, height: d.canvasHeight)
            _ = d.view.draw(at: now.seconds)
            do {
                try d.present(whole, frame: d.view.last.stamp(sinceStart: started.duration(to: now).seconds, monotonic: now.seconds))
            } catch {
                lose("\(error)", now: now)
            }
        }
    }
}
