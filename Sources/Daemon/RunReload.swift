import Config
import GPSD
import Location
import Loop
import Outputs
import Positioning
import Scene
import Syscall
import Systemd

/// SIGHUP: read the configuration again and switch to it — or, when it is invalid (or its map or
/// replay cannot be read), say why and keep running the old one. Everything that can fail is
/// built before anything is swapped. systemd hears `RELOADING=1` first and `READY=1` after,
/// either way.
extension RunDaemon {
    func reload(now: MonotonicInstant) {
        let file = options.configPath ?? Configuration.defaultPath
        notify { n throws(SyscallError) in try n.reloading(now: now, status: "reloading \(file)") }
        log.notice("SIGHUP: reloading the configuration from \(file)")
        do throws(SetupError) {
            let new: Configuration
            do { new = try environment.loadConfiguration() } catch { throw SetupError(error) }
            let old = settings
            try switchTo(new, now: now)
            let changed = SettingsTable.changedSections(from: old, to: settings)
            let what = changed.isEmpty ? "nothing changed" : "changed: " + changed.map { "[\($0)]" }.joined(separator: " ")
            log.notice("configuration reloaded: source \(source.name), output \(outputSetting); \(what)")
        } catch {
            log.error("reload rejected, the running configuration stays: \(error)")
        }
        notify { n throws(SyscallError) in try n.ready(status: statusText()) }
    }

    func switchTo(_ loaded: Configuration, now: MonotonicInstant) throws(SetupError) {
        var new = loaded
        let newMap = try Self.openFiles(&new.settings, log: log)
        let next = new.settings
        let sourceChanged = !Self.sameSource(next.source, settings.source)
        let newSource: any PositionSource
        do { newSource = sourceChanged ? try makeSource(next.source, now: now) : source! } catch { throw SetupError(error) }
        let displayChanged = !Self.sameDisplay(next.display, settings.display)
        // Fixes from another source are not the truth any more; the same source's last fix is.
        let seed = next.source.source == settings.source.source ? lastFix : nil
        var newView: SceneView?
        var seedNote: SceneNote?
        if !displayChanged, let d = display.driven {
            do {
                newView = try Self.sceneView(settings: next, map: newMap, source: newSource, canvasWidth: d.canvasWidth,
                                             canvasHeight: d.canvasHeight, physicalHeight: d.physicalHeight)
            } catch { throw SetupError(error) }
            if let seed {
                // The same source: its dot pulses on in step, as if the new view had drawn it all along.
                newView!.continueDot(from: d.view)
                seedNote = newView!.add(seed)
            }
        }

        if next.display.fps != settings.display.fps {
            do { try waiting.setFrameRate(next.display.fps) } catch { throw SetupError(error) }
        }

        // Nothing below fails: the new configuration runs.
        self.loaded = loaded
        configuration = new
        log.level = next.log.level
        for note in new.notes { log.notice(note) }
        map = newMap
        lastFix = seed
        if let newView, let d = display.driven {
            d.view.close()
            d.view = newView
            transitRouteShown()
            announceMap(of: newView)
            // The new map may not cover where the dot is.
            if let seedNote, case .leftMap = seedNote { say(seedNote) }
        }
        // Only after the new view is in place: a source may hand over a fix as it starts (a fixed
        // position does, and only then), and that fix must reach the view that is drawn.
        if sourceChanged {
            source.stop()
            source = newSource
            source.start(now: now)
        }
        if displayChanged {
            // The same source's dot goes on in step on the reopened display's new view.
            dotCarried = seed == nil ? nil : display.driven?.view
            display.lose("reopening for the new configuration", retryAt: now)
            tryDisplay(now: now)
            dotCarried = nil
        }
        counters.startPeriod(at: now, summaryEvery: next.log.summaryEvery)
    }

    /// A map file left out may be readable now: the configuration as read is switched to again,
    /// which opens it and makes the view anew with it. Still unreadable, nothing changes.
    func retryMap(path: String, now: MonotonicInstant) {
        var probe = loaded.settings
        do throws(SetupError) {
            do {
                try DotImages.load(&probe)
                guard try MapFiles.openOrLeaveOut(&probe).leftOut == nil else { return }
            } catch { throw SetupError(error) }
            try switchTo(loaded, now: now)
        } catch {
            log.error("map: \(path): \(error)", topic: "map")
            return
        }
        if map.leftOut == nil { log.notice("map: \(path) taken up") }
        sendStatus()
    }

    static func sameSource(_ a: SourceSettings, _ b: SourceSettings) -> Bool {
        a.source == b.source && a.replaySpeed == b.replaySpeed && a.gpsDevice == b.gpsDevice
            && a.staleAfter == b.staleAfter && a.silenceTimeout == b.silenceTimeout
    }

    /// Whether the output must be reopened: fps only retimes the frame timer and the blanking
    /// keys are read at each minute's edge; every other `[display]` key is fixed when the output
    /// opens (composition decides the planes then).
    static func sameDisplay(_ a: DisplaySettings, _ b: DisplaySettings) -> Bool {
        a.output == b.output && a.device == b.device && a.connector == b.connector && a.mode == b.mode
            && a.format == b.format && a.rotation == b.rotation && a.update == b.update && a.pngFps == b.pngFps
            && a.composition == b.composition
    }
}
