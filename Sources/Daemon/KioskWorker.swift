import Compositor
import Config
import Kiosk
import Raster
import Scene
import Shaping
import Transit

/// What the loop asks of the kiosk's worker: what to show at `wall`, for a canvas and board of
/// these sizes. `full`: a new view, so the lines and the board are sent even if unchanged.
struct KioskRefresh: Sendable {
    var serial: Int
    var wall: Double
    var clockSynchronised: Bool
    var boardWidth: Int
    var boardHeight: Int
    var scale: Double
    var families: [String]
    var fallbackColor: Color
    var full: Bool
}

extension KioskModel.Settings {
    /// The model's settings from `[kiosk]`, `[realtime]` and `[transit]`.
    init(_ settings: Settings) {
        self.init()
        departures = settings.kiosk.departures
        vehicles = settings.kiosk.vehicles
        within = settings.kiosk.within * 60
        divertedMeters = settings.kiosk.divertedMeters
        staleAfter = settings.realtime.staleAfter
        language = settings.transit.language
        tripUpdatesConfigured = settings.realtime.tripUpdates != nil
    }
}

extension KioskRefresh {
    /// The refresh for `view` under `settings`: the board's size from `[kiosk] layout`, the
    /// fonts and the fallback colour from `[transit]`.
    init(serial: Int, settings: Settings, view: SceneView, wall: Double, clockSynchronised: Bool, full: Bool) {
        let place = settings.kiosk.boardRect(canvasWidth: view.renderer.width, canvasHeight: view.renderer.height)
        self.init(serial: serial, wall: wall, clockSynchronised: clockSynchronised, boardWidth: place.width, boardHeight: place.height,
                  scale: view.scale, families: settings.transit.fonts ?? FontCatalog.defaultFamilies,
                  fallbackColor: settings.transit.routeColor, full: full)
    }
}

/// What the worker made for a refresh. The pictures are let go by the worker once posted.
struct KioskMade {
    var snapshot: KioskSnapshot
    /// A new board picture; nil: its text did not change.
    var board: Overlay?
    /// Each marker's picture, in the snapshot's order.
    var sprites: [MarkerSprite]
    /// The trips whose lines to draw; nil: unchanged.
    var lines: [Trip]?
    /// Index into each line's stops of the kiosk's stop.
    var lineStops: [Int?]
}

struct KioskOutcome: @unchecked Sendable {
    var serial: Int
    var made: KioskMade?
    var notes: [String]
    var failure: String?
}

/// The kiosk's side on the transit worker: its model over the feed's index, the feeds as
/// fetched, the painters. Only the transit worker's one thread touches it, one job at a time.
final class KioskWorker: @unchecked Sendable {
    private var model: KioskModel?
    private var title = ""
    private var painter: BoardPainter?
    private var labelFonts: FontSet?
    private var paintedFor: (families: [String], scale: Double)?
    private var lastContent: BoardContent?
    private var lastSize = (0, 0)
    private var sprites: [String: MarkerSprite] = [:]
    private var linesSent: [String]?

    /// Opens the model over the index at `indexPath`; a line for each problem.
    func open(indexPath: String, zone: TimeZoneRules, stops: [String], settings: KioskModel.Settings) -> [String] {
        model = nil
        lastContent = nil
        linesSent = nil
        do throws(TransitError) {
            let index = try TransitIndex(path: indexPath)
            let m = try KioskModel(index: index, zone: zone, stopIDs: stops, settings: settings)
            model = m
            var notes: [String] = []
            let unknown = m.unknownStops()
            if !unknown.isEmpty { notes.append("stop \(unknown.joined(separator: ", ")) is not in the feed: its departures cannot be shown") }
            title = stops.compactMap { (try? index.stopPlace($0))??.name }.first ?? stops.joined(separator: ", ")
            return notes
        } catch {
            return ["the feed's index cannot be read (\(error.description)): no board"]
        }
    }

    func take(_ feed: RealtimeFeed, _ body: FetchedBody, at wall: Double) -> String? {
        model?.take(feed, body, at: wall)
    }

    func refresh(_ r: KioskRefresh) -> KioskOutcome {
        guard let model else { return KioskOutcome(serial: r.serial, made: nil, notes: [], failure: nil) }
        var notes: [String] = []
        let snapshot: KioskSnapshot
        do throws(TransitError) {
            snapshot = try model.snapshot(at: r.wall, clockSynchronised: r.clockSynchronised, notes: &notes)
        } catch {
            return KioskOutcome(serial: r.serial, made: nil, notes: notes, failure: "the board cannot be read from the index (\(error.description))")
        }
        do throws(ShapingError) {
            if painter == nil || paintedFor?.families != r.families || paintedFor?.scale != r.scale {
                let catalog = try FontCatalog(families: r.families)
                painter = try BoardPainter(catalog: catalog, scale: r.scale)
                labelFonts = try FontSet(catalog: catalog, pixelHeight: max(1, Int((MarkerSprite.labelPoints * r.scale).rounded())))
                paintedFor = (r.families, r.scale)
                sprites = [:]
                lastContent = nil
            }
            let content = BoardContent(title: title, snapshot: snapshot, zone: model.zone, fallbackColor: r.fallbackColor, language: model.settings.language)
            var board: Overlay?
            if r.full || content != lastContent || lastSize != (r.boardWidth, r.boardHeight) {
                board = try painter!.render(content, width: r.boardWidth, height: r.boardHeight)
                lastContent = content
                lastSize = (r.boardWidth, r.boardHeight)
            }
            var made: [MarkerSprite] = []
            var keep: [String: MarkerSprite] = [:]
            for m in snapshot.markers {
                let (color, text) = BoardContent.colors(m.route, fallback: r.fallbackColor)
                // Bearings in 10° steps: a sprite per heading seen, not per report.
                let bearing = m.bearing.map { (($0 / 10).rounded() * 10).truncatingRemainder(dividingBy: 360) }
                let key = "\(m.label)|\(color.r),\(color.g),\(color.b)|\(bearing.map { String(Int($0)) } ?? "-")"
                let sprite: MarkerSprite
                if let known = keep[key] ?? sprites[key] { sprite = known } else {
                    sprite = try MarkerSprite(label: m.label, color: color, textColor: text, bearing: bearing, fonts: labelFonts!, scale: r.scale)
                }
                keep[key] = sprite
                made.append(sprite)
            }
            sprites = keep
            var lines: [Trip]?
            var lineStops: [Int?] = []
            if r.full || linesSent != snapshot.lines.map({ $0.tripID }) {
                lines = snapshot.lines
                linesSent = snapshot.lines.map { $0.tripID }
                let ids = model.stopIDs + model.boardStops.map { $0.stopID }
                lineStops = snapshot.lines.map { t in t.stops.firstIndex { ids.contains($0.stopID) } }
            }
            return KioskOutcome(serial: r.serial, made: KioskMade(snapshot: snapshot, board: board, sprites: made, lines: lines, lineStops: lineStops),
                                notes: notes, failure: nil)
        } catch {
            return KioskOutcome(serial: r.serial, made: nil, notes: notes, failure: "the board cannot be drawn (\(error.description))")
        }
    }
}
