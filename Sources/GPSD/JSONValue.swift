/// A parsed JSON value. gpsd's objects are small and flat enough that a tree is the simplest
/// correct representation; the line framer bounds how large any tree can get.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// Numbers are kept as Double; JSON's grammar has no NaN or infinity, but an exponent like
    /// 1e400 overflows to infinity here, which field validation then rejects.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The JSON type's name, for messages such as `"lat" is a string, expected a number`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Why a line is not JSON, with the byte offset where the parser gave up.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible, Sendable {
    public let offset: Int
    public let problem: String
    public var description: String { "\(problem) at byte \(offset)" }
}
