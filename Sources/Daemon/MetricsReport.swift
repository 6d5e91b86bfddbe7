import DisplayCore
import GPSD
import Metrics

/// Everything the metrics file says, gathered at one moment as plain values (times already on the
/// wall clock), and how it is written in Prometheus's text format. The names are the contract
/// with dashboards and alert rules (docs/operations.md): `pulsedot_` prefix, base units,
/// `_total` counters, times as `_timestamp_seconds`.
struct MetricsReport {
    var version: String
    var startTime: Double
    /// Whether the last SIGHUP was taken (true after start), and when the running configuration
    /// was taken: at start, or by the last reload that succeeded.
    var configReloadSuccessful: Bool
    var configTakenTime: Double
    var framesDrawn: UInt64
    var framesPresented: UInt64
    var frameTimes: FrameTimeHistogram
    var displayWaitSeconds: Double
    /// Wall-clock seconds; nil: nothing presented yet.
    var lastFrameTime: Double?
    var displayState: DisplayState
    /// `[display] output` as configured, and the display last driven (nil: none yet).
    var output: String
    var displayName: String?
    var mode: String?
    var fixState: String
    var lastFixTime: Double?
    var horizontalError: Double?
    var satellitesUsed: Int?
    /// `[source]`'s kind: "gpsd", "position" or "replay".
    var sourceKind: String
    /// nil: the source is not gpsd.
    var gpsdHealth: GPSDHealth?
    var gpsdReconnects: Int
    var skippedLines: Int
    var reloadsGood: UInt64
    var reloadsRefused: UInt64
    /// The scan-out queue of the display driven (KMS, atomic KMS, fbdev); nil: none has one.
    /// Its counters start again with each display opened.
    var scanout: ScanoutQueue.Statistics?
    /// The backlight's level as last written, in percent; nil: not driven, or not written yet.
    var backlightPercent: Int?
    /// The tiled map's cache, when the map is tiles (counters start again with each map a reload builds).
    var tiles: TileCacheNumbers?
    /// The feed and the trip followed, once loaded; nil: no `[transit] gtfs`, or not loaded yet.
    var transit: TransitNumbers?
    /// The scene's layers and whether each holds a plane of its own (the map: a window on the
    /// primary plane); empty: no display driven.
    var layersOnPlanes: [(layer: String, onPlane: Bool)] = []
    /// A stop kiosk's feeds and board; nil: no kiosk.
    var kiosk: KioskNumbers?
    /// The parts left out because a file they need cannot be read now (`degradableParts`).
    var degraded: [String] = []
    /// Every part that can be left out, each a series of `pulsedot_degraded`.
    static let degradableParts = ["map", "transit"]

    struct KioskNumbers {
        /// `LiveData.key`; nil before the first board.
        var live: String?
        var departures: Int
        var vehicles: Int
        /// By feed name: the last fetch's seconds and the age of the feed read last (nil: none yet).
        var feeds: [(name: String, fetchSeconds: Double?, age: Double?)]
        /// Failed fetches by `FetchError.Kind` name.
        var errors: [(kind: String, count: Int)]
    }

    static let liveStates = ["live", "no_feed", "waiting", "unreachable", "stale", "clock_not_synchronised"]

    struct TransitNumbers {
        /// When the feed's last day of service is over, UTC seconds; nil: no calendar.
        var serviceEnd: Double?
        /// nil: no trip followed (the rest is then unknown).
        var trip: String?
        var route: String?
        /// Metres along the trip's line; nil before the first fix on it.
        var distance: Double?
        var nextStop: (sequence: Int, id: String, name: String)?
        var offRoute: Bool
        var atStop: Bool
    }

    struct TileCacheNumbers {
        var decoded: Int
        var failed: Int
        var held: Int
        var capacity: Int
        var bytes: Int
    }

    static let fixStates = ["nofix", "live", "stale"]
    static let gpsdStates: [(GPSDHealth, String)] = [(.unreachable, "unreachable"), (.noReceiver, "no_receiver"), (.receiving, "receiving")]

    /// Renders into `text`, emptied first (its storage is reused).
    func render(into text: inout MetricsText) {
        text.removeAll()
        // Only values from small fixed sets go into labels: an address or a position there would
        // make a new series for every board whose configuration differs.
        text.info("pulsedot_build_info", help: "The running PulseDot's release.", labels: ["version": version])
        text.info("pulsedot_source_info", help: "Where positions come from: gpsd, a fixed position or a replayed log.",
                  labels: ["source": sourceKind])
        text.gauge("pulsedot_start_time_seconds", help: "When the daemon started, in seconds since the Unix epoch.", value: startTime)
        text.gauge("pulsedot_config_last_reload_successful",
                   help: "1 after start and after a reload that was taken, 0 after one that was refused (the configuration before it runs on).",
                   value: configReloadSuccessful ? 1 : 0)
        text.gauge("pulsedot_config_last_reload_success_timestamp_seconds",
                   help: "When the running configuration was taken (at start or by a reload), in seconds since the Unix epoch.",
                   value: configTakenTime)
        text.counter("pulsedot_frames_drawn_total", help: "Frames drawn and handed to the display.", value: framesDrawn)
        text.counter("pulsedot_frames_presented_total",
                     help: "Frames that reached the screen: completed page flips, successful DirtyFB calls or pans, PNG files written.",
                     value: framesPresented)
        text.histogram("pulsedot_frame_duration_seconds",
                       help: "Work per frame: drawing, copying and the present call, without time spent waiting for the display.",
                       frameTimes)
        text.counter("pulsedot_display_wait_seconds_total",
                     help: "Time spent waiting for the display to take frames (page flip completion, vertical blank).",
                     value: displayWaitSeconds)
        text.gauge("pulsedot_last_frame_timestamp_seconds",
                   help: "When a frame last reached the screen, in seconds since the Unix epoch; 0: never.",
                   value: lastFrameTime ?? 0)
        if let scanout {
            text.counter("pulsedot_scanout_presents_total", help: "Frames handed to the display driven now (since it was opened).",
                         value: UInt64(max(scanout.presents, 0)))
            text.counter("pulsedot_scanout_queued_total", help: "Presentations queued to the display controller: page flips, atomic commits, pans.",
                         value: UInt64(max(scanout.queued, 0)))
            text.counter("pulsedot_scanout_deferred_total",
                         help: "Frames whose damage waited because the presentation before was still in flight (a slow or stuck panel).",
                         value: UInt64(max(scanout.deferred, 0)))
            text.counter("pulsedot_scanout_busy_total", help: "Presentations the driver refused as busy (EBUSY); their damage went out with a later frame.",
                         value: UInt64(max(scanout.busy, 0)))
        }
        for state in DisplayState.allCases {
            text.gauge("pulsedot_display_state", help: "What the screen is doing: 1 for the current state, 0 for the others.",
                       value: state == displayState ? 1 : 0, labels: ["state": state.rawValue])
        }
        if let backlightPercent {
            text.gauge("pulsedot_backlight_brightness_percent",
                       help: "The backlight's level as last written ([display] brightness, dim, the light sensor), in percent of its max_brightness.",
                       value: Double(backlightPercent))
        }
        if let displayName, let mode {
            text.info("pulsedot_display_info", help: "The display last driven: configured output, device and connector, mode.",
                      labels: ["output": output, "display": displayName, "mode": mode])
        }
        for state in Self.fixStates {
            text.gauge("pulsedot_fix_state", help: "What the dot shows about the fix: 1 for the current state, 0 for the others.",
                       value: state == fixState ? 1 : 0, labels: ["state": state])
        }
        text.gauge("pulsedot_last_fix_timestamp_seconds",
                   help: "When the last fix arrived, in seconds since the Unix epoch; 0: none since start.",
                   value: lastFixTime ?? 0)
        if let horizontalError {
            text.gauge("pulsedot_horizontal_error_meters", help: "The last fix's horizontal error estimate (about 95 %).", value: horizontalError)
        }
        if let satellitesUsed {
            text.gauge("pulsedot_satellites_used", help: "Satellites used in the fix, from gpsd's last SKY report.", value: Double(satellitesUsed))
        }
        if let gpsdHealth {
            for (health, state) in Self.gpsdStates {
                text.gauge("pulsedot_gpsd_state",
                           help: "gpsd as the daemon sees it: unreachable, answering without a receiver, or receiving; 1 for the current state.",
                           value: health == gpsdHealth ? 1 : 0, labels: ["state": state])
            }
        }
        text.counter("pulsedot_gpsd_reconnects_total", help: "Reconnections to gpsd (the first connection is not one).",
                     value: UInt64(max(gpsdReconnects, 0)))
        text.counter("pulsedot_skipped_lines_total", help: "Lines from the position source that could not be used.",
                     value: UInt64(max(skippedLines, 0)))
        text.counter("pulsedot_reloads_total", help: "Configuration reloads (SIGHUP): taken, or refused with the old configuration kept.",
                     value: reloadsGood, labels: ["result": "good"])
        text.counter("pulsedot_reloads_total", help: "Configuration reloads (SIGHUP): taken, or refused with the old configuration kept.",
                     value: reloadsRefused, labels: ["result": "refused"])
        if let tiles {
            text.counter("pulsedot_map_tiles_decoded_total", help: "Map tiles decoded on the tile worker since the map was loaded.",
                         value: UInt64(max(tiles.decoded, 0)))
            text.counter("pulsedot_map_tiles_failed_total", help: "Map tiles that were damaged or unreadable (the background shows there).",
                         value: UInt64(max(tiles.failed, 0)))
            text.gauge("pulsedot_map_tile_cache_tiles", help: "Decoded tiles the tile cache holds now.", value: Double(tiles.held))
            text.gauge("pulsedot_map_tile_cache_capacity_tiles", help: "Tiles the tile cache can hold (cacheMegabytes).", value: Double(tiles.capacity))
            text.gauge("pulsedot_map_tile_cache_bytes", help: "Memory of the tile cache, allocated once at start.", value: Double(tiles.bytes))
        }
        for (layer, onPlane) in layersOnPlanes {
            text.gauge("pulsedot_layer_on_plane",
                       help: "1 when the layer holds a hardware plane of its own (the map: a window panned on the primary plane), 0 when it is composited in the canvas.",
                       value: onPlane ? 1 : 0, labels: ["layer": layer])
        }
        if let transit { Self.render(transit, into: &text) }
        if let kiosk { Self.render(kiosk, into: &text) }
        for part in Self.degradableParts {
            text.gauge("pulsedot_degraded", help: "1 while a part of the screen is left out because a file it needs cannot be read (it is taken up when it can be): map, transit.",
                       value: degraded.contains(part) ? 1 : 0, labels: ["part": part])
        }
    }

    /// The board's state as a set of series (one is 1), so an alert reads `pulsedot_kiosk_live_data == 0`.
    static func render(_ kiosk: KioskNumbers, into text: inout MetricsText) {
        text.gauge("pulsedot_kiosk_live_data", help: "1 while the board's times are live (a fresh TripUpdates feed on a synchronised clock), else 0: the board shows the timetable.",
                   value: kiosk.live == "live" ? 1 : 0)
        for state in liveStates {
            text.gauge("pulsedot_kiosk_live_data_state", help: "1 for the board's live-data state now: live, no_feed, waiting, unreachable, stale, clock_not_synchronised.",
                       value: kiosk.live == state ? 1 : 0, labels: ["state": state])
        }
        text.gauge("pulsedot_kiosk_departures_shown", help: "Rows on the departures board.", value: Double(kiosk.departures))
        text.gauge("pulsedot_kiosk_vehicles_shown", help: "Vehicles drawn as markers on the map.", value: Double(kiosk.vehicles))
        // Each family's samples together: durations first, then ages.
        for feed in kiosk.feeds {
            guard let s = feed.fetchSeconds else { continue }
            text.gauge("pulsedot_realtime_fetch_duration_seconds", help: "How long the feed's last fetch took, connect to last byte or to the failure.",
                       value: s, labels: ["feed": feed.name])
        }
        for feed in kiosk.feeds {
            guard let age = feed.age else { continue }
            text.gauge("pulsedot_realtime_feed_age_seconds", help: "Age of the feed read last: now minus its header timestamp (the fetch time where it has none).",
                       value: age, labels: ["feed": feed.name])
        }
        for error in kiosk.errors {
            text.counter("pulsedot_realtime_fetch_errors_total", help: "Failed fetches of the realtime feeds, by kind.",
                         value: UInt64(max(error.count, 0)), labels: ["kind": error.kind])
        }
    }

    /// The trip and route are labels (one series per configured trip, as few as the vehicles'
    /// schedules); the next stop's id and name label its sequence, so `pulsedot status` can say it.
    static func render(_ transit: TransitNumbers, into text: inout MetricsText) {
        // A timestamp rather than a count of days: Prometheus's base unit (promtool refuses
        // "days"), and an alert reads `pulsedot_transit_service_end_timestamp_seconds - time()`.
        if let serviceEnd = transit.serviceEnd {
            text.gauge("pulsedot_transit_service_end_timestamp_seconds",
                       help: "When the last day of service in the GTFS feed's calendar is over (the agency's midnight), in seconds since the Unix epoch.",
                       value: serviceEnd)
        }
        guard let trip = transit.trip else { return }
        let route = transit.route ?? ""
        if let distance = transit.distance {
            text.gauge("pulsedot_transit_distance_along_meters", help: "How far along the trip's line the vehicle is.",
                       value: distance, labels: ["trip": trip, "route": route])
        }
        if let next = transit.nextStop {
            text.gauge("pulsedot_transit_next_stop_sequence", help: "The next stop's stop_sequence in the trip; absent after the terminus.",
                       value: Double(next.sequence), labels: ["trip": trip, "route": route, "stop_id": next.id, "stop": next.name])
        }
        text.gauge("pulsedot_transit_off_route", help: "1 while the vehicle is farther from the trip's line than offRouteMeters (or not yet on it), else 0.",
                   value: transit.offRoute ? 1 : 0, labels: ["trip": trip, "route": route])
        text.gauge("pulsedot_transit_at_stop", help: "1 while the vehicle stands at one of the trip's stops, else 0.",
                   value: transit.atStop ? 1 : 0, labels: ["trip": trip, "route": route])
    }
}
