/// A PNG that could not be read or written: which file (or "<memory>") and what went wrong, as one
/// line a person can act on, e.g. `dot.png: has no alpha channel; ...`.
public struct PNGError: Error, Equatable, CustomStringConvertible, Sendable {
    public let file: String
    public let problem: String

    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file): \(problem)" }
}
