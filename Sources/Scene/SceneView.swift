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
        if let text = Self.attributionText(settings.map.tiles.attribution, of: files.tiles) {
            do {
                let label = try AttributionLabel.make(text: text, canvasWidth: canvasWidth, canvasHeight: canvasHeight, scale: scale)
                renderer.add(PictureLayer(label), on: .screen)
            } catch {
                notes.append("map attribution not drawn: \(error)")
            }
        }
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

    /// Draws the frame at `now` (monotonic seconds) into the renderer's canvas and returns
    /// the rectangle that changed: the dot's old and new places, tiles that arrived, or the whole
    /// canvas when the view moved. While the map pans on the display's primary plane the frame
    /// goes to the planes alone and the canvas, behind them, does not change (empty). Allocates
    /// nothing.
    public func draw(at now: Double) -> Rect {
        let frame = scene.frame(at: now)
        last = frame
        let centre = frame.center ?? MapPoint(x: 0, y: 0)
        return step.draw(frame.center == nil ? nil : frame.appearance, centerX: centre.x, centerY: centre.y, offset: frame.offset)
    }

    /// Puts the dot on `plane` from the next frame (the display composes it over the canvas).
    public func putDot(on plane: SpritePlane) {
        planeDot = PlaneDot(plane: plane, style: renderer.style, scale: renderer.scale)
    }

    /// Pans the map on `display`'s primary plane from the next frame, when the view moves over
    /// tiles or a whole map image, the dot is on a plane, and the display scrolls pictures.
    public func panMap(on display: any Display) {
        guard planeDot != nil, scene.map.follow != .off else { return }
        if !renderer.screenLayers.isEmpty || !renderer.mapLayers.isEmpty {
            // The credit stays put on the screen while a picture moves under it, and map layers
            // are not in the pictures: only the canvas can hold them all.
            notes.append("the map's credit is drawn in the canvas: the map moves there, not on the display's primary plane")
            return
        }
        let painter: any MapPicturePainter
        if let tiles {
            painter = tiles
        } else {
            guard window.scrolls, let whole = window.source?.wholeFrame else { return }
            painter = MapImagePainter(map: whole)
        }
        guard let plane = display.mapScrollPlane(margin: PlaneMap.margin) else { return }
        planeMap = PlaneMap(plane: plane, painter: painter, viewWidth: renderer.width, viewHeight: renderer.height)
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
