import Raster
import Syscall
import Transit

/// The `[transit]` section: the agency's GTFS feed, the trip the vehicle runs, and how it is followed.
public struct TransitSettings: Sendable, Equatable {
    /// A GTFS .zip or a folder of its .txt files; nil: no transit information.
    public var gtfs: String? = nil
    /// The trip (one run of it, for a frequencies.txt trip); nil: none followed.
    public var trip: TripChoice? = nil
    /// `trip = auto`: the trip told from the fixes (the shape they follow, the run the clock
    /// says), again after each terminus; `trip` is then nil.
    public var autoTrip = false
    /// `trip = realtime`: the trip the agency's realtime feeds say `vehicleId` runs (its
    /// VehiclePosition, else a TripUpdate naming it), followed as it changes; `trip` is then nil.
    public var realtimeTrip = false
    /// This vehicle's id in the realtime feeds (VehicleDescriptor.id).
    public var vehicleID: String? = nil
    /// A file the onboard computer writes naming the trip (`TRIP_ID[@HH:MM:SS]`) or the block
    /// (`block BLOCK_ID`), followed as it changes; it takes the place of `trip` while it names
    /// one. nil: none.
    public var tripFile: String? = nil
    /// Farther than this from the trip's line is off route.
    public var offRouteMeters = 50.0
    /// Where indexes of feeds are kept, named by the feed's hash; nil: the service's cache or
    /// state directory (`TransitSettings.defaultCache`).
    public var cache: String? = nil
    /// The route's line on the map where the feed gives no `route_color` (or white).
    public var routeColor = Color(r: 0x00, g: 0x66, b: 0xCC)
    /// The route line's width, points.
    public var routeWidth = 6.0
    /// Where the banner (line, destination, next stop and the two after) is shown while a trip
    /// is followed.
    public var banner = BannerPlace.top
    /// The font families the banner's text is set in, in order of preference; nil: Noto's
    /// families for the scripts stop names come in (the shaping's own default).
    public var fonts: [String]? = nil
    /// The language of the names (BCP 47): translations.txt's names in it, and the glyph forms
    /// that differ by language; nil: the feed's own names.
    public var language: String? = nil
    /// Run by /bin/sh whenever the next stop changes, the stop in its environment; nil: none.
    public var nextStopCommand: String? = nil

    public init() {}

    /// What `cache = auto` means: systemd's `$CACHE_DIRECTORY` (a unit's `CacheDirectory=`), else
    /// `$STATE_DIRECTORY` (the one place the shipped unit lets the service write), each with a
    /// `transit` folder, else the folder `pulsedot transit import` fills by default.
    public static func defaultCache() -> String {
        for name in ["CACHE_DIRECTORY", "STATE_DIRECTORY"] {
            guard let value = Environment.value(name), !value.isEmpty else { continue }
            let first = String(value.split(separator: ":").first ?? Substring(value))
            return first.hasSuffix("/") ? first + "transit" : first + "/transit"
        }
        return "/var/cache/pulsedot/transit"
    }

    /// The cache directory in use: the setting, else `defaultCache()`.
    public var cacheDirectory: String { cache ?? Self.defaultCache() }
}

extension SettingsTable {
    static let transitKeys: [SettingKey] = [
        SettingKey(section: "transit", name: "gtfs", allowed: "path of a GTFS .zip or folder, or none",
                   meaning: "the agency's GTFS feed (`pulsedot transit import` builds its index); none: no transit information",
                   parse: { text, s, origin throws(SettingProblem) in
                       if text == "none" { s.transit.gtfs = nil; return }
                       s.transit.gtfs = try parseFeedPath(text, origin: origin)
                   },
                   show: { $0.transit.gtfs ?? "none" }),
        SettingKey(section: "transit", name: "trip", allowed: "`TRIP_ID` or `TRIP_ID@HH:MM:SS`, auto, realtime, or none",
                   meaning: "the trip the vehicle runs, its trip_id as the feed writes it (`@`, spaces and any letters kept; with a start time after `@`: that run of a frequencies.txt trip, read so only when the whole text is no trip_id of the feed), followed fix by fix along its line whatever its calendar says; auto: told from the fixes — the shape they follow for a few hundred metres, then the run due there nearest to the clock, said in the log with the reason, and looked for again after the terminus or \(Int(TripDetector.Settings().releaseOffRouteSeconds / 60)) min off the line; realtime: the trip the `[realtime]` feeds say `vehicleId` runs (its VehiclePosition's trip, else a TripUpdate naming the vehicle), taken again whenever they name another, said in the log; none: no trip",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.transit.autoTrip = text == "auto"
                       s.transit.realtimeTrip = text == "realtime"
                       if text == "none" || text == "auto" || text == "realtime" { s.transit.trip = nil; return }
                       do throws(TransitError) { s.transit.trip = try TripChoice.parse(text) } catch {
                           if case .tripChoice(_, let message) = error { throw SettingProblem(message) }
                           throw SettingProblem(error.description)
                       }
                   },
                   show: { $0.transit.autoTrip ? "auto" : $0.transit.realtimeTrip ? "realtime" : $0.transit.trip?.description ?? "none" }),
        SettingKey(section: "transit", name: "vehicleId", allowed: "the vehicle's id in the realtime feeds, or none",
                   meaning: "this vehicle's VehicleDescriptor.id in the `[realtime]` feeds, for `trip = realtime`",
                   parse: { text, s, _ throws(SettingProblem) in
                       if text.isEmpty { throw SettingProblem("empty id (expected the vehicle's id in the feeds, or none)") }
                       s.transit.vehicleID = text == "none" ? nil : text
                   },
                   show: { $0.transit.vehicleID ?? "none" }),
        SettingKey(section: "transit", name: "tripFile", allowed: "file path, or none",
                   meaning: "a file the onboard computer writes with the trip on its first line (`TRIP_ID`, `TRIP_ID@HH:MM:SS`, or `block BLOCK_ID`: that block's trips of the service day in departure order — the day before's while they run past midnight — the next taken up at each terminus; a `#` at a line's start or after a blank begins a comment, one inside an id is part of it), followed through inotify as it is written or replaced, taking the place of `trip` while it names one; a missing file or a line that names no trip is said once and the trip followed before is kept",
                   parse: { text, s, origin throws(SettingProblem) in
                       if text == "none" { s.transit.tripFile = nil; return }
                       guard !text.isEmpty else { throw SettingProblem("empty path (expected a file, or none)") }
                       s.transit.tripFile = resolvePath(text, origin: origin)
                   },
                   show: { $0.transit.tripFile ?? "none" }),
        number(section: "transit", "offRouteMeters", .closed(5, 1000), unit: "metres",
               "farther than this from the trip's line is off route (said once, and again when back)", { $1(&$0.transit.offRouteMeters) }),
        SettingKey(section: "transit", name: "cache", allowed: "folder path, or auto",
                   meaning: "where the feed's index is built and kept, named by the feed's hash; auto: $CACHE_DIRECTORY/transit, else $STATE_DIRECTORY/transit, else /var/cache/pulsedot/transit",
                   parse: { text, s, origin throws(SettingProblem) in
                       if text == "auto" { s.transit.cache = nil; return }
                       guard !text.isEmpty else { throw SettingProblem("empty path (expected a folder, or auto)") }
                       s.transit.cache = resolvePath(text, origin: origin)
                   },
                   show: { $0.transit.cache ?? "auto" }),
        opaqueColor(section: "transit", "routeColor",
                    "the trip's line on the map where the feed gives no `route_color`, or white (which would vanish in the line's white casing)",
                    { $1(&$0.transit.routeColor) }),
        number(section: "transit", "routeWidth", .closed(1, 30), unit: "points",
               "the width of the trip's line on the map (its white casing and the stops scale with it)", { $1(&$0.transit.routeWidth) }),
        SettingKey(section: "transit", name: "banner", allowed: "top, bottom, none",
                   meaning: "where the banner sits while a trip is followed: the line's badge in its colours, the destination, the next stop large and the two after it; made on a worker when the next stop changes and shown above the map and the dot: on an overlay plane of its own where the display grants one, else composited in the canvas (the dot and the map then leave their planes); none: no banner",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.transit.banner = try parseChoice(text, BannerPlace.allCases.map { ($0.rawValue, $0) })
                   },
                   show: { $0.transit.banner.rawValue }),
        SettingKey(section: "transit", name: "fonts", allowed: "font families separated by commas, or default",
                   meaning: "the banner's fonts in order of preference, found by fontconfig: each run of text is set in the first that has its characters; default: Noto Sans, Noto Sans Arabic, Hebrew, Devanagari and Thai (fonts-noto-core, recommended), Noto Sans CJK JP (fonts-noto-cjk, suggested), then DejaVu Sans (always installed)",
                   parse: { text, s, _ throws(SettingProblem) in
                       if text == "default" { s.transit.fonts = nil; return }
                       let families = text.split(separator: ",", omittingEmptySubsequences: false).map { trimmed(String($0)) }
                       guard !families.isEmpty, !families.contains(where: { $0.isEmpty }) else {
                           throw SettingProblem("an empty font family (expected families separated by commas, or default)")
                       }
                       s.transit.fonts = families
                   },
                   show: { $0.transit.fonts?.joined(separator: ", ") ?? "default" }),
        SettingKey(section: "transit", name: "language", allowed: "a BCP 47 language tag (ja, zh-Hans, sr), or none",
                   meaning: "the language the banner and the log name stops, headsigns and routes in: translations.txt's names in it where the feed has them (he-IL falls back to he), else the feed's own; also the glyph forms that differ by language (Japanese or Chinese Han, Serbian Cyrillic); none: the feed's names in the fonts' own forms",
                   parse: { text, s, _ throws(SettingProblem) in
                       if text == "none" { s.transit.language = nil; return }
                       guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D }),
                             text.utf8.first != 0x2D, text.utf8.last != 0x2D else {
                           throw SettingProblem("not a language tag (expected letters, digits and hyphens, e.g. ja or zh-Hans, or none)")
                       }
                       s.transit.language = text
                   },
                   show: { $0.transit.language ?? "none" }),
        SettingKey(section: "transit", name: "nextStopCommand", allowed: "a command line for /bin/sh, or none",
                   meaning: "run without waiting whenever the next stop changes (an announcement system's hook), with PULSEDOT_TRIP_ID, PULSEDOT_ROUTE, PULSEDOT_NEXT_STOP_ID, PULSEDOT_NEXT_STOP_NAME and PULSEDOT_NEXT_STOP_SEQUENCE in its environment (empty past the last stop); a failure is said once",
                   parse: { text, s, _ throws(SettingProblem) in
                       if text.isEmpty { throw SettingProblem("empty command (expected a command line, or none)") }
                       s.transit.nextStopCommand = text == "none" ? nil : text
                   },
                   show: { $0.transit.nextStopCommand ?? "none" }),
    ]

    /// A feed that is not there (yet) is no configuration error: the daemon runs without transit,
    /// says so, and takes the feed up when it appears (check-config warns). Something there that
    /// is neither a file nor a folder (a FIFO, a device) is refused at once.
    static func parseFeedPath(_ text: String, origin: SettingOrigin) throws(SettingProblem) -> String {
        guard !text.isEmpty else { throw SettingProblem("empty path (expected a GTFS .zip or folder, or none)") }
        let path = resolvePath(text, origin: origin)
        if let status = try? FileStatus(path: path), status.kind == .other {
            throw SettingProblem("not a file or folder (a GTFS .zip or folder is expected here)")
        }
        return path
    }
}
