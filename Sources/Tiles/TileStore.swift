import Syscall

/// Where a tiled map's bytes come from: an MBTiles file or a `{z}/{x}/{y}` folder. Opened when the
/// configuration is loaded (to learn zooms, bounds and format), read afterwards on the tile worker
/// only: never on the frame path.
public protocol TileStore: AnyObject {
    /// The file or folder, as configured (for log lines).
    var path: String { get }
    /// Zooms, bounds, format, centre and attribution: the file's own, or derived from its tiles.
    var metadata: MBTilesMetadata { get }
    /// One tile's bytes as stored: `.missing` where the map has no tile, `.failed` when reading
    /// it went wrong (the reason in one line, naming the tile).
    func read(_ id: TileID) -> TileRead
    /// Whether `path` now names another file or folder than the one open (a new map renamed over it).
    func hasBeenReplaced() throws(SyscallError) -> Bool
    /// Lets go of the file; reads afterwards fail. Closing twice is harmless.
    func close()
    /// How many tiles the map holds (counted when asked), or nil when that cannot be told.
    var storedTileCount: Int? { get }
}

/// What reading one tile gave.
public enum TileRead: Equatable, Sendable {
    case bytes([UInt8])
    case missing
    case failed(String)
}

extension MBTiles: TileStore {
    public var storedTileCount: Int? { try? tileCount() }

    public func read(_ id: TileID) -> TileRead {
        do throws(MBTilesError) {
            guard let bytes = try tile(id) else { return .missing }
            return .bytes(bytes)
        } catch {
            return .failed("tile \(id): \(error)")
        }
    }
}

extension TileFolder {
    public var storedTileCount: Int? { tileCount }
}
