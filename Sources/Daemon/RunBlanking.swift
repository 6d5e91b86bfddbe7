import Config
import DisplayCore
import Location
import Loop
import Outputs
import Positioning
import Raster
import Scene
import Syscall
import Systemd

/// Night blanking in the loop: at each minute the schedule is read against the local time; the
/// screen goes off (nothing drawn, the frame timer left out of the poll, fixes still taken, the
/// watchdog fed) and comes back with the dot's entrance pop, the whole frame redrawn.
extension RunDaemon {
    func blankingDue(now: MonotonicInstant) {
        guard let due = blanking.nextCheck, now >= due else { return }
        let wall = environment.wallClock()
        let dark = blanking.settings.schedule.blanks(minuteOfDay: environment.localMinuteOfDay(wall))
        reapCommands()
        if dark != blanking.blanked { dark ? goDark(now: now) : comeBack(now: now) }
        blanking.scheduleNext(now: now, wall: wall)
    }

    private func goDark(now: MonotonicInstant) {
        blanking.blanked = true
        log.notice("night blanking (\(blanking.settings.schedule)): the screen goes off; fixes are still taken")
        if let d = display.driven { darken(d, now: now) }
        startCommand(blanking.settings.blankCommand, key: "blankCommand")
        sendStatus()
    }

    func darken(_ d: DrivenDisplay, now: MonotonicInstant) {
        do {
            switch try d.display.blanking?.blank() ?? .nothingToSwitch {
            case .poweredDown: log.info("\(d.displayName): powered down")
            case .black(let reason): log.notice(reason, topic: "blank")
            case .nothingToSwitch: break
            }
            blanking.darkDisplay = ObjectIdentifier(d.display as AnyObject)
        } catch {
            lose("\(error)", now: now)
        }
    }

    private func comeBack(now: MonotonicInstant) {
        blanking.blanked = false
        log.notice("night blanking over: the screen comes back")
        brightness.screenBack()
        startCommand(blanking.settings.unblankCommand, key: "unblankCommand")
        if let d = display.driven {
            do {
                try d.display.blanking?.unblank()
                blanking.darkDisplay = nil
            } catch {
                lose("\(error)", now: now)
                sendStatus()
                return
            }
            // Hot-plug was not listened to overnight: the monitor may be gone, or another one there.
            recheck(d, now: now)
            if let d = display.driven { reappear(d, now: now) }
        } else {
            reconnect(now: now)
        }
        sendStatus()
    }

    /// The dot comes back the way it first appeared: a new view whose last fix (if it is still
    /// live) arrives now, so the entrance pop plays; the whole frame is drawn and shown.
    private func reappear(_ d: DrivenDisplay, now: MonotonicInstant) {
        do {
            let view = try Self.sceneView(settings: settings, map: map, source: source, canvasWidth: d.canvasWidth,
                                          canvasHeight: d.canvasHeight, physicalHeight: d.physicalHeight)
            if var fix = lastFix {
                if fix.receivedAt.duration(to: now).seconds < source.staleAfter { fix.receivedAt = now }
                view.add(fix)
            }
            d.view.close()
            d.view = view
            transitRouteShown()
        } catch {
            log.warning("night blanking over: keeping the old view (\(error))")
        }
        guard presentWhole(d, now: now) else { return }
        counters.frameDone(took: now.duration(to: waiting.now()).nanoseconds, at: waiting.now())
    }

    /// After a reload: the new schedule, and a display opened for the new configuration while
    /// the screen is off goes off too.
    func blankingAfterReload(now: MonotonicInstant) {
        blanking.configure(settings.display.blanking, now: now)
        if blanking.blanked, let d = display.driven, blanking.darkDisplay != ObjectIdentifier(d.display as AnyObject) {
            darken(d, now: now)
        }
    }

    private func startCommand(_ commandLine: String?, key: String) {
        guard let commandLine else { return }
        do {
            blanking.commands.append(try ShellCommand.start(commandLine))
        } catch {
            log.warning("[display] \(key): \(error)")
        }
    }

    /// Says how the edge commands ended (a failure once, not why: their own output is in the
    /// journal), and lets go of them.
    private func reapCommands() {
        blanking.commands.removeAll { command in
            guard let end = command.finished() else { return false }
            if end != "exited with status 0" { log.warning("night blanking: '\(command.commandLine)' \(end)") }
            return true
        }
    }
}
