/// How a tile folder numbers its rows. Nothing in a folder's names tells one from the other, and
/// the wrong one draws the map upside down and in the wrong place, so it is configured.
public enum TileScheme: String, Equatable, Sendable, CaseIterable {
    /// Row 0 at the top (north): `gdal2tiles.py --xyz`, OpenStreetMap's tile URLs, most tile servers.
    case xyz
    /// Row 0 at the bottom (south): the Tile Map Service specification, as plain `gdal2tiles.py` writes.
    case tms
}
