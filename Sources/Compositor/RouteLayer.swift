import Raster

/// A transit route on the map: its line, the travelled part dimmed, its stops, the next stop
/// emphasised and the terminus marked. Everything is held in map pixels and set off the frame
/// path (points snapped to 1/256 px once, the line's segments and scratch sized then); a frame
/// only draws, in the view its owner set, and the damage it reports is what changed: around the
/// old and new travelled boundary, or the two stops that swapped being next.
public final class RouteLayer: Layer {
    public private(set) var style: RouteStyle
    private var stroke: StrokeStyle
    private var stopMarker: RingMarker
    private var nextMarker: RingMarker
    private var terminusMarker: RingMarker
    private let line: Polyline
    private var stops: ContiguousArray<Point256> = []
    /// The stop shown as next (an index into the stops), nil when none is known.
    public private(set) var nextStop: Int?
    /// The map pixel at the canvas's top-left corner.
    public private(set) var view = (x: 0, y: 0)
    /// Map pixels: all the layer may cover, and what changed since `takeDamage`.
    private var mapBounds = Rect.empty
    private var damage = Rect.empty

    /// `rowCapacity`: pixels of scratch per row, allocated here; a wider clip is drawn in pieces.
    public init(style: RouteStyle, rowCapacity: Int = 2048) {
        self.style = style
        stroke = style.stroke
        stopMarker = style.stop
        nextMarker = style.nextStop
        terminusMarker = style.terminus
        line = Polyline(rowCapacity: rowCapacity)
    }

    /// The line's length, 1/256 px.
    public var length256: Int64 { line.length256 }
    /// The travelled distance along the line, 1/256 px.
    public var travelled256: Int64 { line.travelled256 }

    /// The route's shape in map pixels; nothing is travelled on a new route.
    public func setRoute(_ points: [Point256]) {
        damage = damage.union(mapBounds)
        line.set(points)
        remeasure()
    }

    /// The same from pixels as Doubles, snapped here (off the frame path).
    public func setRoute(x: [Double], y: [Double]) {
        setRoute((0..<min(x.count, y.count)).map { Point256(x: x[$0], y: y[$0]) })
    }

    /// The stops in map pixels in route order, the last one the terminus; no next stop is kept.
    public func setStops(_ points: [Point256]) {
        damage = damage.union(mapBounds)
        stops = ContiguousArray(points)
        nextStop = nil
        remeasure()
    }

    /// Emphasises stop `index` (nil: none); only the two markers concerned are damaged.
    public func setNextStop(_ index: Int?) {
        let valid = index.flatMap { $0 >= 0 && $0 < stops.count ? $0 : nil }
        if valid == nextStop { return }
        if let old = nextStop { damage = damage.union(markerBounds(old)) }
        nextStop = valid
        if let new = valid { damage = damage.union(markerBounds(new)) }
    }

    /// Moves the travelled boundary to `distance256` along the line; the line around the old and
    /// the new boundary, and between them, is damaged.
    public func setTravelled(distance256: Int64) {
        let old = line.travelled256
        line.setTravelled(distance256)
        changedTravelled(from: old)
    }

    /// Moves it to point `index` of the route plus `fraction256`/256 of the way to the next.
    public func setTravelled(segment index: Int, fraction256: Int) {
        let old = line.travelled256
        line.setTravelled(segment: index, fraction256: fraction256)
        changedTravelled(from: old)
    }

    private func changedTravelled(from old: Int64) {
        let new = line.travelled256
        if new == old { return }
        damage = damage.union(line.bounds(between: old, and: new, margin256: stroke.reach256 + 256))
    }

    /// A new look: everything the layer covered before and covers now is damaged.
    public func setStyle(_ style: RouteStyle) {
        if style == self.style { return }
        damage = damage.union(mapBounds)
        self.style = style
        stroke = style.stroke
        stopMarker = style.stop
        nextMarker = style.nextStop
        terminusMarker = style.terminus
        remeasure()
    }

    /// The map pixel at the canvas's top-left corner. No damage: the renderer moves what the
    /// canvas shows with the map and draws only what that uncovered.
    public func setView(x: Int, y: Int) { view = (x, y) }

    private func remeasure() {
        var r = line.bounds(margin256: stroke.reach256)
        for i in stops.indices { r = r.union(markerBounds(i)) }
        mapBounds = r
        damage = damage.union(r)
    }

    private func marker(_ i: Int) -> RingMarker {
        if i == stops.count - 1 { return terminusMarker }
        return i == nextStop ? nextMarker : stopMarker
    }

    /// Where stop `i` may be drawn whether it is next or not.
    private func markerBounds(_ i: Int) -> Rect {
        let p = stops[i]
        return stopMarker.bounds(at: p).union(nextMarker.bounds(at: p)).union(terminusMarker.bounds(at: p))
    }

    public var frame: Rect { Self.shifted(mapBounds, view) }

    public func takeDamage() -> Rect {
        let d = Self.shifted(damage, view)
        damage = .empty
        return d
    }

    static func shifted(_ r: Rect, _ view: (x: Int, y: Int)) -> Rect {
        r.isEmpty ? .empty : Rect(x: r.x - view.x, y: r.y - view.y, width: r.width, height: r.height)
    }

    public func draw(into canvas: PixelBuffer, clip: Rect) {
        draw(into: canvas, clip: clip, originX: view.x, originY: view.y)
    }

    /// Draws the route inside `clip` of `surface` (XRGB8888) whose top-left pixel is map pixel
    /// (`originX`, `originY`): a tile's slot or a map image, which then carry the route whatever
    /// the view. The same pixels as `draw(into:clip:)` for a view there.
    public func draw(into surface: PixelBuffer, clip: Rect, originX: Int, originY: Int) {
        let area = clip.intersection(Self.shifted(mapBounds, (originX, originY))).intersection(surface.bounds)
        if area.isEmpty { return }
        line.stroke(stroke, into: surface, clip: area, viewX: originX, viewY: originY)
        // The next stop last, over any neighbour it grew into.
        var i = 0
        while i < stops.count {
            if i != nextStop { marker(i).draw(into: surface, clip: area, center: stops[i], viewX: originX, viewY: originY) }
            i += 1
        }
        if let n = nextStop { marker(n).draw(into: surface, clip: area, center: stops[n], viewX: originX, viewY: originY) }
    }

    /// What changed since the last take, in map pixels (whatever the view); returned once.
    public func takeMapDamage() -> Rect {
        let d = damage
        damage = .empty
        return d
    }

    /// All the route may cover, in map pixels.
    public var mapFrame: Rect { mapBounds }

    /// The cells of a grid of 1 << `shift` px squares of map pixels the route may colour, with any
    /// travelled part and any stop next (or more, never fewer): keys (`cellKey`), sorted, each once.
    /// Off the frame path: it allocates.
    public func cells(shift: Int) -> [Int64] {
        var keys: [Int64] = []
        line.forEachCell(shift: shift, margin256: stroke.reach256 + 256) { keys.append(Self.cellKey(column: $0, row: $1)) }
        for i in stops.indices {
            let r = markerBounds(i)
            if r.isEmpty { continue }
            for row in (r.y >> shift)...((r.maxY - 1) >> shift) {
                for column in (r.x >> shift)...((r.maxX - 1) >> shift) { keys.append(Self.cellKey(column: column, row: row)) }
            }
        }
        keys.sort()
        var unique: [Int64] = []
        unique.reserveCapacity(keys.count)
        for k in keys where unique.last != k { unique.append(k) }
        return unique
    }

    /// A cell's key: ordered by row, then column, for any sign of either.
    @inline(__always)
    public static func cellKey(column: Int, row: Int) -> Int64 {
        Int64(row) << 32 | Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: column)) ^ 0x8000_0000)
    }
}
