import Syscall

/// Why an MBTiles file cannot be used. Every case names the file; the description is one line a
/// person can act on, e.g. `/srv/city.mbtiles: holds vector tiles (format=pbf); PulseDot draws raster tiles (png, jpg)`.
public enum MBTilesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// stat failed: missing, a component not a directory, no permission.
    case unreadable(path: String, SyscallError)
    /// A directory, device or other non-regular file.
    case notAFile(path: String)
    /// SQLite says the bytes are not a database.
    case notSQLite(path: String)
    /// A database without the `tiles` table or view every MBTiles file has.
    case noTiles(path: String)
    case noMetadata(path: String)
    /// `tiles` exists but holds no row: nothing to draw, and nothing to derive bounds or zooms from.
    case empty(path: String)
    /// `format` is nil when the file has no format key and its tiles are compressed data.
    case vectorTiles(path: String, format: String?)
    case unknownFormat(path: String, format: String)
    /// No `format` key and a first tile that is none of PNG, JPEG or WebP.
    case undeterminedFormat(path: String)
    /// A metadata value that does not say what its key must: `expected` tells what would.
    case badMetadata(path: String, key: String, value: String, expected: String)
    /// Any other SQLite failure: what was being done and SQLite's own message (sqlite3_errmsg).
    case sqlite(path: String, doing: String, code: Int32, message: String)
    /// A read after `close()`.
    case closed(path: String)

    public var path: String {
        switch self {
        case let .unreadable(path, _), let .notAFile(path), let .notSQLite(path), let .noTiles(path),
             let .noMetadata(path), let .empty(path), let .vectorTiles(path, _), let .unknownFormat(path, _),
             let .undeterminedFormat(path), let .badMetadata(path, _, _, _), let .sqlite(path, _, _, _),
             let .closed(path):
            return path
        }
    }

    public var description: String {
        let rasters = "png, jpg, webp"
        let problem: String
        switch self {
        case let .unreadable(_, error):
            problem = "cannot be read (\(error.message)); an MBTiles map file is expected here"
        case .notAFile:
            problem = "is not a regular file; an MBTiles map file is expected here"
        case .notSQLite:
            problem = "is not an SQLite database, so not an MBTiles file"
        case .noTiles:
            problem = "is not an MBTiles file: the database has no tiles table or view"
        case .noMetadata:
            problem = "is not an MBTiles file: the database has no metadata table"
        case .empty:
            problem = "holds no tiles (the tiles table is empty)"
        case let .vectorTiles(_, format):
            let what = format.map { "format=\(Self.oneLine($0))" } ?? "no format key, compressed tiles"
            problem = "holds vector tiles (\(what)); PulseDot draws raster tiles (png, jpg)"
        case let .unknownFormat(_, format):
            problem = "tile format \"\(Self.oneLine(format))\" is not one PulseDot reads (\(rasters))"
        case .undeterminedFormat:
            problem = "has no format in its metadata and its first tile is none of PNG, JPEG, WebP"
        case let .badMetadata(_, key, value, expected):
            problem = "metadata \(key) \"\(Self.oneLine(value))\" is not \(expected)"
        case let .sqlite(_, doing, code, message):
            problem = "SQLite failed \(doing): \(message) (code \(code))"
        case .closed:
            problem = "was read after it was closed"
        }
        return "\(path): \(problem)"
    }

    /// Values come from the file, which may hold anything: control characters are shown escaped so
    /// the message stays one line in the journal.
    static func oneLine(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
