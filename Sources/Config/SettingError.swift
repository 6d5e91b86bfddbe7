/// Where a setting's value came from: the command line (`--set`), or a line of a configuration
/// file. Relative PNG paths in a file are taken relative to that file's directory.
public struct SettingOrigin: Equatable, Sendable {
    public var file: String?
    public var line: Int?

    public init(file: String? = nil, line: Int? = nil) {
        self.file = file
        self.line = line
    }

    public static let commandLine = SettingOrigin()
}

/// A setting that cannot be used, as one line naming where, the key, the value and what is
/// allowed: `pulsedot.conf:12: colorDotInset = 11: out of range (0 ≤ value < 11)`.
/// `key` is as a user writes it after `--set`: bare for `[dot]`, `section.key` otherwise.
public struct SettingError: Error, Equatable, CustomStringConvertible, Sendable {
    public var file: String?
    public var line: Int?
    public let key: String
    public let value: String
    public let problem: String

    public init(key: String, value: String, problem: String, origin: SettingOrigin = .commandLine) {
        self.key = key
        self.value = value
        self.problem = problem
        self.file = origin.file
        self.line = origin.line
    }

    public var description: String {
        var prefix = ""
        if let file { prefix = line.map { "\(file):\($0): " } ?? "\(file): " }
        return "\(prefix)\(key) = \(value): \(problem)"
    }
}

/// What is wrong with a value, before the table adds the key and the origin.
struct SettingProblem: Error {
    let text: String
    init(_ text: String) { self.text = text }
}
