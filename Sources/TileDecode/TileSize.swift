/// The two tile sizes raster tile sets come in: 256 px (the web's classic tiles) and 512 px (the
/// same ground at twice the pixels, "@2x" or vector-era raster sets). A tile set has one size,
/// which its reader knows and says; a tile of any other size is an error, not rescaled.
public enum TileSize: Int, Equatable, Sendable, CaseIterable {
    case px256 = 256
    case px512 = 512

    /// Pixels along either side.
    public var pixels: Int { rawValue }
}
