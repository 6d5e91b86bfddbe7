/// The clockwise turn applied to the content on its way to the panel (kms.md): with `.r90`, logical
/// (x, y) on an H×W logical canvas lands on physical (W−1−y, x) of the W×H panel. Everything
/// upstream draws on the logical canvas; only copy-out turns.
public enum Rotation: Int, CaseIterable, Sendable {
    case r0 = 0, r90 = 90, r180 = 180, r270 = 270

    public init?(degrees: Int) { self.init(rawValue: degrees) }

    public var degrees: Int { rawValue }

    /// Whether width and height swap between the logical canvas and the panel.
    public var swapsAxes: Bool { self == .r90 || self == .r270 }

    /// The panel's size for a logical canvas (and, since the swap is its own inverse, the logical
    /// canvas for a panel).
    public func physicalSize(logicalWidth w: Int, logicalHeight h: Int) -> (width: Int, height: Int) {
        swapsAxes ? (h, w) : (w, h)
    }

    public func logicalSize(physicalWidth w: Int, physicalHeight h: Int) -> (width: Int, height: Int) {
        swapsAxes ? (h, w) : (w, h)
    }

    /// Where logical pixel (x, y) lands on the panel.
    public func map(x: Int, y: Int, logicalWidth w: Int, logicalHeight h: Int) -> (x: Int, y: Int) {
        switch self {
        case .r0: return (x, y)
        case .r90: return (h - 1 - y, x)
        case .r180: return (w - 1 - x, h - 1 - y)
        case .r270: return (y, w - 1 - x)
        }
    }

    /// The panel rectangle holding exactly the pixels of logical `rect`.
    public func map(rect r: Rect, logicalWidth w: Int, logicalHeight h: Int) -> Rect {
        if r.isEmpty { return .empty }
        switch self {
        case .r0: return r
        case .r90: return Rect(x: h - r.y - r.height, y: r.x, width: r.height, height: r.width)
        case .r180: return Rect(x: w - r.x - r.width, y: h - r.y - r.height, width: r.width, height: r.height)
        case .r270: return Rect(x: r.y, y: w - r.x - r.width, width: r.height, height: r.width)
        }
    }

    /// The turn that undoes this one.
    public var inverse: Rotation {
        switch self {
        case .r0: return .r0
        case .r90: return .r270
        case .r180: return .r180
        case .r270: return .r90
        }
    }
}
