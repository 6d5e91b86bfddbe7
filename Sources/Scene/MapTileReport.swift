import Config
import Geo
import Tiles

/// What `check-config` says about a tiled map, as comment lines after the effective
/// configuration: format, zooms, bounds, tile count, whether the start is on the map, and what
/// the tile cache holds against the screen's needs.
public enum MapTileReport {
    /// The screen size the cache is checked against when the display decides it at start.
    public static let assumedScreen = (width: 1920, height: 1080)

    /// The screen whose size is known from the configuration alone: a headless output's frame
    /// size, or a configured mode; nil when the display decides at start.
    static func knownScreen(_ d: DisplaySettings) -> (width: Int, height: Int)? {
        switch d.output {
        case .png, .none: return d.headlessFrameSize
        case .auto, .kms, .fbdev: return d.mode.map { ($0.width, $0.height) }
        }
    }

    public static func lines(_ s: Settings, _ files: MapFiles) -> [String] {
        guard let set = files.tiles else { return [] }
        let m = set.metadata
        let b = m.bounds
        var out: [String] = []
        let kind = set.kind == .mbtiles ? "MBTiles" : "tile folder (\(set.scheme.rawValue))"
        var count = "tile count unknown"
        if let store = try? set.openStore() {
            if let n = store.storedTileCount { count = "\(n) tiles" }
            store.close()
        }
        out.append("map tiles \(set.path): \(kind), \(m.format.name) tiles of \(set.tileSize) px, zooms \(m.minZoom)–\(m.maxZoom) (shown: \(Int(s.map.zoom))), \(count)")
        out.append("map bounds \(b.west),\(b.south),\(b.east),\(b.north)" + (m.derivedKeys.contains("bounds") ? " (derived from the tiles)" : ""))
        var start = s.map.center
        var what = "center"
        if start == nil, case .position(let p) = s.source.source { start = p; what = "position" }
        if let start {
            let covered = b.contains(start)
            out.append("map \(what) \(start.latitude),\(start.longitude): \(covered ? "on the map" : "NOT on the map (outside its bounds: the dot is hidden or pinned as offMap says)")")
        } else if let first = files.tileStart {
            out.append("map view starts at \(first.latitude),\(first.longitude) (the file's centre) until the first fix")
        }
        let screen = knownScreen(s.display) ?? assumedScreen
        let assumed = knownScreen(s.display) == nil ? " (assumed: the display's own size decides at start)" : ""
        let slots = s.map.tiles.cacheBytes / set.slotBytes
        out.append("map tile cache \(s.map.tiles.cacheMegabytes) MiB: \(slots) tiles; a \(screen.width)x\(screen.height) screen\(assumed) needs \(set.slotsNeeded(canvasWidth: screen.width, canvasHeight: screen.height)) (the tiles in view and the ring around them)")
        return out
    }
}
