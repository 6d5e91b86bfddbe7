/// `[map] follow`: how the visible part of the map moves with the dot.
public enum FollowMode: String, Sendable, CaseIterable {
    /// The view never moves: an image is centred on the canvas; a centre-and-zoom map shows its centre.
    case off
    /// The view re-centres on the dot when the dot leaves the inner area of the canvas.
    case edge
    /// The view keeps the dot at the canvas centre, stopping at the image's edges.
    case center
}

/// `[map] offMap`: what a position outside the map image becomes.
public enum OffMapMode: String, Sendable, CaseIterable {
    /// Nothing is drawn (and the log says so once).
    case hide
    /// The dot is drawn at the nearest point of the map's edge.
    case edge
}

/// The map pixel at the canvas's top-left corner. Always whole pixels: the background is then a
/// plain copy, never resampled, and only the dot moves at sub-pixel precision.
public struct ViewOffset: Equatable, Sendable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// Where the dot goes for one frame, in map pixels.
public enum DotPlacement: Equatable, Sendable {
    case onMap(MapPoint)
    /// Off the map, drawn at its edge (`offMap = edge`).
    case pinned(MapPoint)
    /// Off the map and not drawn (`offMap = hide`).
    case hidden

    public var point: MapPoint? {
        switch self {
        case let .onMap(p), let .pinned(p): return p
        case .hidden: return nil
        }
    }
}

/// The pure rules of `follow` and `offMap` for one canvas over one map. Per-frame calls return
/// values and allocate nothing.
public struct MapViewport: Equatable, Sendable {
    public let follow: FollowMode
    public let offMap: OffMapMode
    /// The canvas in logical pixels.
    public let canvasWidth: Int
    public let canvasHeight: Int
    /// The map image's size, or nil for the boundless centre-and-zoom map.
    public let mapWidth: Int?
    public let mapHeight: Int?
    /// `edge`: the inner area is the canvas less this fraction of its size on every side.
    public let edgeMargin: Double
    /// `offMap = edge` keeps the dot's centre this many pixels inside the map (e.g. the ring's radius).
    public let edgeInset: Double
    /// Where the view starts (centred on it, within the map's edges); nil: the map's middle.
    public let start: MapPoint?

    public init(follow: FollowMode, offMap: OffMapMode, canvasWidth: Int, canvasHeight: Int,
                projection: MapProjection, edgeMargin: Double = 0.2, edgeInset: Double = 0, start: MapPoint? = nil) {
        self.follow = follow
        self.offMap = offMap
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        mapWidth = projection.imageSize?.width
        mapHeight = projection.imageSize?.height
        self.edgeMargin = min(max(edgeMargin, 0), 0.49)
        self.edgeInset = max(edgeInset, 0)
        self.start = start
    }

    /// The offset before any fix, and for ever with `follow = off`: an image centred on the canvas
    /// (a larger image shows its middle, a smaller one gets an even border); the centre-and-zoom map
    /// is already centred by its projection. A tiled map starts centred on `start`.
    public var initialOffset: ViewOffset {
        if let start { return centred(on: start) }
        return ViewOffset(x: mapWidth.map { Self.floorHalf($0 - canvasWidth) } ?? 0,
                   y: mapHeight.map { Self.floorHalf($0 - canvasHeight) } ?? 0)
    }

    /// The offset for the next frame given the dot's position and the current offset.
    public func offset(following dot: MapPoint?, from current: ViewOffset) -> ViewOffset {
        guard let dot, dot.x.isFinite, dot.y.isFinite else { return current }
        switch follow {
        case .off:
            return current
        case .center:
            return centred(on: dot)
        case .edge:
            let sx = dot.x - Double(current.x), sy = dot.y - Double(current.y)
            let mx = Double(canvasWidth) * edgeMargin, my = Double(canvasHeight) * edgeMargin
            let inside = sx >= mx && sx <= Double(canvasWidth) - mx && sy >= my && sy <= Double(canvasHeight) - my
            return inside ? current : centred(on: dot)
        }
    }

    /// Where the dot is drawn: on the map, pinned to its edge, or hidden (`offMap`). Only an image
    /// has edges; on the boundless map every position is on the map.
    public func placement(of dot: MapPoint) -> DotPlacement {
        guard let w = mapWidth, let h = mapHeight else { return .onMap(dot) }
        let inX = dot.x >= 0 && dot.x <= Double(w), inY = dot.y >= 0 && dot.y <= Double(h)
        if inX && inY { return .onMap(dot) }
        switch offMap {
        case .hide:
            return .hidden
        case .edge:
            let ix = min(edgeInset, Double(w) / 2), iy = min(edgeInset, Double(h) / 2)
            return .pinned(MapPoint(x: min(max(dot.x, ix), Double(w) - ix), y: min(max(dot.y, iy), Double(h) - iy)))
        }
    }

    /// The dot's position on the canvas for a view offset.
    public func canvasPoint(_ p: MapPoint, offset: ViewOffset) -> MapPoint {
        MapPoint(x: p.x - Double(offset.x), y: p.y - Double(offset.y))
    }

    // MARK: -

    /// The whole-pixel offset that puts `dot` nearest the canvas centre, clamped so an image larger
    /// than the canvas always fills it (a smaller one stays centred).
    func centred(on dot: MapPoint) -> ViewOffset {
        ViewOffset(x: Self.axis(dot.x, canvas: canvasWidth, map: mapWidth),
                   y: Self.axis(dot.y, canvas: canvasHeight, map: mapHeight))
    }

    static func axis(_ position: Double, canvas: Int, map: Int?) -> Int {
        // Bounded before conversion: a wild position must clamp, never trap in Int(_:).
        let wanted = min(max((position - Double(canvas) / 2).rounded(), -1e12), 1e12)
        var offset = Int(wanted)
        if let map {
            if map <= canvas { return floorHalf(map - canvas) }
            offset = min(max(offset, 0), map - canvas)
        }
        return offset
    }

    /// ⌊v / 2⌋ for negative v too, so an odd border splits the same way on every side.
    static func floorHalf(_ v: Int) -> Int { v >> 1 }
}
