import Syscall
import Transit

/// `[transit] tripFile`: the trip an onboard computer names in a file. Read on the transit
/// worker when the file changes (a small read, never on the frame path); what it names, or why
/// it names nothing, goes back to the loop as a message.
enum TripFile {
    /// What the file says: the trip (or `block BLOCK_ID`) of its first line that is not blank or
    /// a `#` comment.
    static func read(_ path: String) -> Result<TripFileChoice, TripFileProblem> {
        let text: String
        do { text = String(decoding: try FileDescriptor.readWholeFile(path, limit: 4096), as: UTF8.self) } catch {
            return .failure(TripFileProblem(path: path, line: nil, message: error.message))
        }
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = uncommented(raw)
            let trimmed = String(line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " "))
            if trimmed.isEmpty { continue }
            if trimmed == "block" || trimmed.hasPrefix("block ") {
                let id = String(trimmed.dropFirst(5).drop { $0 == " " })
                if id.isEmpty { return .failure(TripFileProblem(path: path, line: number, message: "'block' without a block_id")) }
                return .success(.block(id))
            }
            do throws(TransitError) {
                return .success(.trip(try TripChoice.parse(trimmed)))
            } catch {
                if case .tripChoice(_, let message) = error { return .failure(TripFileProblem(path: path, line: number, message: message)) }
                return .failure(TripFileProblem(path: path, line: number, message: error.description))
            }
        }
        return .failure(TripFileProblem(path: path, line: nil, message: "names no trip"))
    }

    /// The line before its comment: a `#` at the start or after a blank begins one; inside a word
    /// it is part of the id (`A12-3@1#0815`).
    static func uncommented(_ line: Substring) -> String {
        var previous: Character = " "
        for i in line.indices {
            if line[i] == "#", previous == " " || previous == "\t" { return String(line[..<i]) }
            previous = line[i]
        }
        return String(line)
    }
}

/// What a trip file names: one trip, or a block (that block's trips of the service day, one after
/// the other).
enum TripFileChoice: Sendable, Equatable, CustomStringConvertible {
    case trip(TripChoice)
    case block(String)

    var description: String {
        switch self {
        case .trip(let choice): return "trip \(choice)"
        case .block(let id): return "block \(id)"
        }
    }
}

/// Why the trip file names no trip now, in one line: the file, the line, what is wrong.
struct TripFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    let path: String
    let line: Int?
    let message: String
    var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
