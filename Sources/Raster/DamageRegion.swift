/// What changed in a frame, as a few disjoint rectangles: markers spread over a screen change a
/// handful of small places, and their union would be most of the screen. Overlapping
/// rectangles are joined as they are added, so every pixel is restored, drawn and copied out
/// once; past `capacity` the rectangle whose joining grows the area least takes the newcomer.
/// Fixed storage, so a frame's damage allocates nothing.
public struct DamageRegion: Equatable, Sendable {
    /// Rectangles kept before joining any: a frame with the dot, a banner and twenty vehicles
    /// stays apart.
    public static let capacity = 24
    /// How far from the canvas's origin a part may reach; beyond it a part is cut (nothing is
    /// drawn there: canvases are far smaller).
    public static let limit = Int(Int16.max)

    /// Parts as 16-bit numbers: a frame hands its damage on by value several times, so every
    /// byte of the fixed storage is copied as often.
    private struct Part: Equatable {
        var x: Int16, y: Int16, maxX: Int16, maxY: Int16

        init(_ r: Rect) {
            let l = DamageRegion.limit
            (x, y) = (Int16(min(max(r.x, -l), l)), Int16(min(max(r.y, -l), l)))
            (maxX, maxY) = (Int16(min(max(r.maxX, -l), l)), Int16(min(max(r.maxY, -l), l)))
        }

        var rect: Rect { Rect(x: Int(x), y: Int(y), width: Int(maxX) - Int(x), height: Int(maxY) - Int(y)) }

        func meets(_ o: Part) -> Bool { x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY }

        func union(_ o: Part) -> Part {
            var u = self
            (u.x, u.y, u.maxX, u.maxY) = (min(x, o.x), min(y, o.y), max(maxX, o.maxX), max(maxY, o.maxY))
            return u
        }

        var area: Int { (Int(maxX) - Int(x)) * (Int(maxY) - Int(y)) }
    }

    private var parts: InlineArray<24, Part> = InlineArray(repeating: Part(.empty))
    public private(set) var count = 0

    public init() {}

    public init(_ rect: Rect) { add(rect) }

    // Readers take `self` where it lies (`@_addressableSelf`): otherwise every read of the fixed
    // storage copies all of it first.

    public subscript(i: Int) -> Rect {
        @_addressableSelf get {
            precondition(i >= 0 && i < count, "damage rectangle \(i) of \(count)")
            return parts[i].rect
        }
    }

    public var isEmpty: Bool { count == 0 }

    /// The smallest rectangle holding every part.
    public var bounds: Rect {
        @_addressableSelf get {
        if count == 0 { return .empty }
        var u = parts[0]
        for i in 1..<count { u = u.union(parts[i]) }
        return u.rect
        }
    }

    /// Pixels covered (the parts never overlap).
    public var area: Int {
        @_addressableSelf get {
            var a = 0
            for i in 0..<count { a += parts[i].area }
            return a
        }
    }

    /// Adds `rect`, joined with every part it overlaps.
    public mutating func add(_ rect: Rect) {
        let p = Part(rect)
        if p.maxX <= p.x || p.maxY <= p.y { return }
        add(p)
    }

    private mutating func add(_ part: Part) {
        var p = part
        var i = 0
        while i < count {
            if !parts[i].meets(p) {
                i += 1
                continue
            }
            // The joined rectangle may reach parts already passed: look again from the start.
            p = p.union(parts[i])
            remove(at: i)
            i = 0
        }
        if count == Self.capacity {
            var best = 0, growth = Int.max
            for j in 0..<count {
                let g = parts[j].union(p).area - parts[j].area
                if g < growth { (best, growth) = (j, g) }
            }
            p = p.union(parts[best])
            remove(at: best)
            add(p)
            return
        }
        parts[count] = p
        count += 1
    }

    public mutating func add(_ other: DamageRegion) {
        for i in 0..<other.count { add(other[i]) }
    }

    /// Forgets every part.
    public mutating func removeAll() { count = 0 }

    /// Whether any part overlaps `rect`.
    @_addressableSelf
    public func meets(_ rect: Rect) -> Bool {
        if rect.isEmpty { return false }
        let p = Part(rect)
        for i in 0..<count where parts[i].meets(p) { return true }
        return false
    }

    private mutating func remove(at i: Int) {
        count -= 1
        parts[i] = parts[count]
    }

    public static func == (a: DamageRegion, b: DamageRegion) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] { return false }
        return true
    }
}
