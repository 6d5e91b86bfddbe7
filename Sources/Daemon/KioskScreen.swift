import Compositor
import Config
import DisplayCore
import FeedFetch
import Geo
import Kiosk
import Raster
import Scene
import Transit

/// The loop's side of a stop kiosk: the fetcher, what was asked of the worker and what came
/// back, the markers' layer and motions, the lines, the frames' record. Lives on the loop's
/// thread only.
final class KioskScreen {
    let worker = KioskWorker()
    var fetcher: FeedFetcher?
    /// Which `RealtimeFeed` each of the fetcher's sources is.
    var feedOf: [RealtimeFeed] = []
    var results: [FeedResult] = []
    /// The index the worker's model was opened on; nil: not asked yet.
    var openedIndex: String?
    var serial = 0
    /// The first serial asked of the model opened last: a board made before it (another stop, a
    /// reload ago) is never shown.
    var firstSerial = 0
    /// A refresh on its way; another waits for it.
    var inFlight = false
    var wanted = false
    /// Monotonic seconds of the next refresh made without a fetch (the minutes move on).
    var nextRefresh = 0.0
    /// The view the layers and the board were made for.
    var viewID: ObjectIdentifier?
    var markers = MarkerLayer()
    var routes: [TransitRoute] = []
    /// The motions as recorded, by vehicle, to start the next one where the marker is.
    var motions: [String: KioskStamp.Marker] = [:]
    private(set) var stamp: KioskStamp?
    var live: LiveData?
    var failureSaid: String?
    /// For the metrics.
    var shownVehicles = 0
    var shownDepartures = 0
    var feedAges: [Double?] = [nil, nil, nil]
    var fetchSeconds: [Double?] = [nil, nil, nil]
    var fetchErrors: [String: Int] = [:]

    func record(_ stamp: KioskStamp) { self.stamp = stamp }

    /// Puts what the worker made on `view`: the board at its place, the lines when they changed,
    /// each marker gliding from where it is drawn now to its new place over one fetch period, and
    /// the frames' record. Returns the number of lines when they changed. Off the frame path.
    func apply(_ made: KioskMade, to view: SceneView, now: Double, settings: Settings) -> Int? {
        let snapshot = made.snapshot
        if let board = made.board {
            let place = settings.kiosk.boardRect(canvasWidth: view.renderer.width, canvasHeight: view.renderer.height)
            board.x = place.x
            board.y = place.y
            view.showBoard(board)
        }
        var linesShown: Int?
        if let lines = made.lines {
            routes = []
            for (i, trip) in lines.enumerated() {
                guard let route = TransitRoute(trip: trip, view: view, settings: settings.transit) else { continue }
                route.move(distance: nil, nextStop: i < made.lineStops.count ? made.lineStops[i] : nil)
                routes.append(route)
            }
            view.showKiosk(routes: routes.map { $0.layer }, markers: markers)
            linesShown = lines.count
        }
        let projection = view.scene.projection
        var layerMotions: [MarkerLayer.Motion] = []
        var stamped: [KioskStamp.Marker] = []
        var next: [String: KioskStamp.Marker] = [:]
        for (m, sprite) in zip(snapshot.markers, made.sprites) {
            guard let projection else { break }
            var from = m.along
            if let before = motions[m.vehicleID], before.tripID == m.tripID, !before.diverted { from = min(before.place(at: now).along, m.along) }
            var metres = [from], lats: [Double] = [], lons: [Double] = []
            if let off = m.diverted {
                // Off its line: shown where it is, not glided along a line it does not follow.
                from = m.along
                lats.append(off.latitude)
                lons.append(off.longitude)
            } else {
                let start = m.line.position(at: from)
                lats.append(start.latitude)
                lons.append(start.longitude)
                for (i, d) in m.line.distances.enumerated() where d > from && d < m.along {
                    metres.append(d)
                    lats.append(m.line.points[i].latitude)
                    lons.append(m.line.points[i].longitude)
                }
                let end = m.line.position(at: m.along)
                metres.append(m.along)
                lats.append(end.latitude)
                lons.append(end.longitude)
            }
            let record = KioskStamp.Marker(vehicleID: m.vehicleID, tripID: m.tripID, from: from, to: m.along, start: now,
                                           duration: m.along > from ? settings.realtime.every : 0, old: m.old,
                                           metres: metres, latitudes: lats, longitudes: lons, diverted: m.diverted != nil)
            let path = (0..<lats.count).map { i -> Point256 in
                let p = projection.point(for: GeoPoint(latitude: lats[i], longitude: lons[i]))
                return Point256(x: p.x, y: p.y)
            }
            layerMotions.append(MarkerLayer.Motion(picture: m.old ? sprite.faded : sprite.picture, anchorX: sprite.anchorX, anchorY: sprite.anchorY,
                                                   path: path, start: now, duration: record.duration))
            stamped.append(record)
            next[m.vehicleID] = record
        }
        markers.setMarkers(layerMotions)
        motions = next
        shownVehicles = layerMotions.count
        shownDepartures = snapshot.rows.count
        feedAges = [snapshot.vehiclePositionsAge, snapshot.tripUpdatesAge, snapshot.alertsAge]
        let rows = snapshot.rows.map { r in
            KioskStamp.Row(tripID: r.tripID, route: r.route.shortName ?? r.route.routeID, headsign: r.headsign, stopID: r.stopID,
                           minutes: r.minutes, time: r.time, live: r.live, cancelled: r.cancelled, skipped: r.skipped)
        }
        record(KioskStamp(live: snapshot.live.key, status: snapshot.live.sentence, rows: rows, markers: stamped, alerts: snapshot.alerts))
        return linesShown
    }

    /// Stops fetching and forgets what was shown (no kiosk any more, or another one).
    func close() {
        fetcher?.stop()
        fetcher = nil
        openedIndex = nil
        stamp = nil
        motions = [:]
        routes = []
        markers = MarkerLayer()
        viewID = nil
        live = nil
    }
}
