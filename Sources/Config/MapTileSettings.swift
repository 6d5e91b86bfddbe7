import Geo
import Syscall
import TileDecode
import Tiles

/// `[map] tiles` and its companions: a tiled map (an MBTiles file or a `{z}/{x}/{y}` folder)
/// instead of one image. The tile set is opened once the whole configuration is known
/// (`Configuration.validate`), so `tileScheme` may follow `tiles` in the file.
public struct TileSettings: Sendable {
    public var path: String? = nil
    public var scheme: TileScheme = .xyz
    public var cacheMegabytes: Int = 24
    public var attribution: MapAttribution = .auto
    /// The tile set as opened by validation: what it holds and its tile size.
    public internal(set) var set: TileSet? = nil
    /// Where the view starts when neither `center` nor a fixed `position` says: the file's centre,
    /// else the middle of its bounds.
    public internal(set) var start: GeoPoint? = nil

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
                       let path = resolvePath(text, origin: origin)
                       do throws(SyscallError) {
                           _ = try FileStatus(path: path)
                       } catch {
                           throw SettingProblem("\(error)")
                       }
                       s.map.tiles.path = path
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
    /// Opens the tile set and settles what the file decides when the configuration does not:
    /// the zoom (the file's centre zoom, else its deepest), bounds and the starting view.
    static func validateTiles(_ s: inout Settings, fail: (String, String) -> SettingError) throws(SettingError) {
        guard let path = s.map.tiles.path else {
            s.map.tiles.set = nil
            return
        }
        if s.map.imagePath != nil {
            throw fail("map.tiles", "a map is either an image or tiles: remove image (or tiles)")
        }
        var set: TileSet
        do {
            set = try TileSet.open(path: path, scheme: s.map.tiles.scheme, measure: TileDimensions.of)
        } catch {
            // The key's value already names the file.
            let text = error.description
            throw fail("map.tiles", text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text)
        }
        let m = set.metadata
        if let bounds = s.map.bounds {
            set = set.restricted(to: bounds)
        }
        if s.origins["map.zoom"] != nil {
            let zoom = s.map.zoom
            guard zoom == zoom.rounded() else {
                throw fail("map.zoom", "a tiled map is shown at a whole zoom level, not \(formatNumber(zoom))")
            }
            guard Int(zoom) >= m.minZoom, Int(zoom) <= m.maxZoom + 2 else {
                throw fail("map.zoom", "\(path) has zooms \(m.minZoom)–\(m.maxZoom); zoom \(Int(zoom)) is outside them (up to two levels past the deepest are drawn enlarged)")
            }
        } else {
            s.map.zoom = Double(min(max(m.center?.zoom ?? m.maxZoom, m.minZoom), m.maxZoom))
        }
        // A frame size the configuration fixes (a headless output's, a configured mode) is known
        // now, a screen's only once it is opened: the cache is checked against the known one.
        if let screen = MapTileReport.knownScreen(s.display),
           let problem = set.cacheProblem(cacheBytes: s.map.tiles.cacheBytes, canvasWidth: screen.width, canvasHeight: screen.height) {
            let key = s.origins["map.cacheMegabytes"] != nil ? "map.cacheMegabytes" : s.origins["display.mode"] != nil ? "display.mode" : "map.tiles"
            throw fail(key, problem)
        }
        s.map.tiles.start = m.center?.point ?? set.metadata.bounds.middle
        s.map.tiles.set = set
    }
}
