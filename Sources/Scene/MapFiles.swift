import Config
import Geo
import PNG
import TileDecode
import Syscall
import Tiles

/// The files `[map]` names, opened by the ones who use them — the daemon at start and at each
/// reload, the demo, and check-config to validate — not while the settings are parsed. A file that
/// cannot be taken is said as a setting is: one line with the file, line, key and value; the
/// daemon leaves such a map out and runs on (`openOrLeaveOut`).
public struct MapFiles: Sendable {
    /// The map image's size, as its header gives it (the image itself is decoded by `MapImage`).
    public var imageSize: (width: Int, height: Int)?
    /// The tile set, restricted to `[map] bounds` when they are set.
    public var tiles: TileSet?
    /// Where a tiled view starts when neither `center` nor a fixed `position` says: the file's
    /// centre, else the middle of its bounds.
    public var tileStart: GeoPoint?

    public init(imageSize: (width: Int, height: Int)? = nil, tiles: TileSet? = nil, tileStart: GeoPoint? = nil) {
        self.imageSize = imageSize
        self.tiles = tiles
        self.tileStart = tileStart
    }

    /// Opens what `settings.map` names and checks it against the rest of the settings: a tiled
    /// map's zoom against the file's zooms, its cache against a frame size the configuration
    /// fixes. What the file decides when the configuration does not is settled in `settings`: the
    /// zoom (the file's centre zoom, else its deepest).
    public static func open(_ settings: inout Settings) throws(SettingError) -> MapFiles {
        if let path = settings.map.imagePath {
            do throws(PNGError) {
                return MapFiles(imageSize: try PNGRead.size(path: path))
            } catch {
                // The key's value already names the file.
                throw settings.failure("map.image", error.problem)
            }
        }
        guard let path = settings.map.tiles.path else { return MapFiles() }
        let s = settings
        var set: TileSet
        do {
            set = try TileSet.open(path: path, scheme: s.map.tiles.scheme, measure: TileDimensions.of)
        } catch {
            let text = error.description
            throw s.failure("map.tiles", text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text)
        }
        let m = set.metadata
        if let bounds = s.map.bounds { set = set.restricted(to: bounds) }
        if s.origins["map.zoom"] != nil {
            let zoom = Int(s.map.zoom)
            guard zoom >= m.minZoom, zoom <= m.maxZoom + 2 else {
                throw s.failure("map.zoom", "\(path) has zooms \(m.minZoom)–\(m.maxZoom); zoom \(zoom) is outside them (up to two levels past the deepest are drawn enlarged)")
            }
        } else {
            settings.map.zoom = Double(min(max(m.center?.zoom ?? m.maxZoom, m.minZoom), m.maxZoom))
        }
        // A frame size the configuration fixes (a headless output's, a configured mode) is known
        // now, a screen's only once it is opened: the cache is checked against the known one.
        if let screen = MapTileReport.knownScreen(s.display),
           let problem = set.cacheProblem(cacheBytes: s.map.tiles.cacheBytes, canvasWidth: screen.width, canvasHeight: screen.height) {
            let key = s.origins["map.cacheMegabytes"] != nil ? "map.cacheMegabytes" : s.origins["display.mode"] != nil ? "display.mode" : "map.tiles"
            throw s.failure(key, problem)
        }
        return MapFiles(tiles: set, tileStart: m.center?.point ?? set.metadata.bounds.middle)
    }

    /// A map file that cannot be read now (not there yet, unreadable, corrupt) is left out, not
    /// refused: the dot is drawn on the background colour and the file is taken up when it can be
    /// read. Returns the files and, when the map was left out, why (one line naming the key and
    /// file) and the path to watch. A mistake in the settings themselves (a zoom the file lacks,
    /// a cache too small) is still refused.
    public static func openOrLeaveOut(_ settings: inout Settings) throws(SettingError) -> (files: MapFiles, leftOut: LeftOut?) {
        do {
            return (try open(&settings), nil)
        } catch {
            guard error.key == "map.image" || error.key == "map.tiles" else { throw error }
            let path = settings.map.imagePath ?? settings.map.tiles.path ?? ""
            settings.map.imagePath = nil
            settings.map.tiles.path = nil
            return (MapFiles(), LeftOut(path: path, reason: error.description, missing: (try? FileStatus(path: path)) == nil))
        }
    }

    /// A map file left out: which, and the line that says why.
    public struct LeftOut: Equatable, Sendable {
        public let path: String
        public let reason: String
        /// The file is not there (yet), as opposed to there but unusable (another kind, corrupt).
        public let missing: Bool

        public init(path: String, reason: String, missing: Bool) {
            self.path = path
            self.reason = reason
            self.missing = missing
        }
    }
}
