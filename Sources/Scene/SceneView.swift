import Compositor
import Config
import DisplayCore
import Geo
import Location
import LocationDot
import Positioning
import Raster
import Text
import TileMap
import Tiles

/// One canvas's worth of drawing: the scene (map, motion, truth), the map under it (an image's
/// window, or tiles) and the renderer that restores, paints and reports damage. Made when a
/// display (or a headless frame size) is known, and again at a reload; the daemon seeds it with
/// the last fix so a new view tells the same truth as the old one.
public final class SceneView {
    public private(set) var scene: DotScene
    public let window: MapWindow
    /// The tiled map, when `[map] tiles` is one: decoded off the loop, shown from its own pool.
    public let tiles: TiledMap?
    public let renderer: FrameRenderer
    /// Whether a frame waits for every tile in view (frames that must not depend on timing).
    public let waitsForTiles: Bool
    /// The last frame drawn.
    public private(set) var last: SceneFrame
    private var notes: [String] = []
    /// The frame drawn from where the scene puts the dot: the map, the planes, the renderer.
    public let step: FrameStep
    /// The dot on the display's sprite plane; nil: painted into the canvas.
    public private(set) var planeDot: PlaneDot? { didSet { step.dotPlane = planeDot } }
    /// The map (an image, or tiles) panned on the display's primary plane; nil: in the canvas.
    public private(set) var planeMap: PlaneMap? { didSet { step.mapPlane = planeMap } }
    /// The map's credit, a picture fixed on the screen: in the renderer's screen layers unless it
    /// holds a plane of its own.
    public let credit: PictureLayer?
    /// The transit banner, a picture fixed along the top or bottom edge: like the credit, and
    /// under it.
    public var banner: PictureLayer? { fixed.first { $0.name == "banner" }?.layer }
    /// The pictures fixed on the screen above the map and the dot, bottom to top (the banner, the
    /// credit), each in the canvas or on a plane of its own.
    var fixed: [FixedPicture] = []
    /// The display's planes for the layers above the map, the dot's plane, and the decision seen.
    var layerPlanes: (any PicturePlanes)?
    private var dotPlane: SpritePlane?
    private var seenGeneration = 0
    /// The map image, which carries a route drawn into it (`showRoute`).
    let mapImage: MapImage?
    /// A route drawn over the canvas as a map layer, where the map cannot carry it.
    var routeOnCanvas: RouteLayer?
    /// A kiosk's map layers over the canvas: the routes serving its stop, then the vehicles.
    var kioskRoutes: [RouteLayer] = []
    var kioskMarkers: MarkerLayer?

    public struct SetupError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// `files`: the map's files as opened (`MapFiles.open`); `map`: the map image, decoded.
    public init(settings: Settings, files: MapFiles, canvasWidth: Int, canvasHeight: Int, physicalHeight: Int,
                map: MapImage?, staleAfter: Double, center: GeoPoint?, waitForTiles: Bool = false) throws(SetupError) {
        let scale = settings.dot.scale(forDisplayLines: physicalHeight)
        do {
            scene = try DotScene(settings: settings, files: files, canvasWidth: canvasWidth, canvasHeight: canvasHeight, scale: scale,
                                 staleAfter: staleAfter, center: center)
        } catch {
            throw SetupError(description: "map: \(error)")
        }
        window = MapWindow(color: settings.map.background, source: map, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        mapImage = map
        waitsForTiles = waitForTiles
        if let set = files.tiles {
            let tiled: TiledMap
            do {
                tiled = try TiledMap(tileSet: set, zoom: Int(settings.map.zoom), background: settings.map.background,
                                     cacheBytes: settings.map.tiles.cacheBytes, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
            } catch {
                throw SetupError(description: "map: \(error)")
            }
            tiles = tiled
            do {
                renderer = try FrameRenderer(width: canvasWidth, height: canvasHeight, style: settings.dot.style,
                                             scale: scale, background: .tiles(tiled.mosaic))
            } catch {
                throw SetupError(description: "map: \(error)")
            }
        } else {
            tiles = nil
            window.show(offset: scene.offset)
            do {
                renderer = try FrameRenderer(width: canvasWidth, height: canvasHeight, style: settings.dot.style,
                                             scale: scale, background: window.background)
            } catch {
                throw SetupError(description: "frame: \(error)")
            }
            if window.scrolls { renderer.scrollBackground(toX: scene.offset.x, y: scene.offset.y) }
        }
        var credit: PictureLayer?
        if let text = Self.attributionText(settings.map.tiles.attribution, of: files.tiles) {
            do {
                let label = PictureLayer(try AttributionLabel.make(text: text, canvasWidth: canvasWidth, canvasHeight: canvasHeight, scale: scale))
                renderer.add(label, on: .screen)
                credit = label
            } catch {
                notes.append("map attribution not drawn: \(error)")
            }
        }
        self.credit = credit
        if let credit { fixed = [FixedPicture(layer: credit, name: "credit")] }
        last = SceneFrame(phase: .nofix, position: nil, center: nil, appearance: nil, offset: scene.offset)
        step = FrameStep(renderer: renderer, map: tiles.map { .tiles($0) } ?? (window.scrolls ? .scrolled : .window(window)),
                         waitsForTiles: waitForTiles)
    }

    /// The credit `[map] attribution` asks for: the tile set's own (tags stripped), a text, or none.
    static func attributionText(_ attribution: MapAttribution, of set: TileSet?) -> String? {
        switch attribution {
        case .none: return nil
        case .text(let t): return t
        case .auto:
            guard let html = set?.metadata.attribution else { return nil }
            let plain = AttributionText.plain(fromHTML: html)
            return plain.isEmpty ? nil : plain
        }
    }

    public var scale: Double { scene.scale }

    @discardableResult
    public func add(_ fix: Fix) -> SceneNote? { scene.add(fix) }

    /// The dot goes on as `old` drew it (a view made again at a reload, fixes from the same source).
    public func continueDot(from old: SceneView) { scene.continueDot(from: old.scene) }

    /// Draws the frame at `now` (monotonic seconds) into the renderer's canvas and returns
    /// the region that changed: the dot's old and new places, tiles that arrived, or the whole
    /// canvas when the view moved. While the map pans on the display's primary plane the frame
    /// goes to the planes alone and the canvas, behind them, does not change (empty). Allocates
    /// nothing.
    public func draw(at now: Double) -> DamageRegion {
        if let layerPlanes {
            if layerPlanes.generation != seenGeneration { apply(layerPlanes.grants) }
            // A picture on a plane that changed (text, size) is decided again with its new pixels.
            var changed = false
            for f in fixed where !f.inCanvas && !f.layer.takeDamage().isEmpty { changed = true }
            if changed { assignPlanes(layerPlanes) }
        }
        let frame = scene.frame(at: now)
        last = frame
        let centre = frame.center ?? MapPoint(x: 0, y: 0)
        if routeOnCanvas != nil { routeFollowsView(frame.offset) }
        if !kioskRoutes.isEmpty || kioskMarkers != nil { kioskFollowsView(frame.offset) }
        return step.draw(frame.center == nil ? nil : frame.appearance, centerX: centre.x, centerY: centre.y, offset: frame.offset)
    }

    /// Puts the dot on `plane` from the next frame (the display composes it over the canvas).
    public func putDot(on plane: SpritePlane) {
        planeDot = PlaneDot(plane: plane, style: renderer.style, scale: renderer.scale)
    }

    /// Decides which layers the display's planes hold, bottom to top: the map alone on the primary
    /// plane as a window over pictures (when the view moves over tiles or a whole map image and
    /// the dot is on a plane), then the dot and the credit on planes of their own (each asked of
    /// the display once, at its worst geometry). A layer left in the canvas takes every plane
    /// layer under it that it may cover with it; the map pans on the primary plane only while no
    /// layer above it is in the canvas. Called when a view is made, never per frame.
    public func panMap(on display: any Display) {
        var painter: (any MapPicturePainter)?
        if planeDot != nil, scene.map.follow != .off, renderer.mapLayers.isEmpty {
            if let tiles {
                painter = tiles
            } else if window.scrolls, let whole = window.source?.wholeFrame {
                painter = MapImagePainter(map: whole)
            }
        }
        let plane = painter == nil ? nil : display.mapScrollPlane(margin: PlaneMap.margin)
        dotPlane = planeDot?.plane
        layerPlanes = display.picturePlanes
        if let layerPlanes {
            assignPlanes(layerPlanes)
        } else {
            apply(PlaneGrants(dot: planeDot != nil, pictures: fixed.map { _ in false }))
        }
        if dotPlane != nil, planeDot == nil, let credit = fixed.last, credit.name == "credit", credit.inCanvas {
            notes.append("the map's credit is composited in the canvas, and the dot with it (it may cross the credit): the map moves in the canvas")
        }
        guard let painter, let plane, planeDot != nil, renderer.screenLayers.isEmpty else { return }
        planeMap = PlaneMap(plane: plane, painter: painter, viewWidth: renderer.width, viewHeight: renderer.height)
    }

    /// Asks the display again which of the dot and the fixed pictures hold planes.
    func assignPlanes(_ planes: any PicturePlanes) {
        apply(planes.assign(pictures: fixed.map { $0.layer.picture }, names: fixed.map { $0.name }))
    }

    /// Follows the display's decision: each fixed picture in the canvas or on its plane, the dot
    /// on its plane or in the canvas (where a layer above it stays in the canvas too).
    func apply(_ grants: PlaneGrants) {
        seenGeneration = layerPlanes?.generation ?? 0
        // Those in the canvas are put back bottom to top, so the credit stays over the banner.
        for f in fixed where f.inCanvas { renderer.remove(f.layer) }
        for (i, f) in fixed.enumerated() {
            f.inCanvas = !(i < grants.pictures.count && grants.pictures[i])
            // What the plane holds is the picture as it is now.
            if f.inCanvas { renderer.add(f.layer, on: .screen) } else { _ = f.layer.takeDamage() }
        }
        let dot = grants.dot && renderer.screenLayers.isEmpty
        if dot, planeDot == nil, let dotPlane {
            planeDot = PlaneDot(plane: dotPlane, style: renderer.style, scale: renderer.scale)
        } else if !dot, let planeDot {
            planeDot.plane.hideSprite()
            self.planeDot = nil
            renderer.invalidate()
        }
    }

    /// Which layers hold planes of their own, for the metrics: the map (as a window on the
    /// primary plane), the dot, the credit.
    public var layersOnPlanes: [(layer: String, onPlane: Bool)] {
        let dot = planeDot?.plane.takesSprites ?? false
        let map = dot && renderer.screenLayers.isEmpty && (planeMap?.plane.scrollsMap ?? false)
        var layers: [(layer: String, onPlane: Bool)] = [("map", map), ("dot", dot)]
        for f in fixed { layers.append((f.name, !f.inCanvas)) }
        return layers
    }

    /// What the screen shows when planes hold any layer (a snapshot): the display's own
    /// composition where it can be read back, else the canvas with the planes' pictures blended
    /// over it as the controller blends them; nil: the canvas is the screen.
    public func screen() -> (picture: OwnedPixelBuffer, source: String)? {
        let above = fixed.filter { !$0.inCanvas }.map { $0.layer.picture }
        if let planeDot { return planeDot.screen(canvas: currentCanvas(), above: above) }
        if above.isEmpty { return nil }
        let canvas = currentCanvas()
        let out = OwnedPixelBuffer(width: canvas.width, height: canvas.height, format: .xrgb8888)
        if let composed = dotPlane?.composedScreen(), composed.width == canvas.width, composed.height == canvas.height {
            out.buffer.copy(out.buffer.bounds, from: composed)
            return (out, "writeback")
        }
        out.buffer.copy(out.buffer.bounds, from: canvas)
        for picture in above { picture.draw(into: out.buffer, clip: out.buffer.bounds) }
        return (out, "composed in software")
    }

    /// Shows `picture` as the banner along the bottom edge (else the top) from the next frame,
    /// instead of the one before; nil takes it away. Under the credit (which must stay readable)
    /// and above the map and the dot: on a plane of its own where the display grants one (asked
    /// again whenever the banner changes), else composited in the canvas — the dot then leaves
    /// its plane (it may pass under the banner) and the map stops panning on the primary plane.
    /// Off the frame path.
    public func showBanner(_ picture: Overlay?, atBottom: Bool) {
        if let picture {
            picture.x = 0
            picture.y = atBottom ? renderer.height - picture.height : 0
        }
        showFixed("banner", picture, insertAt: 0)
    }

    /// Shows `picture` as the fixed picture `name` (put at `insertAt` among them, bottom to top,
    /// when it is new; its pixels replaced when it is there already), or takes it away (nil).
    /// On a plane of its own where the display grants one (asked again when it changes), else in
    /// the canvas, where it takes the dot off its plane and stops the map panning. Off the frame path.
    func showFixed(_ name: String, _ picture: Overlay?, insertAt position: Int) {
        let existing = fixed.firstIndex { $0.name == name }
        guard let picture else {
            guard let i = existing else { return }
            if fixed[i].inCanvas { renderer.remove(fixed[i].layer) }
            fixed.remove(at: i)
            if let layerPlanes { assignPlanes(layerPlanes) }
            renderer.invalidate()
            return
        }
        if let i = existing {
            // On a plane, the next frame decides again with the new pixels (its damage).
            fixed[i].layer.replace(with: picture)
            return
        }
        fixed.insert(FixedPicture(layer: PictureLayer(picture), name: name), at: min(position, fixed.count))
        if let layerPlanes {
            assignPlanes(layerPlanes)
        } else {
            apply(PlaneGrants(dot: planeDot != nil, pictures: fixed.map { _ in false }))
        }
        if !renderer.screenLayers.isEmpty { stopPanning() }
        renderer.invalidate()
    }

    /// Stops panning on the display's plane (this view is being replaced): the canvas from the
    /// next frame.
    public func stopPanning() {
        planeMap?.leave()
        planeMap = nil
    }

    /// The canvas as the screen shows it under the dot: drawn now when the screen showed a map
    /// picture instead (a snapshot), else as it is.
    public func currentCanvas() -> PixelBuffer {
        step.catchUpCanvas(offset: last.offset)
        return renderer.wholeCanvas()
    }

    /// Whether `takeNotes` has lines for the log (checked each frame; the lines are rare).
    public var hasNotes: Bool { !notes.isEmpty || (tiles?.hasNotes ?? false) }

    /// Lines for the log: problems with tiles and the attribution, each said once.
    public func takeNotes() -> [String] {
        var lines = notes
        notes = []
        if let tiles { lines += tiles.takeNotes() }
        return lines
    }

    /// Lets go of the tile worker and pool (a reload's new view replaces this one).
    public func close() { tiles?.close() }
}
