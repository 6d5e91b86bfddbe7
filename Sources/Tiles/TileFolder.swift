import Geo
import Glibc
import Syscall

/// A folder of tiles laid out `{z}/{x}/{y}.png` (or `.jpg`, `.jpeg`, `.webp`), open for reading.
/// Not thread-safe: one thread reads it.
///
/// The folder is listed once, when opened: what MBTiles keeps in its metadata table (format,
/// zooms, bounds) a folder says only through its names. Tiles are then read relative to the folder
/// held open, not by its path, so a folder installed over it later (its path pointed at another
/// folder by a symbolic link, or the old one moved aside and the new one moved in) is not read
/// until it is reopened, as with an MBTiles file; `hasBeenReplaced()` tells on SIGHUP.
public final class TileFolder: TileStore {
    public let path: String
    public let scheme: TileScheme
    /// Derived from the listing (`derivedKeys` names every key): no name, centre or attribution.
    public let metadata: MBTilesMetadata
    /// The tiles' file extension without its dot, as the files spell it ("png", "jpg", "JPG").
    public let fileExtension: String
    /// The tile files the listing found.
    public let tileCount: Int
    /// The folder as stat saw it just before it was opened (a rename racing the open at worst makes
    /// `hasBeenReplaced()` answer true once too often).
    public let folderStatus: FileStatus

    private var directory: FileDescriptor?

    /// A file larger than this is not a tile (a 512-px RGBA PNG of pure noise is about 1 MiB), and
    /// reading it whole would only fill memory.
    static let tileByteLimit = 16 << 20

    /// Opens and lists `path`. Refuses what is not a tile folder, naming the folder and the reason
    /// in one line. Names that are not canonical numbers inside the pyramid (`05`, `x`, a column
    /// past the world's edge) and files of other types (gdal2tiles' HTML viewers, `tilemapresource.xml`,
    /// `.aux.xml` files) are not tiles and are passed over.
    public init(path: String, scheme: TileScheme = .xyz) throws(TileFolderError) {
        do {
            folderStatus = try FileStatus(path: path)
        } catch {
            throw .unreadable(path: path, error)
        }
        guard folderStatus.kind == .directory else { throw .notAFolder(path: path) }
        let directory: FileDescriptor
        do {
            directory = try FileDescriptor.openDirectory(path)
        } catch {
            throw .unreadable(path: path, error)
        }
        let listing: Listing
        do throws(TileFolderError) {
            listing = try Self.list(path, scheme: scheme)
        } catch {
            directory.close()
            throw error
        }
        self.path = path
        self.scheme = scheme
        self.directory = directory
        fileExtension = listing.fileExtension
        tileCount = listing.tileCount
        let deepest = listing.deepest
        let northWest = TileID(z: deepest.z, x: deepest.west, y: deepest.north).bounds
        let southEast = TileID(z: deepest.z, x: deepest.east, y: deepest.south).bounds
        metadata = MBTilesMetadata(
            name: nil, format: listing.format,
            bounds: GeoBounds(west: northWest.west, south: southEast.south, east: southEast.east, north: northWest.north),
            center: nil, minZoom: listing.minZoom, maxZoom: deepest.z, attribution: nil, type: nil,
            derivedKeys: ["bounds", "format", "maxzoom", "minzoom"])
    }

    deinit { close() }

    public func read(_ id: TileID) -> TileRead {
        guard let directory else { return .failed("tile \(id): \(TileFolderError.closed(path: path))") }
        guard id.isValid else { return .missing }
        let row = scheme == .tms ? id.tmsRow : id.y
        do {
            return .bytes(try directory.readWholeFile(at: "\(id.z)/\(id.x)/\(row).\(fileExtension)", limit: Self.tileByteLimit))
        } catch where error.call == "open" && (error.errno == ENOENT || error.errno == ENOTDIR) {
            // No such tile, or no such column folder (or a file where it would be).
            return .missing
        } catch {
            return .failed("tile \(id): \(error)")
        }
    }

    /// Whether `path` now names another folder than the one open. Throws when the path cannot be
    /// examined at all (the map was removed).
    public func hasBeenReplaced() throws(SyscallError) -> Bool {
        try FileStatus(path: path).identity != folderStatus.identity
    }

    public var isClosed: Bool { directory == nil }

    /// Closes the folder; reads afterwards fail. Closing twice is harmless.
    public func close() {
        directory?.close()
        directory = nil
    }
}

// MARK: - Listing

extension TileFolder {
    /// What one pass over the folder found.
    struct Listing {
        /// The deepest zoom holding tiles, and the outermost columns and XYZ rows there.
        struct Extent {
            var z: Int, west: Int, east: Int, north: Int, south: Int
        }

        var fileExtension: String
        var format: TileFormat
        var minZoom: Int
        var deepest: Extent
        var tileCount: Int
    }

    /// Lists zoom folders, their column folders and the tiles in those. Zooms are walked from the
    /// lowest and names in numeric order, so the tiles a mixed-formats error names are the same
    /// on every run and file system.
    static func list(_ path: String, scheme: TileScheme) throws(TileFolderError) -> Listing {
        let base = path.hasSuffix("/") ? path : path + "/"
        guard let names = try entries(path, root: path) else { throw .notAFolder(path: path) }
        var zoomFolders = 0
        var first: (name: String, fileExtension: String, format: TileFormat)?
        var minZoom: Int?
        var deepest: Listing.Extent?
        var count = 0
        for z in names.compactMap({ number($0, below: TileID.maxZoom + 1) }).sorted() {
            guard let columnNames = try entries(base + "\(z)", root: path) else { continue }
            zoomFolders += 1
            let side = 1 << z
            for x in columnNames.compactMap({ number($0, below: side) }).sorted() {
                guard let fileNames = try entries(base + "\(z)/\(x)", root: path) else { continue }
                for (row, fileExtension, format) in fileNames.compactMap({ tile($0, below: side) }).sorted(by: { $0.0 < $1.0 }) {
                    let name = "\(z)/\(x)/\(row).\(fileExtension)"
                    if let first {
                        guard first.fileExtension == fileExtension else {
                            throw .mixedFormats(path: path, first: first.name, other: name)
                        }
                    } else {
                        first = (name, fileExtension, format)
                    }
                    count += 1
                    if minZoom == nil { minZoom = z }
                    let y = scheme == .tms ? TileID(z: z, x: x, tmsRow: row).y : row
                    if var extent = deepest, extent.z == z {
                        extent.west = min(extent.west, x); extent.east = max(extent.east, x)
                        extent.north = min(extent.north, y); extent.south = max(extent.south, y)
                        deepest = extent
                    } else {
                        deepest = Listing.Extent(z: z, west: x, east: x, north: y, south: y)
                    }
                }
            }
        }
        guard zoomFolders > 0 else { throw .noZoomFolders(path: path) }
        guard let first, let minZoom, let deepest else { throw .noTiles(path: path) }
        return Listing(fileExtension: first.fileExtension, format: first.format, minZoom: minZoom,
                       deepest: deepest, tileCount: count)
    }

    /// The names in `folder`, or nil when it is not a folder at all (a file named like a zoom or a
    /// column is not part of the pyramid).
    static func entries(_ folder: String, root: String) throws(TileFolderError) -> [String]? {
        do {
            return try Directory.entries(folder)
        } catch where error.errno == ENOTDIR {
            return nil
        } catch {
            throw .unreadable(path: root, error)
        }
    }

    /// A tile's file name: its row (as stored: TMS rows count from the south), its extension and
    /// the format that extension names. Nil for anything else.
    static func tile(_ name: String, below side: Int) -> (row: Int, fileExtension: String, format: TileFormat)? {
        guard let dot = name.firstIndex(of: ".") else { return nil }
        let fileExtension = String(name[name.index(after: dot)...])
        guard let row = number(String(name[..<dot]), below: side), let format = format(ofExtension: fileExtension) else {
            return nil
        }
        return (row, fileExtension, format)
    }

    /// Tools write `.png`, `.jpg` (gdal2tiles, most servers), `.jpeg` and `.webp`; some write them in
    /// capitals.
    static func format(ofExtension fileExtension: String) -> TileFormat? {
        switch fileExtension.lowercased() {
        case "png": .png
        case "jpg", "jpeg": .jpeg
        case "webp": .webp
        default: nil
        }
    }

    /// `name` as a number below `limit`, written the one way a tile path is built from it: decimal
    /// digits, no sign, no leading zero. `05` is not tile 5: reading tile 5 would look for `5`.
    static func number(_ name: String, below limit: Int) -> Int? {
        let digits = Array(name.utf8)
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (0x30...0x39).contains($0) }),
              digits.count == 1 || digits[0] != 0x30 else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return value < limit ? value : nil
    }
}
