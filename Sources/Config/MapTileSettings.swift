import Geo
import Syscall

/// `[map] tiles` and its companions: a tiled map (an MBTiles file or a `{z}/{x}/{y}` folder)
/// instead of one image: plain values. The tile set is opened by whoever draws it (and by
/// check-config to validate), so `tileScheme` may follow `tiles` in the file.
public struct TileSettings: Sendable {
    public var path: String? = nil
    public var scheme: TileScheme = .xyz
    public var cacheMegabytes: Int = 24
    public var attribution: MapAttribution = .auto

    public init() {}

    public var cacheBytes: Int { cacheMegabytes << 20 }
}

/// `[map] attribution`: the map's credit drawn in a corner, as the map's licence requires.
public enum MapAttribution: Equatable, Sendable {
    /// The tile set's own `attribution`, HTML tags stripped; none when it has none.
    case auto
    case none
    case text(String)
}

extension SettingsTable {
    static let tileKeys: [SettingKey] = [
        SettingKey(section: "map", name: "tiles", allowed: "an .mbtiles file, a folder of {z}/{x}/{y}.png|.jpg tiles, or none",
                   meaning: "a tiled map (raster MBTiles, or a tile folder), decoded a few tiles at a time into a fixed cache; exclusive with `image`",
                   parse: { text, s, origin throws(SettingProblem) in
                       if text == "none" {
                           s.map.tiles.path = nil
                           return
                       }
                       guard !text.isEmpty else { throw SettingProblem("empty path (expected an .mbtiles file or a tile folder, or none)") }
                       // Not looked at here: a tile set that is not there yet is the daemon's to
                       // leave out and take up when it appears, not a configuration error.
                       s.map.tiles.path = resolvePath(text, origin: origin)
                   },
                   show: { $0.map.tiles.path ?? "none" }),
        SettingKey(section: "map", name: "tileScheme", allowed: "xyz, tms",
                   meaning: "how a tile folder numbers rows: xyz (row 0 at the north, as web maps) or tms (row 0 at the south); MBTiles files are always read as MBTiles says",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.map.tiles.scheme = try parseChoice(text, TileScheme.allCases.map { ($0.rawValue, $0) })
                   },
                   show: { $0.map.tiles.scheme.rawValue }),
        SettingKey(section: "map", name: "cacheMegabytes", allowed: "whole number, 1 ≤ value ≤ 4096",
                   meaning: "memory for decoded tiles (least recently used given up first); must hold the tiles in view and the ring around them",
                   parse: { text, s, _ throws(SettingProblem) in
                       let v = try parseNumber(text, range: .closed(1, 4096))
                       guard v == v.rounded() else { throw SettingProblem("must be a whole number of megabytes") }
                       s.map.tiles.cacheMegabytes = Int(v)
                   },
                   show: { "\($0.map.tiles.cacheMegabytes)" }),
        SettingKey(section: "map", name: "attribution", allowed: "auto, none, or the text itself",
                   meaning: "the map's credit, drawn small in the bottom-right corner: auto takes the tile set's `attribution` (OpenStreetMap's licence requires it on screen)",
                   parse: { text, s, _ throws(SettingProblem) in
                       switch text {
                       case "auto": s.map.tiles.attribution = .auto
                       case "none": s.map.tiles.attribution = .none
                       case "": throw SettingProblem("empty (expected auto, none, or the text)")
                       default: s.map.tiles.attribution = .text(text)
                       }
                   },
                   show: {
                       switch $0.map.tiles.attribution {
                       case .auto: "auto"
                       case .none: "none"
                       case .text(let t): t
                       }
                   }),
    ]
}

extension Configuration {
    /// What the tiles' settings decide without the tile set: a map is an image or tiles, and a
    /// tiled map is shown at a whole zoom. The set itself is opened by its users (the daemon,
    /// check-config), who check the rest against what it holds.
    static func validateTiles(_ s: Settings, fail: (String, String) -> SettingError) throws(SettingError) {
        guard s.map.tiles.path != nil else { return }
        if s.map.imagePath != nil {
            throw fail("map.tiles", "a map is either an image or tiles: remove image (or tiles)")
        }
        if s.origins["map.zoom"] != nil, s.map.zoom != s.map.zoom.rounded() {
            throw fail("map.zoom", "a tiled map is shown at a whole zoom level, not \(formatNumber(s.map.zoom))")
        }
    }
}
