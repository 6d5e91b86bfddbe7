import GTFS
import Syscall

/// Why a feed could not be imported or an index read, in one line naming the file (and the line
/// and column when the problem is in the feed's text).
public enum TransitError: Error, CustomStringConvertible {
    case feed(GTFSError)
    case database(path: String, doing: String, message: String)
    case system(SyscallError)
    case noSpace(directory: String, needed: Int64, available: Int64)

    public var description: String {
        switch self {
        case .feed(let error): return error.description
        case .database(let path, let doing, let message): return "\(path): \(doing): \(message)"
        case .system(let error): return error.description
        case .noSpace(let directory, let needed, let available):
            return "\(directory): not enough free space to import the feed: \(Self.megabytes(needed)) needed, \(Self.megabytes(available)) free"
        }
    }

    static func megabytes(_ bytes: Int64) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
