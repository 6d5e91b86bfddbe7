import Geo

/// One tile of the Web Mercator tile pyramid in the XYZ scheme the renderer thinks in: at zoom z
/// the world is 2^z × 2^z tiles, x growing east from the antimeridian, y growing south from the
/// top. MBTiles stores rows the other way up (TMS, row 0 at the bottom); `tmsRow` is the one place
/// that flips them, because a missed flip draws the map upside down.
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    /// The deepest zoom a tile may have: MapProjection's limit, and 2^z still fits any Int.
    public static let maxZoom = 30

    public let z: Int
    public let x: Int
    public let y: Int

    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// The tile stored at `tmsRow` (MBTiles' `tile_row`) at zoom z.
    public init(z: Int, x: Int, tmsRow: Int) {
        self.init(z: z, x: x, y: Self.flip(z: z, tmsRow))
    }

    /// MBTiles' `tile_row` for this tile: 2^z − 1 − y. Only meaningful for a valid tile.
    public var tmsRow: Int { Self.flip(z: z, y) }

    /// Tiles per side at this zoom.
    public var tilesPerSide: Int { 1 << z }

    /// Whether the tile exists in the pyramid: zoom 0…30, x and y inside the world.
    public var isValid: Bool {
        (0...Self.maxZoom).contains(z) && (0..<tilesPerSide).contains(x) && (0..<tilesPerSide).contains(y)
    }

    /// The area the tile covers, its edges in degrees (north and south on the Mercator curve).
    public var bounds: GeoBounds {
        GeoBounds(west: Self.longitude(x, z: z), south: Self.latitude(y + 1, z: z),
                  east: Self.longitude(x + 1, z: z), north: Self.latitude(y, z: z))
    }

    public var description: String { "\(z)/\(x)/\(y)" }

    /// The flip is its own inverse: XYZ y to TMS row and back.
    static func flip(z: Int, _ row: Int) -> Int { (1 << max(0, min(z, maxZoom))) - 1 - row }

    /// The longitude of the western edge of tile column `x` (x = 2^z gives the eastern world edge).
    static func longitude(_ x: Int, z: Int) -> Double {
        Double(x) / Double(1 << z) * 360 - 180
    }

    /// The latitude of the northern edge of tile row `y` (y = 2^z gives the southern world edge):
    /// atan(sinh(π(1 − 2y/2^z))), with Geo's portable functions so every CPU gives the same bits.
    static func latitude(_ y: Int, z: Int) -> Double {
        let t = PortableMath.pi * (1 - 2 * Double(y) / Double(1 << z))
        let sinh = (PortableMath.exp(t) - PortableMath.exp(-t)) / 2
        return PortableMath.atan(sinh) * (180 / PortableMath.pi)
    }
}
