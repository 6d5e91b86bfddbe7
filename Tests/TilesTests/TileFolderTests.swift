import Foundation
import Geo
import Glibc
import Syscall
import TestSupport
import XCTest
@testable import Tiles

/// `{z}/{x}/{y}` folders: metadata from the listing, rows read XYZ and TMS (an asymmetric map, so a
/// missed or doubled flip shows), formats by extension, what is not a tile folder refused naming
/// it, reads kept on the folder opened.
final class TileFolderTests: XCTestCase {
    /// An uneven scatter, off the centre of the world and not symmetric about any row: zoom 2 has
    /// three tiles, zoom 3 four, columns 2…5 and rows 1…3 at the deepest.
    static let tiles: [(z: Int, x: Int, y: Int)] = [
        (2, 1, 0), (2, 2, 0), (2, 1, 1),
        (3, 2, 1), (3, 5, 1), (3, 3, 2), (3, 2, 3),
    ]

    /// The bytes of a tile file: the format's signature (so a decoder could tell it), then which
    /// tile it is in XYZ terms, whatever row the file is stored under.
    static func bytes(z: Int, x: Int, y: Int, format: TileFormat = .png) -> [UInt8] {
        let signature: [UInt8] = format == .jpeg ? [0xFF, 0xD8, 0xFF, 0xE0] : MBTilesFixture.pngSignature
        return signature + Array("xyz \(z)/\(x)/\(y)".utf8)
    }

    /// Writes `bytes` at `root/relative`, making the folders on the way.
    static func write(_ bytes: [UInt8], _ relative: String, in root: String) throws {
        let url = URL(fileURLWithPath: root + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// A folder holding `tiles`, each file named by its row in `scheme`; the TMS row is computed here
    /// from the TMS specification (row 0 at the bottom), not with the code under test.
    static func makeFolder(_ root: String, scheme: TileScheme, ext: String = "png", format: TileFormat = .png) throws {
        for tile in tiles {
            let row = scheme == .tms ? (1 << tile.z) - 1 - tile.y : tile.y
            try write(bytes(z: tile.z, x: tile.x, y: tile.y, format: format), "\(tile.z)/\(tile.x)/\(row).\(ext)", in: root)
        }
    }

    func longitude(_ x: Double) -> Double { x / 8 * 360 - 180 }
    func latitude(_ y: Double) -> Double { atan(sinh(Double.pi * (1 - 2 * y / 8))) * 180 / .pi }

    private func assertDeepestExtent(_ metadata: MBTilesMetadata, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(metadata.bounds.west, longitude(2), accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(metadata.bounds.east, longitude(6), accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(metadata.bounds.north, latitude(1), accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(metadata.bounds.south, latitude(4), accuracy: 1e-9, file: file, line: line)
    }

    private func assertReadsEveryTile(_ folder: TileFolder, file: StaticString = #filePath, line: UInt = #line) {
        for tile in Self.tiles {
            let id = TileID(z: tile.z, x: tile.x, y: tile.y)
            XCTAssertEqual(folder.read(id), .bytes(Self.bytes(z: tile.z, x: tile.x, y: tile.y)), "\(id)", file: file, line: line)
        }
        // The mirror images of stored tiles, a zoom the folder lacks, tiles outside the pyramid.
        for id in [TileID(z: 3, x: 2, y: 6), TileID(z: 3, x: 5, y: 6), TileID(z: 2, x: 1, y: 3), TileID(z: 4, x: 4, y: 2),
                   TileID(z: 3, x: 8, y: 1), TileID(z: 3, x: 2, y: -1), TileID(z: 31, x: 0, y: 0)] {
            XCTAssertEqual(folder.read(id), .missing, "\(id)", file: file, line: line)
        }
    }

    func testXYZFolderGivesEachTileAndItsExtent() throws {
        let root = try MBTilesFixture.directory("xyz", removedAfter: self) + "/map"
        try Self.makeFolder(root, scheme: .xyz)
        // An empty deeper zoom folder holds no tiles: it is not the deepest zoom.
        try FileManager.default.createDirectory(atPath: root + "/5/3", withIntermediateDirectories: true)

        let folder = try TileFolder(path: root)
        XCTAssertEqual(folder.scheme, .xyz)
        XCTAssertEqual(folder.fileExtension, "png")
        XCTAssertEqual(folder.tileCount, 7)
        let metadata = folder.metadata
        XCTAssertEqual(metadata.format, .png)
        XCTAssertEqual(metadata.minZoom, 2)
        XCTAssertEqual(metadata.maxZoom, 3)
        XCTAssertEqual(metadata.derivedKeys, ["bounds", "format", "maxzoom", "minzoom"])
        XCTAssertNil(metadata.center)
        XCTAssertNil(metadata.name)
        XCTAssertNil(metadata.attribution)
        assertDeepestExtent(metadata)
        assertReadsEveryTile(folder)
        XCTAssertFalse(try folder.hasBeenReplaced())
    }

    func testTMSFolderFlipsRowsBothForReadsAndExtent() throws {
        let root = try MBTilesFixture.directory("tms", removedAfter: self) + "/map"
        try Self.makeFolder(root, scheme: .tms)
        // Stored rows at zoom 3 are 6, 6, 5, 4: the same map the XYZ folder holds.
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/3/5/6.png"))

        let folder = try TileFolder(path: root, scheme: .tms)
        XCTAssertEqual(folder.scheme, .tms)
        XCTAssertEqual(folder.metadata.minZoom, 2)
        XCTAssertEqual(folder.metadata.maxZoom, 3)
        assertDeepestExtent(folder.metadata)
        assertReadsEveryTile(folder)

        // Taken for XYZ, the same files are another map: rows 4…6, mirrored about the equator.
        let wrong = try TileFolder(path: root, scheme: .xyz)
        XCTAssertEqual(wrong.metadata.bounds.north, latitude(4), accuracy: 1e-9)
        XCTAssertEqual(wrong.metadata.bounds.south, latitude(7), accuracy: 1e-9)
        XCTAssertEqual(wrong.read(TileID(z: 3, x: 5, y: 1)), .missing)
        XCTAssertEqual(wrong.read(TileID(z: 3, x: 5, y: 6)), .bytes(Self.bytes(z: 3, x: 5, y: 1)))
    }

    func testFormatComesFromTheExtension() throws {
        let dir = try MBTilesFixture.directory("formats", removedAfter: self)
        for (ext, format) in [("jpg", TileFormat.jpeg), ("jpeg", .jpeg), ("JPG", .jpeg), ("PNG", .png), ("webp", .webp)] {
            let root = dir + "/" + ext
            try Self.makeFolder(root, scheme: .xyz, ext: ext, format: format == .jpeg ? .jpeg : .png)
            let folder = try TileFolder(path: root)
            XCTAssertEqual(folder.metadata.format, format, ext)
            XCTAssertEqual(folder.fileExtension, ext)
            XCTAssertEqual(folder.read(TileID(z: 3, x: 3, y: 2)), .bytes(Self.bytes(z: 3, x: 3, y: 2, format: format == .jpeg ? .jpeg : .png)), ext)
        }
    }

    func testMixedFormatsAreRefusedNamingTwoTiles() throws {
        let dir = try MBTilesFixture.directory("mixed", removedAfter: self)
        let mixed = dir + "/mixed"
        try Self.makeFolder(mixed, scheme: .xyz)
        try Self.write(Self.bytes(z: 3, x: 3, y: 5, format: .jpeg), "3/3/5.jpg", in: mixed)
        let expected = TileFolderError.mixedFormats(path: mixed, first: "2/1/0.png", other: "3/3/5.jpg")
        XCTAssertThrowsError(try TileFolder(path: mixed)) { XCTAssertEqual($0 as? TileFolderError, expected) }
        XCTAssertEqual("\(expected)", "\(mixed): mixes tile formats (2/1/0.png and 3/3/5.jpg); a tile folder holds tiles of one format with one extension")

        // One format under two names still cannot be read by one name.
        let spellings = dir + "/spellings"
        try Self.makeFolder(spellings, scheme: .xyz, ext: "jpeg", format: .jpeg)
        try Self.write(Self.bytes(z: 2, x: 1, y: 2, format: .jpeg), "2/1/2.jpg", in: spellings)
        XCTAssertThrowsError(try TileFolder(path: spellings)) {
            XCTAssertEqual($0 as? TileFolderError, .mixedFormats(path: spellings, first: "2/1/0.jpeg", other: "2/1/2.jpg"))
        }
    }

    private func assertRefused(_ path: String, _ expected: TileFolderError, _ text: String? = nil,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try TileFolder(path: path), file: file, line: line) { error in
            XCTAssertEqual(error as? TileFolderError, expected, file: file, line: line)
            let description = "\(error)"
            XCTAssertTrue(description.hasPrefix(path + ": "), description, file: file, line: line)
            XCTAssertFalse(description.contains("\n"), description, file: file, line: line)
            if let text { XCTAssertEqual(description, text, file: file, line: line) }
        }
    }

    func testWhatIsNotATileFolderIsRefusedNamingIt() throws {
        let dir = try MBTilesFixture.directory("refused", removedAfter: self)
        let layout = "{z}/{x}/{y}.png, .jpg, .jpeg or .webp"

        let missing = dir + "/missing"
        assertRefused(missing, .unreadable(path: missing, SyscallError(call: "stat", object: missing, errno: ENOENT)),
                      "\(missing): cannot be read (No such file or directory); a tile folder laid out \(layout) is expected here")

        let file = dir + "/city.mbtiles"
        try Self.write([1, 2, 3], "city.mbtiles", in: dir)
        assertRefused(file, .notAFolder(path: file), "\(file): is not a folder; a tile folder laid out \(layout) is expected here")

        let empty = dir + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        assertRefused(empty, .noZoomFolders(path: empty),
                      "\(empty): holds no zoom folders (named 0 to 30); a tile folder is laid out \(layout)")

        // Names that are not zooms: a word, past the deepest zoom, a leading zero, a file.
        let noZooms = dir + "/nozooms"
        for name in ["tiles/3/2.png", "31/0/0.png", "05/1/1.png", "-1/0/0.png"] { try Self.write(Self.bytes(z: 0, x: 0, y: 0), name, in: noZooms) }
        try Self.write([0], "7", in: noZooms)
        assertRefused(noZooms, .noZoomFolders(path: noZooms))

        // Zoom folders with nothing that is a tile: other formats, names that are not rows, rows and
        // columns past the edge of the world at their zoom, a column that is a file.
        let noTiles = dir + "/notiles"
        for name in ["4/3/readme.txt", "4/3/2.gif", "4/3/02.png", "4/3/16.png", "4/3/x.png", "4/3/.png", "4/3/2",
                     "4/16/1.png", "1/2/0.png", "4/3/2.png.aux.xml"] {
            try Self.write(Self.bytes(z: 0, x: 0, y: 0), name, in: noTiles)
        }
        try Self.write([0], "4/5", in: noTiles)
        assertRefused(noTiles, .noTiles(path: noTiles), "\(noTiles): holds zoom folders but no tiles in them; a tile folder is laid out \(layout)")
    }

    func testAnUnreadableFolderIsNamed() throws {
        if geteuid() == 0 {
            // Root is refused nothing: the same test again as an unprivileged user.
            let run = try TestEnvironment.rerunAsNobody("TilesTests.TileFolderTests/testAnUnreadableFolderIsNamed")
            XCTAssertEqual(run.status, 0, run.output)
            XCTAssertTrue(run.output.contains("Executed 1 test, with 0 failures"), run.output)
            return
        }
        let root = try MBTilesFixture.directory("unreadable", removedAfter: self) + "/map"
        try Self.makeFolder(root, scheme: .xyz)
        XCTAssertEqual(chmod(root + "/3/2", 0), 0)
        defer { chmod(root + "/3/2", 0o755) }
        let error = SyscallError(call: "opendir", object: root + "/3/2", errno: EACCES)
        assertRefused(root, .unreadable(path: root, error),
                      "\(root): cannot be read (opendir \(root)/3/2: Permission denied); a tile folder laid out {z}/{x}/{y}.png, .jpg, .jpeg or .webp is expected here")
    }

    /// gdal2tiles writes HTML viewers and `tilemapresource.xml` beside the zooms, GDAL sometimes
    /// `.aux.xml` files beside tiles: none of them is a tile or changes the extent.
    func testWhatToolsWriteBesideTheTilesIsPassedOver() throws {
        let root = try MBTilesFixture.directory("beside", removedAfter: self) + "/map"
        try Self.makeFolder(root, scheme: .xyz)
        for name in ["openlayers.html", "leaflet.html", "tilemapresource.xml", "3/2/1.png.aux.xml", "3/2/notes", "12"] {
            try Self.write(Array("<xml/>".utf8), name, in: root)
        }
        try Self.write(Self.bytes(z: 3, x: 7, y: 7), "3/07/7.png", in: root)
        let folder = try TileFolder(path: root)
        XCTAssertEqual(folder.tileCount, 7)
        XCTAssertEqual(folder.metadata.maxZoom, 3)
        assertDeepestExtent(folder.metadata)
        XCTAssertEqual(folder.read(TileID(z: 3, x: 7, y: 7)), .missing)
    }

    func testATileThatCannotBeReadFailsNamingIt() throws {
        let root = try MBTilesFixture.directory("failed", removedAfter: self) + "/map"
        try Self.makeFolder(root, scheme: .xyz)
        try FileManager.default.createDirectory(atPath: root + "/3/4/2.png", withIntermediateDirectories: true)
        // A column that is a file holds no tiles: missing, not failed.
        try Self.write([0], "3/6", in: root)
        // Past the limit a tile is refused before it fills memory.
        try Self.write([UInt8](repeating: 7, count: TileFolder.tileByteLimit + 1), "2/3/3.png", in: root)

        let folder = try TileFolder(path: root)
        XCTAssertEqual(folder.read(TileID(z: 3, x: 4, y: 2)), .failed("tile 3/4/2: read \(root)/3/4/2.png: Is a directory (errno 21)"))
        XCTAssertEqual(folder.read(TileID(z: 3, x: 6, y: 2)), .missing)
        XCTAssertEqual(folder.read(TileID(z: 2, x: 3, y: 3)), .failed("tile 2/3/3: read \(root)/2/3/3.png: File too large (errno 27)"))
        XCTAssertEqual(folder.read(TileID(z: 3, x: 3, y: 2)), .bytes(Self.bytes(z: 3, x: 3, y: 2)))
    }

    /// A folder replaced under its path, by a symbolic link pointed elsewhere or by moving folders,
    /// is noticed; reads stay on the folder that was listed until it is reopened.
    func testReplacedFolderIsNoticedAndNotReadUntilReopened() throws {
        let dir = try MBTilesFixture.directory("replaced", removedAfter: self)
        try Self.makeFolder(dir + "/old", scheme: .xyz)
        try Self.write(Self.bytes(z: 0, x: 0, y: 0), "new/0/0/0.png", in: dir)
        let path = dir + "/map"
        XCTAssertEqual(symlink("old", path), 0)

        let folder = try TileFolder(path: path)
        XCTAssertFalse(try folder.hasBeenReplaced())
        XCTAssertEqual(symlink("new", dir + "/map.next"), 0)
        XCTAssertEqual(rename(dir + "/map.next", path), 0)
        XCTAssertTrue(try folder.hasBeenReplaced())
        XCTAssertEqual(folder.read(TileID(z: 3, x: 5, y: 1)), .bytes(Self.bytes(z: 3, x: 5, y: 1)))
        XCTAssertEqual(folder.read(TileID(z: 0, x: 0, y: 0)), .missing)
        let reopened = try TileFolder(path: path)
        XCTAssertEqual(reopened.metadata.maxZoom, 0)
        XCTAssertEqual(reopened.read(TileID(z: 0, x: 0, y: 0)), .bytes(Self.bytes(z: 0, x: 0, y: 0)))

        // A real folder moved aside, another moved in its place.
        let moved = dir + "/moved"
        XCTAssertEqual(rename(dir + "/old", moved), 0)
        let byFolder = try TileFolder(path: moved)
        XCTAssertEqual(rename(moved, dir + "/aside"), 0)
        XCTAssertEqual(rename(dir + "/new", moved), 0)
        XCTAssertTrue(try byFolder.hasBeenReplaced())
        XCTAssertEqual(byFolder.read(TileID(z: 2, x: 2, y: 0)), .bytes(Self.bytes(z: 2, x: 2, y: 0)))

        XCTAssertEqual(unlink(path), 0)
        XCTAssertThrowsError(try reopened.hasBeenReplaced()) {
            XCTAssertEqual($0 as? SyscallError, SyscallError(call: "stat", object: path, errno: ENOENT))
        }
    }

    func testReadsAfterCloseFailAndNoDescriptorIsLeft() throws {
        let dir = try MBTilesFixture.directory("close", removedAfter: self)
        let root = dir + "/map"
        try Self.makeFolder(root, scheme: .xyz)
        try FileManager.default.createDirectory(atPath: dir + "/zoomless/x", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/tileless/3/3", withIntermediateDirectories: true)
        let before = try Directory.entries("/proc/self/fd").count
        for _ in 0..<20 {
            XCTAssertThrowsError(try TileFolder(path: dir + "/zoomless"))
            XCTAssertThrowsError(try TileFolder(path: dir + "/tileless"))
            _ = try TileFolder(path: root).read(TileID(z: 2, x: 1, y: 0))
        }
        XCTAssertEqual(try Directory.entries("/proc/self/fd").count, before)

        let folder = try TileFolder(path: root)
        XCTAssertFalse(folder.isClosed)
        folder.close()
        folder.close()
        XCTAssertTrue(folder.isClosed)
        XCTAssertEqual(folder.read(TileID(z: 2, x: 1, y: 0)), .failed("tile 2/1/0: \(root): was read after it was closed"))
    }

    func testTileStoreReadsAFolderLikeAFile() throws {
        let root = try MBTilesFixture.directory("store", removedAfter: self) + "/map"
        try Self.makeFolder(root, scheme: .tms, ext: "jpg", format: .jpeg)
        let store: any TileStore = try TileFolder(path: root, scheme: .tms)
        XCTAssertEqual(store.path, root)
        XCTAssertEqual(store.metadata.format, .jpeg)
        XCTAssertEqual(store.read(TileID(z: 3, x: 2, y: 3)), .bytes(Self.bytes(z: 3, x: 2, y: 3, format: .jpeg)))
    }
}
