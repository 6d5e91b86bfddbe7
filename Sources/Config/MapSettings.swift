import Geo
import Raster

/// The `[map]` section: what lies under the dot. Either a georeferenced image (`image` + `bounds`)
/// or a plain colour around a centre (`background` + `center` + `zoom`); `Configuration.validate`
/// refuses a mixture.
public struct MapSettings: Sendable {
    /// The map image's path (resolved against the configuration file's directory); read by the
    /// daemon (and its size by check-config), not here.
    public var imagePath: String? = nil
    public var bounds: GeoBounds? = nil
    /// The plain map's colour, and what surrounds an image smaller than the screen.
    public var background = Color(r: 0xE5, g: 0xE3, b: 0xDF)
    /// nil: the fixed `[source] position`, else the first fix.
    public var center: GeoPoint? = nil
    public var zoom: Double = 16
    public var follow: FollowMode = .off
    public var offMap: OffMapMode = .hide
    /// A tiled map instead of an image (`[map] tiles`).
    public var tiles = TileSettings()

    public init() {}
}

extension SettingsTable {
    static let mapKeys: [SettingKey] = [
        SettingKey(section: "map", name: "image", allowed: "PNG path, or none",
                   meaning: "a map image in Web Mercator (as tile mosaics and web-map exports are), placed by `bounds`",
                   parse: { text, s, origin throws(SettingProblem) in
                       if text == "none" {
                           s.map.imagePath = nil
                           return
                       }
                       guard !text.isEmpty else { throw SettingProblem("empty path (expected a PNG file, or none)") }
                       s.map.imagePath = resolvePath(text, origin: origin)
                   },
                   show: { $0.map.imagePath ?? "none" }),
        SettingKey(section: "map", name: "bounds", allowed: "`WEST,SOUTH,EAST,NORTH` in degrees, or none",
                   meaning: "the geographic edges of `image` (its outer pixel edges); with `tiles`, the part of the tile set shown (default: the file's own bounds); WEST > EAST crosses the antimeridian",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.map.bounds = text == "none" ? nil : try parseBounds(text)
                   },
                   show: { $0.map.bounds.map(formatBounds) ?? "none" }),
        SettingKey(section: "map", name: "background", allowed: "opaque colour `#RRGGBB`",
                   meaning: "the colour of a map without image, and around an image smaller than the screen",
                   parse: { text, s, _ throws(SettingProblem) in
                       let c = try parseColor(text)
                       guard c.a == 255 else { throw SettingProblem("must be opaque (expected #RRGGBB, or alpha FF)") }
                       s.map.background = c
                   },
                   show: { formatColor($0.map.background) }),
        SettingKey(section: "map", name: "center", allowed: "`LAT,LON` in degrees, or auto",
                   meaning: "for a map without image: the position drawn at the centre of the screen (with `tiles`: where the view starts); auto: the fixed `position`, else the tile set's own centre, else the first fix",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.map.center = text == "auto" ? nil : try parseGeoPoint(text, what: "center")
                   },
                   show: { $0.map.center.map(formatGeoPoint) ?? "auto" }),
        number(section: "map", "zoom", .closed(0, MapProjection.maxZoom),
               "for a map without image: the Web Mercator zoom level (256-px tiles, the world 256·2^zoom px wide; fractions allowed; 16: about 2.4 m per pixel at the equator); with `tiles` a whole number, by default the file's centre zoom, else its deepest; up to two levels past the deepest are drawn enlarged",
               { $1(&$0.map.zoom) }),
        SettingKey(section: "map", name: "follow", allowed: "off, edge, center",
                   meaning: "off: the view never moves; edge: re-centre when the dot leaves the inner area; center: keep the dot centred (stopping at the image's edges)",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.map.follow = try parseChoice(text, FollowMode.allCases.map { ($0.rawValue, $0) })
                   },
                   show: { $0.map.follow.rawValue }),
        SettingKey(section: "map", name: "offMap", allowed: "hide, edge",
                   meaning: "a position outside the image: hide the dot, or pin it to the image's edge (said once in the log either way)",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.map.offMap = try parseChoice(text, OffMapMode.allCases.map { ($0.rawValue, $0) })
                   },
                   show: { $0.map.offMap.rawValue }),
    ]
}
