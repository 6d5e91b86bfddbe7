/// gpsd's mode: 0 and 1 carry no position; 2 and 3 may.
public enum FixMode: Int, Comparable, Sendable, CustomStringConvertible {
    case unknown = 0
    case noFix = 1
    case twoD = 2
    case threeD = 3

    public static func < (a: FixMode, b: FixMode) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .noFix: "no fix"
        case .twoD: "2D"
        case .threeD: "3D"
        }
    }
}
