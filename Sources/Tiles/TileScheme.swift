/// How a tile folder numbers its rows: XYZ (row 0 at the north, as web maps and
/// `gdal2tiles.py --xyz` write) or TMS (row 0 at the south, as plain `gdal2tiles.py` writes).
/// MBTiles files are always TMS inside; their reader flips them.
public enum TileScheme: String, Equatable, Sendable, CaseIterable {
    case xyz, tms
}
