import Syscall

/// Why a tile folder cannot be used. Every case names the folder; the description is one line a
/// person can act on, e.g. `/srv/city: mixes tile formats (15/17602/10745.png and 15/17603/10745.jpg); …`.
public enum TileFolderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// stat or a listing failed: the folder itself, or one of its zoom or column folders, which the
    /// system error names.
    case unreadable(path: String, SyscallError)
    /// A regular file (an MBTiles file given as a folder, say), a device or other non-directory.
    case notAFolder(path: String)
    /// No folder named by a zoom level 0 to 30 directly inside.
    case noZoomFolders(path: String)
    /// Zoom folders, but no `{x}/{y}.ext` tile file of a raster format in any of them.
    case noTiles(path: String)
    /// Two tiles with different extensions (`.png` and `.jpg`, or `.jpg` and `.jpeg`): a tile is
    /// read by one name, so a folder has one. The two tiles as `z/x/row.ext`, row as stored.
    case mixedFormats(path: String, first: String, other: String)
    /// A read after `close()`.
    case closed(path: String)

    public var path: String {
        switch self {
        case let .unreadable(path, _), let .notAFolder(path), let .noZoomFolders(path), let .noTiles(path),
             let .mixedFormats(path, _, _), let .closed(path):
            return path
        }
    }

    public var description: String {
        let layout = "{z}/{x}/{y}.png, .jpg, .jpeg or .webp"
        let problem: String
        switch self {
        case let .unreadable(path, error):
            // The folder's own failure needs only the reason; a folder inside it is named.
            let reason = error.object == path ? error.message : "\(error.call) \(error.object): \(error.message)"
            problem = "cannot be read (\(reason)); a tile folder laid out \(layout) is expected here"
        case .notAFolder:
            problem = "is not a folder; a tile folder laid out \(layout) is expected here"
        case .noZoomFolders:
            problem = "holds no zoom folders (named 0 to \(TileID.maxZoom)); a tile folder is laid out \(layout)"
        case .noTiles:
            problem = "holds zoom folders but no tiles in them; a tile folder is laid out \(layout)"
        case let .mixedFormats(_, first, other):
            problem = "mixes tile formats (\(MBTilesError.oneLine(first)) and \(MBTilesError.oneLine(other))); a tile folder holds tiles of one format with one extension"
        case .closed:
            problem = "was read after it was closed"
        }
        return "\(path): \(problem)"
    }
}
