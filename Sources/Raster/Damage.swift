/// Dirty-region bookkeeping for double buffering. A buffer that was last written two frames ago
/// must receive this frame's and the previous frame's damage: `union`.
public struct Damage: Equatable, Sendable {
    public let bounds: Rect
    /// What changed in this frame so far.
    public private(set) var current = DamageRegion()
    /// What changed in the previous frame.
    public private(set) var previous = DamageRegion()

    public init(bounds: Rect) { self.bounds = bounds }

    /// Marks `rect` (clipped to the canvas) as changed in this frame.
    public mutating func add(_ rect: Rect) {
        current.add(rect.intersection(bounds))
    }

    /// Marks every part of `region` (clipped to the canvas) as changed in this frame.
    public mutating func add(_ region: DamageRegion) {
        for i in 0..<region.count { current.add(region[i].intersection(bounds)) }
    }

    /// Marks the whole canvas changed (first frame, a new background, a modeset).
    public mutating func addAll() { current = DamageRegion(bounds) }

    /// This frame's and the previous frame's damage together.
    public var union: DamageRegion {
        var u = current
        u.add(previous)
        return u
    }

    /// Closes the frame: its damage becomes the previous frame's.
    public mutating func endFrame() {
        previous = current
        current.removeAll()
    }
}
