import GTFS
import Syscall

/// Why a feed could not be imported or an index read, in one line naming the file (and the line
/// and column when the problem is in the feed's text).
public enum TransitError: Error, CustomStringConvertible {
    case feed(GTFSError)
    case database(path: String, doing: String, message: String)
    case system(SyscallError)
    case noSpace(directory: String, needed: Int64, available: Int64)
    /// A `trip = TRIP_ID[@HH:MM:SS]` setting that is not one, or names no run of the trip.
    case tripChoice(text: String, message: String)
    /// A trip_id the index does not hold.
    case noSuchTrip(path: String, tripID: String)
    /// An agency_timezone that names no readable zone.
    case timeZone(name: String, message: String)

    public var description: String {
        switch self {
        case .feed(let error): return error.description
        case .database(let path, let doing, let message): return "\(path): \(doing): \(message)"
        case .system(let error): return error.description
        case .noSpace(let directory, let needed, let available):
            return "\(directory): not enough free space to import the feed: \(Self.megabytes(needed)) needed, \(Self.megabytes(available)) free"
        case .tripChoice(let text, let message): return GTFSError.oneLine("trip '\(text)': \(message)")
        case .noSuchTrip(let path, let tripID): return GTFSError.oneLine("\(path): no trip '\(tripID)' in the feed's trips.txt")
        case .timeZone(let name, let message): return GTFSError.oneLine("time zone '\(name)' (agency_timezone): \(message)")
        }
    }

    static func megabytes(_ bytes: Int64) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
