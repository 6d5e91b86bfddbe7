/// Dirty-rectangle bookkeeping for double buffering. A frame's damage is one rectangle (the union
/// of what changed, clipped to the canvas). A buffer that was last written two frames ago must
/// receive this frame's and the previous frame's damage: `union`.
public struct Damage: Equatable, Sendable {
    public let bounds: Rect
    /// What changed in this frame so far.
    public private(set) var current: Rect = .empty
    /// What changed in the previous frame.
    public private(set) var previous: Rect = .empty

    public init(bounds: Rect) { self.bounds = bounds }

    /// Marks `rect` (clipped to the canvas) as changed in this frame.
    public mutating func add(_ rect: Rect) {
        current = current.union(rect.intersection(bounds))
    }

    /// Marks the whole canvas changed (first frame, a new background, a modeset).
    public mutating func addAll() { current = bounds }

    /// This frame's and the previous frame's damage together.
    public var union: Rect { current.union(previous) }

    /// Closes the frame: its damage becomes the previous frame's.
    public mutating func endFrame() {
        previous = current
        current = .empty
    }
}
