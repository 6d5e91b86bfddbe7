import Raster

/// Vehicles on the map: each a picture moved along a path of map pixels at a steady pace over a
/// span of time, so a marker glides between two reports of its place instead of jumping. Paths,
/// pictures and times are set off the frame path (`setMarkers`); a frame moves each marker to its
/// place at that instant (whole pixels, so the map layer's pixels do not depend on the view) and
/// damages its old and new rectangles only when it moved.
public final class MarkerLayer: Layer {
    /// One marker's picture and motion.
    public struct Motion {
        public var picture: Overlay
        /// The picture's anchor (the vehicle's place) inside it, pixels.
        public var anchorX: Int
        public var anchorY: Int
        /// The path in map pixels, and 1/256-px lengths along it from its start.
        public var path: ContiguousArray<Point256>
        public var start: Double
        public var duration: Double

        public init(picture: Overlay, anchorX: Int, anchorY: Int, path: [Point256], start: Double, duration: Double) {
            self.picture = picture
            self.anchorX = anchorX
            self.anchorY = anchorY
            self.path = ContiguousArray(path.isEmpty ? [Point256(x256: 0, y256: 0)] : path)
            self.start = start
            self.duration = duration
        }
    }

    private struct Slot {
        var motion: Motion
        var lengths: ContiguousArray<Int64>
        /// Canvas rectangle drawn last; empty before the first frame.
        var drawn: Rect
        /// Where the frame that last took the damage drew it: the place to restore when it moved.
        var taken: Rect = .empty
    }

    private var slots: ContiguousArray<Slot> = []
    /// Places of markers replaced, or left when the view moved, not taken yet.
    private var gone = DamageRegion()
    /// The map pixel at the canvas's top-left corner.
    public private(set) var view = (x: 0, y: 0)

    public init() {}

    public var count: Int { slots.count }

    /// Replaces the markers (off the frame path: it allocates). The old ones' places are damaged.
    public func setMarkers(_ motions: [Motion]) {
        forgetPlaces()
        slots = ContiguousArray(motions.map { m in
            var lengths = ContiguousArray<Int64>(repeating: 0, count: m.path.count)
            for i in 1..<max(1, m.path.count) {
                let dx = Double(m.path[i].x256 - m.path[i - 1].x256), dy = Double(m.path[i].y256 - m.path[i - 1].y256)
                lengths[i] = lengths[i - 1] + Int64((dx * dx + dy * dy).squareRoot().rounded())
            }
            return Slot(motion: m, lengths: lengths, drawn: .empty)
        })
    }

    /// The map's view moved (the canvas's top-left is map pixel x, y): every marker is drawn anew.
    public func setView(x: Int, y: Int) {
        guard view.x != x || view.y != y else { return }
        forgetPlaces()
        view = (x, y)
    }

    /// Every marker's places become damage of their own; the next `advance` places them anew.
    private func forgetPlaces() {
        for i in slots.indices {
            gone.add(slots[i].taken)
            gone.add(slots[i].drawn)
            slots[i].taken = .empty
            slots[i].drawn = .empty
        }
    }

    /// Moves every marker to its place at `t` (monotonic seconds); allocates nothing.
    public func advance(to t: Double) {
        for i in slots.indices {
            let p = place(slots[i], at: t)
            let m = slots[i].motion
            let r = Rect(x: p.x - view.x - m.anchorX, y: p.y - view.y - m.anchorY, width: m.picture.width, height: m.picture.height)
            if r == slots[i].drawn { continue }
            slots[i].drawn = r
            slots[i].motion.picture.x = r.x
            slots[i].motion.picture.y = r.y
        }
    }

    /// The whole map pixel a marker stands on at `t`.
    private func place(_ s: Slot, at t: Double) -> (x: Int, y: Int) {
        let m = s.motion
        let total = s.lengths[s.lengths.count - 1]
        var f = m.duration > 0 ? (t - m.start) / m.duration : 1
        if !(f > 0) { f = 0 }
        if f > 1 { f = 1 }
        let along = Int64((f * Double(total)).rounded(.down))
        var i = 1
        while i < s.lengths.count - 1 && s.lengths[i] < along { i += 1 }
        let a = m.path[max(0, i - 1)], b = m.path[min(i, m.path.count - 1)]
        let span = s.lengths.count > 1 ? s.lengths[i] - s.lengths[i - 1] : 0
        let k = span > 0 ? along - s.lengths[i - 1] : 0
        let x256 = Int64(a.x256) + (span > 0 ? (Int64(b.x256) - Int64(a.x256)) * k / span : 0)
        let y256 = Int64(a.y256) + (span > 0 ? (Int64(b.y256) - Int64(a.y256)) * k / span : 0)
        return (Int((x256 + 128) >> 8), Int((y256 + 128) >> 8))
    }

    public var frame: Rect {
        var r = Rect.empty
        for s in slots { r = r.union(s.drawn) }
        return r
    }

    public func takeDamage() -> Rect {
        var r = gone.bounds
        gone.removeAll()
        for i in slots.indices where slots[i].taken != slots[i].drawn {
            r = r.union(slots[i].taken).union(slots[i].drawn)
            slots[i].taken = slots[i].drawn
        }
        return r
    }

    /// Each marker that moved, its old and new places apart, and only what lies inside `bounds`:
    /// vehicles off the view take no place in the frame's damage.
    public func takeDamage(into region: inout DamageRegion, within bounds: Rect) {
        for i in 0..<gone.count { region.add(gone[i].intersection(bounds)) }
        gone.removeAll()
        for i in slots.indices where slots[i].taken != slots[i].drawn {
            region.add(slots[i].taken.intersection(bounds))
            region.add(slots[i].drawn.intersection(bounds))
            slots[i].taken = slots[i].drawn
        }
    }

    public func draw(into canvas: PixelBuffer, clip: Rect) {
        for s in slots where !s.drawn.intersection(clip).isEmpty { s.motion.picture.draw(into: canvas, clip: clip) }
    }
}
