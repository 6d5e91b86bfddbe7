import Raster
import Syscall
import Transit

/// The `[transit]` section: the agency's GTFS feed, the trip the vehicle runs, and how it is followed.
public struct TransitSettings: Sendable, Equatable {
    /// A GTFS .zip or a folder of its .txt files; nil: no transit information.
    public var gtfs: String? = nil
    /// The trip (one run of it, for a frequencies.txt trip); nil: none followed.
    public var trip: TripChoice? = nil
    /// Farther than this from the trip's line is off route.
    public var offRouteMeters = 50.0
    /// Where indexes of feeds are kept, named by the feed's hash; nil: the service's cache or
    /// state directory (`TransitSettings.defaultCache`).
    public var cache: String? = nil
    /// The route's line on the map where the feed gives no `route_color` (or white).
    public var routeColor = Color(r: 0x00, g: 0x66, b: 0xCC)
    /// The route line's width, points.
    public var routeWidth = 6.0

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
        SettingKey(section: "transit", name: "trip", allowed: "`TRIP_ID` or `TRIP_ID@HH:MM:SS`, or none",
                   meaning: "the trip the vehicle runs (with its start time: that run of a frequencies.txt trip), followed fix by fix along its line whatever its calendar says; none: no trip",
                   parse: { text, s, _ throws(SettingProblem) in
                       if text == "none" { s.transit.trip = nil; return }
                       do throws(TransitError) { s.transit.trip = try TripChoice.parse(text) } catch {
                           if case .tripChoice(_, let message) = error { throw SettingProblem(message) }
                           throw SettingProblem(error.description)
                       }
                   },
                   show: { $0.transit.trip?.description ?? "none" }),
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
    ]

    /// Checked now, like a replay file, so a typo fails at check-config rather than at the import;
    /// a folder is as good as a file here (a feed may be either).
    static func parseFeedPath(_ text: String, origin: SettingOrigin) throws(SettingProblem) -> String {
        guard !text.isEmpty else { throw SettingProblem("empty path (expected a GTFS .zip or folder, or none)") }
        let path = resolvePath(text, origin: origin)
        let status: FileStatus
        do { status = try FileStatus(path: path) } catch {
            let shown = path == text ? "" : "\(path): "
            throw SettingProblem("\(shown)cannot be read (\(error.message); a GTFS .zip or folder is expected here)")
        }
        guard status.kind != .other else { throw SettingProblem("not a file or folder (a GTFS .zip or folder is expected here)") }
        return path
    }
}
