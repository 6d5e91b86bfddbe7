import Syscall
import Transit

/// `[transit] tripFile`: the trip an onboard computer names in a file. Read on the transit
/// worker when the file changes (a small read, never on the frame path); what it names, or why
/// it names nothing, goes back to the loop as a message.
enum TripFile {
    /// What the file says: the trip of its first line that is not blank or a `#` comment.
    static func read(_ path: String) -> Result<TripChoice, TripFileProblem> {
        let text: String
        do { text = String(decoding: try FileDescriptor.readWholeFile(path, limit: 4096), as: UTF8.self) } catch {
            return .failure(TripFileProblem(path: path, line: nil, message: error.message))
        }
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = String(raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            let trimmed = String(line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " "))
            if trimmed.isEmpty { continue }
            do throws(TransitError) {
                return .success(try TripChoice.parse(trimmed))
            } catch {
                if case .tripChoice(_, let message) = error { return .failure(TripFileProblem(path: path, line: number, message: message)) }
                return .failure(TripFileProblem(path: path, line: number, message: error.description))
            }
        }
        return .failure(TripFileProblem(path: path, line: nil, message: "names no trip"))
    }
}

/// Why the trip file names no trip now, in one line: the file, the line, what is wrong.
struct TripFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    let path: String
    let line: Int?
    let message: String
    var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
