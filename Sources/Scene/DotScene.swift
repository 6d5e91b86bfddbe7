import Config
import DisplayCore
import Geo
import Location
import LocationDot
import Positioning
import Tiles

/// What one frame shows, in numbers: what is drawn where, and what `frames.jsonl` records.
public struct SceneFrame: Equatable, Sendable {
    public var phase: FixPhase
    /// The position drawn (after motion, and after `offMap = edge` pinned it); nil: none.
    public var position: GeoPoint?
    /// The dot's centre in logical canvas pixels; nil: nothing is drawn.
    public var center: MapPoint?
    /// nil: nothing is drawn.
    public var appearance: DotAppearance?
    /// The map pixel at the canvas's top-left corner.
    public var offset: ViewOffset
}

/// Something about a fix worth one log line.
public enum SceneNote: Equatable, Sendable {
    /// The fix cannot be drawn at all (polar, out of range); it was ignored.
    case rejected(ProjectionError)
    /// The first fix placed a map without a configured centre.
    case centred(on: GeoPoint)
    /// The fixes left the map image (and are hidden or pinned per `offMap`).
    case leftMap(GeoPoint, OffMapMode)
    case backOnMap(GeoPoint)
}

/// The map, the motion and the truth for one canvas: fixes go in (`add`), and for every frame
/// `frame(at:)` says where the dot is drawn and how it looks. Times are monotonic seconds.
/// `frame(at:)` allocates nothing.
public struct DotScene: Sendable {
    public let canvasWidth: Int
    public let canvasHeight: Int
    /// Pixels per point on this display.
    public let scale: Double
    public let map: MapSettings
    public private(set) var projection: MapProjection?
    public private(set) var viewport: MapViewport?
    /// Map pixels the view is moved by at placing, so the stop stands clear of a kiosk's board.
    let kioskShift: (x: Int, y: Int)
    public private(set) var offset = ViewOffset(x: 0, y: 0)
    public private(set) var motion = MotionModel()
    public private(set) var truth: FixState

    /// The dot goes on from `old`'s (a view replaced at a reload, the same source): see
    /// `FixState.continueFrom`.
    public mutating func continueDot(from old: DotScene) { truth.continueFrom(old.truth) }
    let clock: DotClock
    /// Whether the latest fix lay outside the map image (to say it once, not per fix).
    private var offMap = false

    /// `files`: the map's files as opened (`MapFiles.open`). `center`: where a map without image
    /// and without a configured centre is centred (the fixed `[source] position`); nil leaves it
    /// to the first fix.
    public init(settings: Settings, files: MapFiles, canvasWidth: Int, canvasHeight: Int, scale: Double,
                staleAfter: Double, center: GeoPoint? = nil) throws(ProjectionError) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.scale = scale
        map = settings.map
        kioskShift = settings.kiosk.viewShift(canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        clock = DotClock(style: settings.dot.style)
        truth = FixState(rules: FixRules(dot: settings.dot, staleAfter: staleAfter, scale: scale))
        if let tiles = files.tiles {
            let zoom = Int(map.zoom)
            let r = tiles.tileRange(zoom: zoom)
            let grid = try MapProjection.tileGrid(zoom: zoom, tileSize: tiles.tileSize, firstColumn: r.firstColumn,
                                                  firstRow: r.firstRow, columns: r.columns, rows: r.rows)
            let start = map.center ?? center ?? files.tileStart
            place(grid, start: start.map { grid.point(for: $0) })
        } else if let path = map.imagePath, let bounds = map.bounds {
            guard let size = files.imageSize else { throw .badSize(width: 0, height: 0, what: "map image \(path)") }
            try place(.georeferenced(bounds: bounds, imageWidth: size.width, imageHeight: size.height))
        } else if let centre = map.center ?? center {
            try place(.webMercator(center: centre, zoom: map.zoom, canvasWidth: canvasWidth, canvasHeight: canvasHeight))
        }
    }

    private mutating func place(_ projection: MapProjection, start: MapPoint? = nil) {
        self.projection = projection
        let v = MapViewport(follow: map.follow, offMap: map.offMap, canvasWidth: canvasWidth, canvasHeight: canvasHeight,
                            projection: projection, edgeInset: DotStyle.ringDiameter / 2 * scale, start: start)
        viewport = v
        offset = v.initialOffset
        // A kiosk's board covers part of the canvas: the stop goes to the middle of the rest.
        let shift = kioskShift
        offset = ViewOffset(x: offset.x + shift.x, y: offset.y + shift.y)
    }

    /// Takes a fix (its `receivedAt` is its time). Returns what to say about it, if anything.
    @discardableResult
    public mutating func add(_ fix: Fix) -> SceneNote? {
        let point = GeoPoint(latitude: fix.latitude, longitude: fix.longitude)
        do {
            try MapProjection.check(point, what: "fix")
        } catch {
            return .rejected(error)
        }
        var note: SceneNote?
        if projection == nil {
            do {
                try place(.webMercator(center: point, zoom: map.zoom, canvasWidth: canvasWidth, canvasHeight: canvasHeight))
            } catch {
                return .rejected(error)
            }
            note = .centred(on: point)
        }
        guard let projection else { return note }
        let outside = !projection.contains(projection.point(for: point))
        if outside != offMap {
            offMap = outside
            note = outside ? .leftMap(point, map.offMap) : .backOnMap(point)
        }
        motion.add(fix)
        truth.fixArrived(fix, pixelsPerMetre: projection.pixelsPerMetre(atLatitude: fix.latitude))
        return note
    }

    /// The frame at `now`, moving the view as `follow` says.
    public mutating func frame(at now: Double) -> SceneFrame {
        let phase = truth.phase(at: now)
        let look = truth.appearance(at: now, clock: clock)
        guard let projection, let viewport, let geo = motion.position(at: now) else {
            // Before the first fix (`noFix = ring`): the ring waits at the centre of the canvas.
            let centre = look == nil ? nil : MapPoint(x: Double(canvasWidth) / 2, y: Double(canvasHeight) / 2)
            return SceneFrame(phase: phase, position: nil, center: centre, appearance: look, offset: offset)
        }
        let placement = viewport.placement(of: projection.point(for: geo))
        guard let point = placement.point else {
            return SceneFrame(phase: phase, position: nil, center: nil, appearance: nil, offset: offset)
        }
        offset = viewport.offset(following: point, from: offset)
        let drawn: GeoPoint
        if case .pinned = placement { drawn = projection.geoPoint(for: point) } else { drawn = geo }
        return SceneFrame(phase: phase, position: drawn, center: viewport.canvasPoint(point, offset: offset),
                          appearance: look, offset: offset)
    }
}

extension SceneFrame {
    /// What this frame shows, for displays that keep a record of their frames.
    public func stamp(sinceStart: Double, monotonic: Double) -> FrameStamp {
        FrameStamp(sinceStart: sinceStart, monotonic: monotonic, state: phase.rawValue,
                   latitude: position?.latitude, longitude: position?.longitude, x: center?.x, y: center?.y,
                   accuracyRadiusPx: center == nil ? nil : appearance?.accuracyRadiusPx,
                   heading: center == nil ? nil : appearance?.heading)
    }
}
