import Config
import DisplayCore
import FeedFetch
import HTTPWire
import Kiosk
import Location
import Loop
import Outputs
import Positioning
import Scene
import Syscall
import TileMap

/// The metrics file's side of the loop: what is counted as it happens (presentations, reloads)
/// and the report gathered when a write is due.
extension RunDaemon {
    /// What the screen is doing now.
    var displayState: DisplayState {
        if blanking.blanked { return .blanked }
        if display.driven != nil { return .driving }
        return display.isDisconnected ? .disconnected : .waiting
    }

    /// Writes the metrics file when it is due.
    func metricsDue(now: MonotonicInstant) {
        guard let due = metricsFile.nextWrite, now >= due else { return }
        metricsFile.write(metricsReport(), now: now, log: log)
    }

    func metricsReport() -> MetricsReport {
        // Instants on the monotonic clock become wall-clock times through the offset between the
        // two clocks, read together now: a wall clock set while running moves them all together.
        let offset = environment.wallClock() - waiting.now().seconds
        if let d = display.driven { lastDriven = (d.displayName, d.display.modeDescription) }
        return MetricsReport(
            version: PulseDotVersion.string,
            startTime: started.seconds + offset,
            configReloadSuccessful: reloads.lastTaken,
            configTakenTime: (reloads.takenAt ?? started).seconds + offset,
            framesDrawn: UInt64(counters.frames),
            framesPresented: presentation.presented,
            frameTimes: counters.frameHistogram,
            displayWaitSeconds: Double(presentation.waitedNanoseconds) / 1e9,
            lastFrameTime: presentation.lastPresentedAt.map { $0.seconds + offset },
            displayState: displayState,
            output: outputSetting,
            displayName: lastDriven?.name,
            mode: lastDriven?.mode,
            fixState: shownPhase.rawValue,
            lastFixTime: lastFix.map { $0.receivedAt.seconds + offset },
            horizontalError: lastFix?.horizontalError,
            satellitesUsed: source.satellitesUsed,
            sourceKind: sourceKind,
            gpsdHealth: source.gpsdHealth,
            gpsdReconnects: source.reconnects,
            skippedLines: source.skippedLines,
            reloadsGood: reloads.good,
            reloadsRefused: reloads.refused,
            scanout: display.driven?.display.scanoutStatistics,
            backlightPercent: brightness.percentShown,
            tiles: display.driven?.view.tiles.map {
                MetricsReport.TileCacheNumbers(decoded: $0.tilesDecoded, failed: $0.tilesFailed, held: $0.tilesHeld,
                                               capacity: $0.cacheSlots, bytes: $0.cacheBytes)
            },
            transit: transit.metrics(),
            layersOnPlanes: display.driven?.view.layersOnPlanes ?? [],
            kiosk: kioskMetrics(),
            degraded: degradedParts.map { $0.part })
    }

    /// The kiosk's numbers; nil without a kiosk.
    func kioskMetrics() -> MetricsReport.KioskNumbers? {
        guard settings.kiosk.isActive else { return nil }
        let feeds = settings.realtime.feeds.compactMap { f in
            RealtimeFeed(name: f.name).map { (name: f.name, fetchSeconds: kiosk.fetchSeconds[$0.rawValue], age: kiosk.feedAges[$0.rawValue]) }
        }
        return MetricsReport.KioskNumbers(live: kiosk.live?.key, departures: kiosk.shownDepartures, vehicles: kiosk.shownVehicles, feeds: feeds,
                                          errors: FetchError.Kind.allCases.map { ($0.name, kiosk.fetchErrors[$0.name] ?? 0) })
    }

    /// `[source]`'s kind as the metrics label it: a word from a fixed set, never the address or
    /// position itself.
    var sourceKind: String {
        switch settings.source.source {
        case .gpsd: "gpsd"
        case .position: "position"
        case .replay: "replay"
        }
    }

    /// SIGHUP, counted by whether the configuration was switched (reload() swaps it only when
    /// everything in the new one could be built).
    func countedReload(now: MonotonicInstant) {
        let before = reloads.generation, old = settings
        reload(now: now)
        if reloads.generation != before {
            reloads.good += 1
            reloads.lastTaken = true
            reloads.takenAt = now
            configureComponents(old: old, now: now)
        } else {
            reloads.refused += 1
            reloads.lastTaken = false
        }
    }
}

/// Reloads taken and refused; `generation` moves whenever the running configuration is replaced.
final class ReloadCounts {
    var generation = 0
    var good: UInt64 = 0
    var refused: UInt64 = 0
    /// The last SIGHUP was taken, or there was none: the configuration on disk is the one running
    /// (as far as the daemon knows).
    var lastTaken = true
    /// When the last reload was taken; nil: none, the configuration is the one read at start.
    var takenAt: MonotonicInstant?
}
