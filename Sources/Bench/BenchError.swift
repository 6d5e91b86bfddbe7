/// Why a benchmark cannot be set up (its tiles file, a codec): the failing part's own line.
public struct BenchError: Error, CustomStringConvertible {
    public let description: String

    public init<E: Error & CustomStringConvertible>(_ error: E) { description = error.description }
}
